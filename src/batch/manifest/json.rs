//! A manifest as compact JSON, written by hand: the same bytes as
//! `serde_json::to_vec`, which spent most of its time checking each byte
//! of each text for characters to escape. A manifest's texts are mostly
//! hashes and paths, with none: checked a whole text at a time, they are
//! copied as they are. Measured 2026-11-28 (callgrind, a batch of 120
//! targets, every manifest written once): serde 6.3 M instructions.

use super::{LeftOut, Manifest};
use std::collections::BTreeMap;

impl Manifest {
    /// The manifest as compact JSON (as `serde_json::to_vec` writes it).
    ///
    /// ```
    /// use bpvm::batch::{Manifest, Options, Target, run};
    /// let dir = std::env::temp_dir().join(format!("bpvm-manifest-json-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// std::fs::write(dir.join("q.yaml"), "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: orders}\n").unwrap();
    /// let targets = [Target::bluelink(&dir, "q.yaml", None, Default::default())];
    /// let records = run(&targets, &Options { track: true, ..Options::default() }, &());
    /// let manifest = records[0].manifest.as_ref().unwrap();
    /// assert_eq!(manifest.to_json(), serde_json::to_vec(manifest).unwrap());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn to_json(&self) -> Vec<u8> {
        self.json(false)
    }

    /// The manifest as the render cache keeps it: [`Manifest::to_json`],
    /// with each facet left out's [`bytes`](LeftOut::bytes).
    pub(crate) fn to_entry_json(&self) -> Vec<u8> {
        self.json(true)
    }

    fn json(&self, bytes: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(4096);
        out.extend_from_slice(b"{\"key\":");
        text(&mut out, &self.key);
        out.extend_from_slice(b",\"target\":");
        text(&mut out, &self.target);
        out.extend_from_slice(b",\"bpvm\":");
        text(&mut out, &self.bpvm);
        out.extend_from_slice(b",\"options\":");
        map(&mut out, &self.options, |out, v| text(out, v));
        let read = &self.inputs;
        out.extend_from_slice(b",\"inputs\":{\"files\":");
        map(&mut out, &read.files, |out, v| text(out, v));
        out.extend_from_slice(b",\"folders\":");
        map(&mut out, &read.folders, |out, v| text(out, v));
        out.extend_from_slice(b",\"paths\":");
        map(&mut out, &read.paths, |out, v| text(out, v));
        out.extend_from_slice(b",\"env\":");
        map(&mut out, &read.env, |out, v| match v {
            Some(v) => text(out, v),
            None => out.extend_from_slice(b"null"),
        });
        if !read.facets_left_out.is_empty() {
            out.extend_from_slice(b",\"facets_left_out\":");
            map(&mut out, &read.facets_left_out, |out, v| left_out(out, v, bytes));
        }
        out.extend_from_slice(b"}}");
        out
    }
}

fn left_out(out: &mut Vec<u8>, entry: &LeftOut, with_bytes: bool) {
    out.extend_from_slice(b"{\"rules\":");
    text(out, &entry.rules);
    out.extend_from_slice(b",\"hash\":");
    text(out, &entry.hash);
    if let Some(bytes) = entry.bytes.as_ref().filter(|_| with_bytes) {
        out.extend_from_slice(b",\"bytes\":");
        text(out, bytes);
    }
    out.push(b'}');
}

fn map<V>(out: &mut Vec<u8>, map: &BTreeMap<String, V>, mut value: impl FnMut(&mut Vec<u8>, &V)) {
    out.push(b'{');
    for (i, (key, v)) in map.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        text(out, key);
        out.push(b':');
        value(out, v);
    }
    out.push(b'}');
}

/// `s` as a JSON string: copied when nothing in it is escaped, else as
/// serde_json escapes it.
fn text(out: &mut Vec<u8>, s: &str) {
    // No early exit and no branch: the loop runs over whole vectors of
    // bytes.
    let escaped = s
        .bytes()
        .map(|b| u8::from(b < 0x20) | u8::from(b == b'"') | u8::from(b == b'\\'))
        .fold(0, |any, b| any | b)
        != 0;
    if escaped {
        // Writing to memory cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    } else {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
}

#[cfg(test)]
mod tests {
    use super::super::Read;
    use super::*;

    fn texts(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_manifest_is_written_as_serde_writes_it() {
        let left = |bytes: Option<&str>| LeftOut {
            rules: "v0.9".into(),
            hash: "ee".into(),
            bytes: bytes.map(str::to_string),
        };
        let full = Manifest {
            key: "k\"ey".into(),
            target: "p/dev\u{7f}\u{1}".into(),
            bpvm: "1.2.3".into(),
            options: texts(&[("format", "yaml"), ("strict", "false")]),
            inputs: Read {
                files: texts(&[("p/windsor.yaml", "aa"), ("p/ü \\ \t.yaml", "bb")]),
                folders: texts(&[("p/contexts", "cc")]),
                paths: texts(&[("p/x", "missing"), ("p/\u{2028}", "file")]),
                env: BTreeMap::from([("HOME".into(), Some("dd".into())), ("UNSET".into(), None)]),
                facets_left_out: BTreeMap::from([
                    ("p/f.yaml".into(), left(Some("ff"))),
                    ("p/g.yaml".into(), left(None)),
                ]),
            },
        };
        let empty = Manifest {
            inputs: Read::default(),
            options: BTreeMap::new(),
            ..full.clone()
        };
        let entry: Manifest = serde_json::from_slice(&full.to_entry_json()).unwrap();
        assert_eq!(entry, full, "the cache's form keeps every field");
        let report: Manifest = serde_json::from_slice(&full.to_json()).unwrap();
        assert!(report.inputs.facets_left_out.values().all(|e| e.bytes.is_none()));
        for m in [full, empty] {
            assert_eq!(
                String::from_utf8(m.to_json()).unwrap(),
                serde_json::to_string(&m).unwrap()
            );
        }
    }
}
