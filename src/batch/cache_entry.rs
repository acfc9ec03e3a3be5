//! One render cache entry: a target's manifest and its output in one
//! file, so that storing a target creates one file, not two.
//!
//! ```text
//! bpvm-cache-entry-3 <checksum> <identity> <manifest bytes> <notes bytes>
//! <manifest as JSON><notes as a JSON list><rendered text, as it is>
//! ```
//!
//! The checksum is the CRC-32 (in hex) of everything after it (the rest of
//! the first line, its newline and the body): a file cut short or changed
//! anywhere is no entry. A checksum, not a cryptographic hash: it finds
//! damage, and no hash could keep out whoever may write the cache (they
//! could write an entry whole). Checked at 3.4 GB/s as BLAKE3, the
//! entries of a warm run of 1,200 targets (16 MB) took 4.7 ms of
//! computing; as CRC-32, at 49 GB/s, 0.3 ms (2026-11-28).
//!
//! The identity is the hash that names the file (see `Cache`): a file
//! copied or renamed under another target's name is no entry of that
//! target. The text follows raw, not as a JSON string: nothing to escape
//! on the way in or to unescape on the way out.

use super::manifest::Manifest;
use super::template::Output;
use std::io::{self, Write};

/// The first word of an entry: the layout version is its last number.
const ENTRY: &str = "bpvm-cache-entry-3";

/// Writes the entry of `identity` holding the manifest `manifest` (its
/// JSON as the cache keeps it) and `output` to `to`.
pub(super) fn write_entry(to: &mut impl Write, identity: &str, manifest: &[u8], output: &Output) -> io::Result<()> {
    let notes = serde_json::to_vec(&output.notes)?;
    let rest = format!("{identity} {} {}\n", manifest.len(), notes.len());
    let mut sum = crc32fast::Hasher::new();
    for part in [rest.as_bytes(), manifest, &notes, output.text.as_bytes()] {
        sum.update(part);
    }
    write!(to, "{ENTRY} {:08x} {rest}", sum.finalize())?;
    for part in [manifest, &notes, output.text.as_bytes()] {
        to.write_all(part)?;
    }
    Ok(())
}

/// The manifest and output an entry of `identity` holds, when `bytes` is
/// one whole (its checksum holds) and parses.
pub(super) fn read_entry(bytes: &[u8], identity: &str) -> Option<(Manifest, Output)> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    let head = std::str::from_utf8(&bytes[..end]).ok()?;
    let (sum, rest) = head.strip_prefix(ENTRY)?.strip_prefix(' ')?.split_once(' ')?;
    let mut check = crc32fast::Hasher::new();
    check.update(rest.as_bytes());
    check.update(&bytes[end..]);
    if format!("{:08x}", check.finalize()) != sum {
        return None;
    }
    let mut fields = rest.split(' ');
    let (Some(named), Some(manifest_len), Some(notes_len), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return None;
    };
    if named != identity {
        return None;
    }
    let body = &bytes[end + 1..];
    let (manifest, body) = body.split_at_checked(manifest_len.parse().ok()?)?;
    let (notes, text) = body.split_at_checked(notes_len.parse().ok()?)?;
    let output = Output {
        text: String::from_utf8(text.to_vec()).ok()?,
        notes: serde_json::from_slice(notes).ok()?,
    };
    Some((serde_json::from_slice(manifest).ok()?, output))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(identity: &str, text: &str) -> Vec<u8> {
        let manifest: Manifest =
            serde_json::from_str(r#"{"key":"k","target":"a/b","bpvm":"1","options":{},"inputs":{}}"#).unwrap();
        let output = Output {
            text: text.to_string(),
            notes: vec!["a note\nof two lines".to_string()],
        };
        let mut bytes = Vec::new();
        write_entry(&mut bytes, identity, &manifest.to_entry_json(), &output).unwrap();
        bytes
    }

    #[test]
    fn an_entry_reads_back_whole() {
        let text = "a: \"quoted\\n\"\nb: |\n  two\n  lines\n";
        let (manifest, output) = read_entry(&entry("id", text), "id").unwrap();
        assert_eq!((manifest.target.as_str(), output.text.as_str()), ("a/b", text));
        assert_eq!(output.notes, ["a note\nof two lines"]);
    }

    #[test]
    fn a_damaged_or_foreign_entry_is_none() {
        let whole = entry("id", "a: 1\n");
        for cut in 0..whole.len() {
            assert!(read_entry(&whole[..cut], "id").is_none(), "cut at {cut}");
        }
        for at in 0..whole.len() {
            let mut bytes = whole.clone();
            bytes[at] ^= 0x01;
            assert!(read_entry(&bytes, "id").is_none(), "byte {at} changed");
        }
        assert!(read_entry(&whole, "other").is_none());
    }
}
