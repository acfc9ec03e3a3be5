//! A manifest as compact JSON, written by hand: the same bytes as
//! `serde_json::to_vec`, which spent most of its time checking each byte
//! of each text for characters to escape. A manifest's texts are mostly
//! hashes and paths, with none: checked a whole text at a time, they are
//! copied as they are. Measured 2026-11-28 (callgrind, a batch of 120
//! targets, every manifest written once): serde 6.3 M instructions.

use super::{LeftOut, Manifest};
use std::collections::BTreeMap;

/// The context a key is derived in (BLAKE3's key derivation mode): what
/// the key hashes — a manifest's JSON after its key, as
/// [`Manifest::to_json`] writes it — and its version. A context rather
/// than a prefix: the JSON is then hashed from a chunk's start, its
/// chunks side by side (a 16-byte prefix made half of them go one at a
/// time: 0.8 M more instructions in a batch of 120 targets).
const KEY_OF: &str = "bpvm 2026-11-28 manifest key 3: the JSON after the key";

/// Where a manifest's JSON starts: the key follows, in hex.
const KEY_AT: &[u8] = b"{\"key\":\"";

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
    #[cfg(test)]
    pub(crate) fn to_entry_json(&self) -> Vec<u8> {
        self.json(true)
    }

    fn json(&self, bytes: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(4096);
        out.extend_from_slice(b"{\"key\":");
        text(&mut out, &self.key);
        out.push(b',');
        self.body(&mut out, bytes);
        out
    }

    /// The JSON after the key, to its end.
    fn body(&self, out: &mut Vec<u8>, bytes: bool) {
        head(out, &self.target, &self.bpvm, &self.options);
        let read = &self.inputs;
        map(out, &read.files, |out, v| text(out, v));
        out.extend_from_slice(b",\"folders\":");
        map(out, &read.folders, |out, v| text(out, v));
        out.extend_from_slice(b",\"paths\":");
        map(out, &read.paths, |out, v| text(out, v));
        out.extend_from_slice(b",\"env\":");
        map(out, &read.env, |out, v| env_value(out, v.as_deref()));
        left_outs(
            out,
            read.facets_left_out.iter().map(|(name, e)| (name.as_str(), e)),
            bytes,
        );
    }

    /// The hash (hex) of everything but the key: of the JSON after it
    /// (that of [`Manifest::to_json`]).
    #[cfg(test)]
    pub(super) fn hash(&self) -> String {
        let mut body = Vec::with_capacity(4096);
        self.body(&mut body, false);
        super::hex(&key_of(&body))
    }
}

/// The key of a manifest whose JSON after the key is `body`.
pub(super) fn key_of(body: &[u8]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(KEY_OF);
    h.update(body);
    *h.finalize().as_bytes()
}

/// Starts a manifest's JSON, its key to be filled in by [`put_key`]; the
/// body follows from the returned offset.
pub(super) fn start(out: &mut Vec<u8>) -> usize {
    out.extend_from_slice(KEY_AT);
    out.extend_from_slice(&[b'0'; 64]);
    out.extend_from_slice(b"\",");
    out.len()
}

/// Fills in the key a JSON begun by [`start`] left out.
pub(super) fn put_key(out: &mut [u8], key: &str) {
    out[KEY_AT.len()..KEY_AT.len() + 64].copy_from_slice(key.as_bytes());
}

/// A manifest's JSON from the target to the files' map (which follows).
pub(super) fn head(out: &mut Vec<u8>, target: &str, bpvm: &str, options: &BTreeMap<String, String>) {
    out.extend_from_slice(b"\"target\":");
    text(out, target);
    out.extend_from_slice(b",\"bpvm\":");
    text(out, bpvm);
    out.extend_from_slice(b",\"options\":");
    map(out, options, |out, v| text(out, v));
    out.extend_from_slice(b",\"inputs\":{\"files\":");
}

/// An environment variable's value: its hash, or `null`.
pub(super) fn env_value(out: &mut Vec<u8>, value: Option<&str>) {
    match value {
        Some(v) => text(out, v),
        None => out.extend_from_slice(b"null"),
    }
}

/// The facets left out, when there are any, and the manifest's end.
pub(super) fn left_outs<'a>(out: &mut Vec<u8>, left: impl Iterator<Item = (&'a str, &'a LeftOut)>, bytes: bool) {
    let mut left = left.peekable();
    if left.peek().is_some() {
        out.extend_from_slice(b",\"facets_left_out\":{");
        for (i, (name, entry)) in left.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            text(out, name);
            out.push(b':');
            left_out(out, entry, bytes);
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"}}");
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
pub(super) fn text(out: &mut Vec<u8>, s: &str) {
    if plain(s.as_bytes()) {
        out.reserve(s.len() + 2);
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    } else {
        // Writing to memory cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Whether nothing in `bytes` is escaped in a JSON string (no control
/// character, `"` or `\\`), checked eight bytes at a time: byte by byte,
/// the check was three instructions a byte (callgrind, 2026-11-28), and
/// most texts here are 64-byte hashes.
fn plain(bytes: &[u8]) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    // A high bit for each byte of `x` below `n` (n ≤ 128); none for none.
    let below = |x: u64, n: u8| x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH;
    let special =
        |x: u64| below(x, 0x20) | below(x ^ (ONES * u64::from(b'"')), 1) | below(x ^ (ONES * u64::from(b'\\')), 1);
    let mut words = bytes.chunks_exact(8);
    let mut any = 0;
    for w in &mut words {
        any |= special(u64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]));
    }
    any == 0 && words.remainder().iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\')
}

#[cfg(test)]
mod tests {
    use super::super::Read;
    use super::*;

    fn texts(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    #[test]
    fn a_text_is_plain_unless_a_byte_of_it_is_escaped() {
        for len in [1, 7, 8, 9, 16, 64, 65] {
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut text = vec![b'a'; len];
                    text[at] = b;
                    let escaped = b < 0x20 || b == b'"' || b == b'\\';
                    assert_eq!(plain(&text), !escaped, "byte {b:#x} at {at} of {len}");
                }
            }
        }
        assert!(plain(b""));
        assert!(plain("é ü ∑ \u{7f}".as_bytes()));
        // Bytes near the edges, in every mix (a borrow from one byte must
        // not hide or fake another's).
        let near = [
            0x00, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x5b, 0x5c, 0x5d, 0x7f, 0x80, 0xa2, 0xdc, 0xff,
        ];
        let mut state = 7u64;
        for _ in 0..20_000 {
            let text: Vec<u8> = (0..1 + state % 24)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    near[(state >> 33) as usize % near.len()]
                })
                .collect();
            let escaped = text.iter().any(|&b| b < 0x20 || b == b'"' || b == b'\\');
            assert_eq!(plain(&text), !escaped, "{text:?}");
        }
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
