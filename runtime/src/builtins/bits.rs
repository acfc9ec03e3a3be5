//! expr-lang's bit functions (`bitand`, `bitor`, `bitxor`, `bitnand`,
//! `bitnot`, `bitshl`, `bitshr`, `bitushr`) on 64-bit integers, as Go's
//! operators do them: no overflow errors, and a shift by 64 or more gives
//! what Go gives (0, or -1 for a negative `bitshr`).

use super::args::wrong;
use crate::func::{Builtin, FnError};
use crate::val::Val;

/// The bit functions, by name.
pub static FUNCTIONS: &[Builtin] = &[
    builtin!("bitand", 2, 2, |_, a| pair("bitand", a, |x, y| x & y)),
    builtin!("bitor", 2, 2, |_, a| pair("bitor", a, |x, y| x | y)),
    builtin!("bitxor", 2, 2, |_, a| pair("bitxor", a, |x, y| x ^ y)),
    builtin!("bitnand", 2, 2, |_, a| pair("bitnand", a, |x, y| x & !y)),
    builtin!("bitnot", 1, 1, |_, a| Ok(Val::Int(!int_only("bitnot", a, 0)?))),
    builtin!("bitshl", 2, 2, |_, a| shift("bitshl", a, |x, y| if y < 64 {
        x << y
    } else {
        0
    })),
    builtin!("bitshr", 2, 2, |_, a| shift("bitshr", a, |x, y| x >> y.min(63))),
    builtin!("bitushr", 2, 2, |_, a| shift("bitushr", a, |x, y| {
        if y < 64 { ((x as u64) >> y) as i64 } else { 0 }
    })),
];

/// Argument `i` as an integer. Unlike most functions, a float is refused
/// even when it is whole: expr-lang's `toInt` takes integer types only.
fn int_only(f: &str, a: &[Val<'_>], i: usize) -> Result<i64, FnError> {
    match a.get(i).copied().unwrap_or(Val::Nil) {
        Val::Int(n) => Ok(n),
        other => Err(wrong(f, i, "an integer", other)),
    }
}

fn pair<'a>(f: &str, a: &[Val<'a>], op: fn(i64, i64) -> i64) -> Result<Val<'a>, FnError> {
    Ok(Val::Int(op(int_only(f, a, 0)?, int_only(f, a, 1)?)))
}

/// A shift: a negative count is an error, as in Go.
fn shift<'a>(f: &str, a: &[Val<'a>], op: fn(i64, u32) -> i64) -> Result<Val<'a>, FnError> {
    let (x, y) = (int_only(f, a, 0)?, int_only(f, a, 1)?);
    if y < 0 {
        return Err(FnError::arg(
            1,
            format!("{f}() shift count must not be negative, got {y}"),
        ));
    }
    Ok(Val::Int(op(x, u32::try_from(y).unwrap_or(u32::MAX))))
}
