//! The fields a message is made of: each a little-endian length and
//! its bytes. A leaf of the pipe's folder.

use std::ffi::OsStr;
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;

/// Writes bytes with their length.
pub(super) fn put(out: &mut impl Write, bytes: &[u8]) -> io::Result<()> {
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    out.write_all(&len.to_le_bytes())?;
    out.write_all(bytes)
}

pub(super) fn put_number(out: &mut impl Write, n: u64) -> io::Result<()> {
    put(out, &n.to_le_bytes())
}

pub(super) fn put_option(out: &mut impl Write, bytes: Option<&[u8]>) -> io::Result<()> {
    match bytes {
        None => put(out, b"0"),
        Some(bytes) => {
            put(out, b"1")?;
            put(out, bytes)
        }
    }
}

pub(super) fn put_list<'a>(out: &mut impl Write, mut items: impl ExactSizeIterator<Item = &'a [u8]>) -> io::Result<()> {
    put_number(out, items.len() as u64)?;
    items.try_for_each(|i| put(out, i))
}

/// Reads what [`put`] wrote; `Ok(None)` at the end of the stream before
/// a field starts.
pub(super) fn take(input: &mut impl Read) -> io::Result<Option<Vec<u8>>> {
    let mut len = [0u8; 8];
    match input.read_exact(&mut len) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    let len = u64::from_le_bytes(len);
    let mut bytes = Vec::new();
    // A short field (most are) is read at once; a long one as it comes,
    // so that a length the pipe garbled cannot make it allocate first.
    match usize::try_from(len) {
        Ok(short) if short <= 1 << 16 => {
            bytes.resize(short, 0);
            input.read_exact(&mut bytes).map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => broken("a field was cut short"),
                _ => e,
            })?;
        }
        _ => {
            input.take(len).read_to_end(&mut bytes)?;
        }
    }
    if bytes.len() as u64 != len {
        return Err(broken("a field was cut short"));
    }
    Ok(Some(bytes))
}

pub(super) fn broken(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, format!("batch worker pipe: {what}"))
}

pub(super) fn field(input: &mut impl Read) -> io::Result<Vec<u8>> {
    take(input)?.ok_or_else(|| broken("the stream ended inside a message"))
}

pub(super) fn text(input: &mut impl Read) -> io::Result<String> {
    String::from_utf8(field(input)?).map_err(|_| broken("text that is not UTF-8"))
}

pub(super) fn number(input: &mut impl Read) -> io::Result<u64> {
    let bytes: [u8; 8] = field(input)?
        .try_into()
        .map_err(|_| broken("a number of the wrong size"))?;
    Ok(u64::from_le_bytes(bytes))
}

pub(super) fn option(input: &mut impl Read) -> io::Result<Option<Vec<u8>>> {
    match field(input)?.as_slice() {
        b"0" => Ok(None),
        b"1" => field(input).map(Some),
        _ => Err(broken("an option that is neither")),
    }
}

/// Reads what [`put_option`] wrote, as text.
pub(super) fn text_option(input: &mut impl Read) -> io::Result<Option<String>> {
    option(input)?
        .map(String::from_utf8)
        .transpose()
        .map_err(|_| broken("text that is not UTF-8"))
}

pub(super) fn list(input: &mut impl Read) -> io::Result<Vec<Vec<u8>>> {
    let n = number(input)?;
    (0..n).map(|_| field(input)).collect()
}

pub(super) fn path(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(&bytes))
}

pub(super) fn strings(input: &mut impl Read) -> io::Result<Vec<String>> {
    list(input)?
        .into_iter()
        .map(|b| String::from_utf8(b).map_err(|_| broken("text that is not UTF-8")))
        .collect()
}

pub(super) fn put_path(out: &mut impl Write, p: &std::path::Path) -> io::Result<()> {
    put(out, p.as_os_str().as_bytes())
}
