//! Reading typed arguments, with errors that name the function, the
//! argument's position, what was expected and what was given.

use crate::func::FnError;
use crate::val::{ListRef, MapRef, Val};

/// "len() argument 1 must be a string, list or map, got nil" (`none` in
/// a Bluelink program).
pub fn wrong(f: &str, i: usize, expected: &str, got: Val<'_>) -> FnError {
    FnError::kinds(
        i,
        format!("{f}() argument {} must be {expected}, got {{}}", i + 1),
        &[got.kind()],
    )
}

/// Argument `i` as text.
pub fn str_at<'a>(f: &str, args: &[Val<'a>], i: usize) -> Result<&'a str, FnError> {
    match args.get(i).copied().unwrap_or(Val::Nil) {
        Val::Str(s) => Ok(s),
        other => Err(wrong(f, i, "a string", other)),
    }
}

/// Argument `i` as an integer (an integral float is accepted).
pub fn int_at(f: &str, args: &[Val<'_>], i: usize) -> Result<i64, FnError> {
    match args.get(i).copied().unwrap_or(Val::Nil) {
        Val::Int(n) => Ok(n),
        Val::Float(x) if x.fract() == 0.0 => {
            in_i64(x).ok_or_else(|| FnError::arg(i, format!("{f}() argument {} {}", i + 1, out_of_i64(x))))
        }
        other => Err(wrong(f, i, "an integer", other)),
    }
}

/// `x` without its fraction as a 64-bit integer, when it is a finite
/// number in that range (exactly: -2^63 ≤ x < 2^63, so no conversion
/// saturates).
///
/// ```
/// use bpvm_runtime::builtins::args::in_i64;
/// assert_eq!(in_i64(-2.9), Some(-2));
/// assert_eq!(in_i64(9.3e18), None);
/// assert_eq!(in_i64(f64::NAN), None);
/// ```
pub fn in_i64(x: f64) -> Option<i64> {
    // 2^63, exactly representable; i64::MAX as f64 rounds up to it.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    (x.is_finite() && (-LIMIT..LIMIT).contains(&x.trunc())).then(|| x.trunc() as i64)
}

/// Why `x` is no 64-bit integer, for a message about it: "is out of the
/// 64-bit integer range (9.3e18)", or "is not a finite number (NaN)".
pub fn out_of_i64(x: f64) -> String {
    if x.is_finite() {
        format!("is out of the 64-bit integer range (-2^63 to 2^63-1): {x:e}")
    } else {
        format!("is not a finite number: {x}")
    }
}

/// Argument `i` as a number.
pub fn num_at(f: &str, args: &[Val<'_>], i: usize) -> Result<f64, FnError> {
    let v = args.get(i).copied().unwrap_or(Val::Nil);
    v.as_f64().ok_or_else(|| wrong(f, i, "a number", v))
}

/// Argument `i` as a list.
pub fn list_at<'a>(f: &str, args: &[Val<'a>], i: usize) -> Result<ListRef<'a>, FnError> {
    let v = args.get(i).copied().unwrap_or(Val::Nil);
    v.list().ok_or_else(|| wrong(f, i, "a list", v))
}

/// Argument `i` as a map.
pub fn map_at<'a>(f: &str, args: &[Val<'a>], i: usize) -> Result<MapRef<'a>, FnError> {
    let v = args.get(i).copied().unwrap_or(Val::Nil);
    v.map().ok_or_else(|| wrong(f, i, "a map", v))
}

/// Argument `i` as a boolean.
pub fn bool_at(f: &str, args: &[Val<'_>], i: usize) -> Result<bool, FnError> {
    match args.get(i).copied().unwrap_or(Val::Nil) {
        Val::Bool(b) => Ok(b),
        other => Err(wrong(f, i, "a bool", other)),
    }
}

/// Resolves a possibly negative index against `len` (negative counts from the end).
pub fn index_in(i: i64, len: usize) -> Option<usize> {
    let i = if i < 0 { i + len as i64 } else { i };
    (0..len as i64).contains(&i).then_some(i as usize)
}

/// The character offset of byte offset `byte` in `s` (D5: strings count characters).
pub fn char_offset(s: &str, byte: usize) -> i64 {
    s[..byte].chars().count() as i64
}

/// The length `len()` reports for a string (characters, D5), a list or a map.
pub fn size(v: Val<'_>) -> Option<usize> {
    match v {
        Val::Str(s) => Some(s.chars().count()),
        v => v.list().map(|l| l.len()).or_else(|| v.map().map(|m| m.len())),
    }
}
