//! A manifest on the pipe: its texts and maps as fields, as the rest of
//! a record goes. As JSON, written by the worker and parsed by the
//! parent, manifests cost 9 M instructions in a batch of 120 targets
//! (callgrind, 2026-11-28), a sixth of what tracking added to it.

use super::frame::{number, put, put_number, put_option, text, text_option};
use bpvm::batch::{LeftOut, Manifest, Read as Inputs};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};

/// Writes `m`.
pub(super) fn put_manifest(out: &mut impl Write, m: &Manifest) -> io::Result<()> {
    put(out, m.key.as_bytes())?;
    put(out, m.target.as_bytes())?;
    put(out, m.bpvm.as_bytes())?;
    put_map(out, &m.options, |out, v| put(out, v.as_bytes()))?;
    let read = &m.inputs;
    put_map(out, &read.files, |out, v| put(out, v.as_bytes()))?;
    put_map(out, &read.folders, |out, v| put(out, v.as_bytes()))?;
    put_map(out, &read.paths, |out, v| put(out, v.as_bytes()))?;
    put_map(out, &read.env, |out, v| {
        put_option(out, v.as_deref().map(str::as_bytes))
    })?;
    put_map(out, &read.facets_left_out, |out, v| {
        put(out, v.rules.as_bytes())?;
        put(out, v.hash.as_bytes())?;
        put_option(out, v.bytes.as_deref().map(str::as_bytes))
    })
}

/// Reads what [`put_manifest`] wrote.
pub(super) fn manifest(input: &mut impl Read) -> io::Result<Manifest> {
    Ok(Manifest {
        key: text(input)?,
        target: text(input)?,
        bpvm: text(input)?,
        options: map(input, text)?,
        inputs: Inputs {
            files: map(input, text)?,
            folders: map(input, text)?,
            paths: map(input, text)?,
            env: map(input, text_option)?,
            facets_left_out: map(input, |input| {
                Ok(LeftOut {
                    rules: text(input)?,
                    hash: text(input)?,
                    bytes: text_option(input)?,
                })
            })?,
        },
    })
}

fn put_map<W: Write, V>(
    out: &mut W,
    map: &BTreeMap<String, V>,
    mut value: impl FnMut(&mut W, &V) -> io::Result<()>,
) -> io::Result<()> {
    put_number(out, map.len() as u64)?;
    for (key, v) in map {
        put(out, key.as_bytes())?;
        value(out, v)?;
    }
    Ok(())
}

fn map<R: Read, V>(input: &mut R, mut value: impl FnMut(&mut R) -> io::Result<V>) -> io::Result<BTreeMap<String, V>> {
    let n = number(input)?;
    (0..n).map(|_| Ok((text(input)?, value(input)?))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full() -> Manifest {
        let texts = |pairs: &[(&str, &str)]| -> BTreeMap<String, String> {
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        Manifest {
            key: "k".into(),
            target: "p/dev".into(),
            bpvm: "1.2.3".into(),
            options: texts(&[("format", "yaml"), ("strict", "false")]),
            inputs: Inputs {
                files: texts(&[("p/windsor.yaml", "aa"), ("p/ü.yaml", "bb")]),
                folders: texts(&[("p/contexts", "cc")]),
                paths: texts(&[("p/x", "missing")]),
                env: BTreeMap::from([("HOME".into(), Some("dd".into())), ("UNSET".into(), None)]),
                facets_left_out: BTreeMap::from([(
                    "p/f.yaml".into(),
                    LeftOut {
                        rules: "v0.9".into(),
                        hash: "ee".into(),
                        bytes: Some("ff".into()),
                    },
                )]),
            },
        }
    }

    #[test]
    fn every_part_of_a_manifest_goes_through_unchanged() {
        let mut bytes = Vec::new();
        put_manifest(&mut bytes, &full()).unwrap();
        let mut input = bytes.as_slice();
        assert_eq!(manifest(&mut input).unwrap(), full());
        assert!(input.is_empty());
    }

    #[test]
    fn a_manifest_cut_short_is_an_error() {
        let mut bytes = Vec::new();
        put_manifest(&mut bytes, &full()).unwrap();
        for len in [0, 9, bytes.len() / 2, bytes.len() - 1] {
            let e = manifest(&mut &bytes[..len]).unwrap_err();
            assert!(e.to_string().starts_with("batch worker pipe: "), "{len}: {e}");
        }
    }
}
