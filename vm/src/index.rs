//! `base[key]` and `base[from:to]`.
//!
//! Bluelink's reads are strict (`Access::Strict`); Windsor's are
//! optional (`Access::Optional`) and follow expr-lang v1.17.8's
//! `runtime.Fetch` and `runtime.Slice` (`vm/runtime/runtime.go`):
//!
//! - an index or slice bound may be a float, cut to an int as Go's
//!   `int(x)` does (`xs[1.9]` is `xs[1]`, `xs[-1.5]` is `xs[-1]`);
//! - a map read with nil reads the key "" (Go looks nil up as the key
//!   type's zero value);
//! - a string's item is a number: Go gives the byte at a byte offset;
//!   bpvm counts characters (strings count characters, D5) and gives the
//!   character's code point, which for ASCII text is that byte;
//! - a bytes value's item is the byte, a slice of one is bytes;
//! - slicing nil is an error (expr-lang: "cannot slice").
//!
//! Slices are only written in the Windsor dialect.

use crate::error::Fault;
use crate::op::Access;
use bpvm_runtime::builtins::args::index_in;
use bpvm_runtime::{Kind, Val};
use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

/// `base[key]`.
pub(crate) fn index<'a>(base: Val<'a>, key: Val<'a>, access: Access) -> Result<Val<'a>, Fault> {
    let windsor = access == Access::Optional;
    let key = match key {
        Val::Float(f) if windsor => Val::Int(f as i64),
        other => other,
    };
    if let Some(m) = base.map() {
        return match key {
            Val::Str(k) => match m.get(k) {
                Some(v) => Ok(v),
                None if access == Access::Strict => Err(Fault::Missing(k.to_string())),
                None => Ok(Val::Nil),
            },
            Val::Nil if windsor => Ok(m.get("").unwrap_or(Val::Nil)),
            other => Err(Fault::BadIndex {
                index: Some(other.kind()),
                base: Kind::Map,
            }),
        };
    }
    if let Some(l) = base.list() {
        return match key {
            Val::Int(i) => match index_in(i, l.len()) {
                Some(at) => Ok(l.get(at).unwrap_or(Val::Nil)),
                None => Err(Fault::OutOfRange { index: i, len: l.len() }),
            },
            other => Err(Fault::BadIndex {
                index: Some(other.kind()),
                base: Kind::List,
            }),
        };
    }
    match (base, key) {
        (Val::Nil, _) if windsor => Ok(Val::Nil),
        (Val::Str(s), Val::Int(i)) => character(s, i, windsor),
        (Val::Bytes(b), Val::Int(i)) => match index_in(i, b.len()) {
            Some(at) => Ok(Val::Int(i64::from(b[at]))),
            None => Err(Fault::OutOfRange { index: i, len: b.len() }),
        },
        (b, Val::Str(k)) => Err(Fault::NoMembers {
            key: k.to_string(),
            got: b.kind(),
        }),
        (b, k) => Err(Fault::BadIndex {
            index: Some(k.kind()),
            base: b.kind(),
        }),
    }
}

/// The `i`th character of `s` (from the end when negative): its code
/// point in Windsor, else the one-character string.
fn character(s: &str, i: i64, windsor: bool) -> Result<Val<'_>, Fault> {
    let len = s.chars().count();
    let Some(at) = index_in(i, len) else {
        return Err(Fault::OutOfRange { index: i, len });
    };
    let (b, ch) = s.char_indices().nth(at).unwrap_or((0, ' '));
    Ok(if windsor {
        Val::Int(i64::from(u32::from(ch)))
    } else {
        Val::Str(&s[b..b + ch.len_utf8()])
    })
}

/// `base[from:to]` (a bound left out is nil).
pub(crate) fn slice<'a>(arena: &'a Bump, base: Val<'a>, from: Val<'a>, to: Val<'a>) -> Result<Val<'a>, Fault> {
    let bound = |v: Val<'a>, default: usize, len: usize| -> Result<usize, Fault> {
        let i = match v {
            Val::Nil => return Ok(default),
            Val::Int(i) => i,
            Val::Float(f) => f as i64,
            other => {
                return Err(Fault::BadIndex {
                    index: Some(other.kind()),
                    base: base.kind(),
                });
            }
        };
        Ok((if i < 0 { i.saturating_add(len as i64) } else { i }).clamp(0, len as i64) as usize)
    };
    if let Some(l) = base.list() {
        let a = bound(from, 0, l.len())?;
        let b = bound(to, l.len(), l.len())?.max(a);
        let items: BumpVec<'a, Val<'a>> = BumpVec::from_iter_in(l.iter().skip(a).take(b - a), arena);
        return Ok(Val::List(items.into_bump_slice()));
    }
    match base {
        Val::Str(s) => {
            let len = s.chars().count();
            let a = bound(from, 0, len)?;
            let b = bound(to, len, len)?.max(a);
            let start = s.char_indices().nth(a).map_or(s.len(), |(i, _)| i);
            let end = s.char_indices().nth(b).map_or(s.len(), |(i, _)| i);
            Ok(Val::Str(&s[start..end]))
        }
        Val::Bytes(bytes) => {
            let a = bound(from, 0, bytes.len())?;
            let b = bound(to, bytes.len(), bytes.len())?.max(a);
            Ok(Val::Bytes(&bytes[a..b]))
        }
        other => Err(Fault::BadIndex {
            index: None,
            base: other.kind(),
        }),
    }
}
