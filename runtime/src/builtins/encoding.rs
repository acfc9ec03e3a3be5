//! Bluelink's encoding and hashing functions (seed 003): base64 both ways,
//! bytes as UTF-8 text, and SHA-256, SHA-1 and MD5 digests in lowercase hex.
//! Text and bytes are both accepted wherever bytes are, except by `utf8`,
//! whose job is to turn bytes into text.

use super::args::wrong;
use crate::func::{Builtin, Ctx, FnError};
use crate::val::Val;
use base64::Engine as _;
use std::fmt::Write as _;

/// The encoding and hashing functions.
pub static FUNCTIONS: &[Builtin] = &[
    builtin!("base64encode", 1, 1, |c, a| {
        let b = bytes_at("base64encode", a)?;
        Ok(none_or_bytes(b, |b| {
            c.str(&base64::engine::general_purpose::STANDARD.encode(b))
        }))
    }),
    builtin!("base64decode", 1, 1, |c, a| match a[0] {
        Val::Nil => Ok(Val::Nil),
        Val::Str(s) => base64::engine::general_purpose::STANDARD
            .decode(s.trim())
            .map(|b| Val::Bytes(c.arena.alloc_slice_copy(&b)))
            .map_err(|e| FnError::arg(0, format!("base64decode() argument 1 is not base64: {e}"))),
        other => Err(wrong("base64decode", 0, "a string", other)),
    }),
    // Seed 003 declares utf8's parameter binary, and Bluelink's tests
    // refuse text: only here are bytes and text not interchangeable.
    builtin!("utf8", 1, 1, |c, a| match a[0] {
        Val::Nil => Ok(Val::Nil),
        Val::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => Ok(c.str(s)),
            Err(e) => Err(FnError::arg(0, format!("utf8() argument 1 is not UTF-8: {e}"))),
        },
        other => Err(wrong("utf8", 0, "bytes", other)),
    }),
    builtin!("sha256", 1, 1, |c, a| digest::<sha2::Sha256>(c, "sha256", a)),
    builtin!("sha1", 1, 1, |c, a| digest::<sha1::Sha1>(c, "sha1", a)),
    builtin!("md5", 1, 1, |c, a| digest::<md5::Md5>(c, "md5", a)),
];

/// Argument 0 as bytes (text is its UTF-8 bytes); `None` for none.
fn bytes_at<'a>(f: &str, a: &[Val<'a>]) -> Result<Option<&'a [u8]>, FnError> {
    match a[0] {
        Val::Nil => Ok(None),
        Val::Str(s) => Ok(Some(s.as_bytes())),
        Val::Bytes(b) => Ok(Some(b)),
        other => Err(wrong(f, 0, "bytes or a string", other)),
    }
}

fn none_or_bytes<'a>(b: Option<&[u8]>, f: impl FnOnce(&[u8]) -> Val<'a>) -> Val<'a> {
    b.map_or(Val::Nil, f)
}

fn digest<'a, D: sha2::Digest>(c: &mut Ctx<'a>, f: &str, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let Some(b) = bytes_at(f, a)? else { return Ok(Val::Nil) };
    let sum = D::digest(b);
    let mut hex = String::with_capacity(sum.len() * 2);
    for byte in sum.iter() {
        let _ = write!(hex, "{byte:02x}");
    }
    Ok(c.str(&hex))
}
