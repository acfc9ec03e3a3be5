//! The worker's messages on the wire: each part a length (8 bytes, little
//! endian) and that many bytes.
//!
//! A request is four parts — the project's folder, the file's real path,
//! the CPU seconds it may use (followed by ` track` when the caller tracks
//! its inputs), and the scope as JSON (empty: the same as
//! the last request's). A reply is three — `ok` with the result as JSON,
//! or `error` with the message, then the files the evaluation read (its
//! imports, as `bpvm_runtime::root::inputs::Inputs::encode` writes them),
//! so that input tracking in the caller sees them.

use std::io::{self, Read, Write};

/// Writes `parts`, each as one frame, and flushes.
pub(crate) fn write(w: &mut impl Write, parts: &[&[u8]]) -> io::Result<()> {
    for part in parts {
        w.write_all(&(part.len() as u64).to_le_bytes())?;
        w.write_all(part)?;
    }
    w.flush()
}

/// Reads one frame of at most `max` bytes; `Ok(None)` at the end of the
/// stream before a frame starts.
pub(crate) fn read(r: &mut impl Read, max: usize) -> io::Result<Option<Vec<u8>>> {
    let mut len = [0u8; 8];
    loop {
        match r.read(&mut len[..1]) {
            Ok(0) => return Ok(None),
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    r.read_exact(&mut len[1..])?;
    let len = u64::from_le_bytes(len);
    if len > max as u64 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a message of {len} bytes, over the {max} expected"),
        ));
    }
    let mut bytes = vec![0; len as usize];
    r.read_exact(&mut bytes)?;
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_a_long_one_is_refused() {
        let mut wire = Vec::new();
        write(&mut wire, &[b"root", b"", b"{}"]).unwrap();
        let mut r = wire.as_slice();
        assert_eq!(read(&mut r, 8).unwrap().unwrap(), b"root");
        assert_eq!(read(&mut r, 8).unwrap().unwrap(), b"");
        assert_eq!(read(&mut r, 8).unwrap().unwrap(), b"{}");
        assert!(read(&mut r, 8).unwrap().is_none());
        let e = read(&mut wire.as_slice(), 3).unwrap_err();
        assert_eq!(e.to_string(), "a message of 4 bytes, over the 3 expected");
    }
}
