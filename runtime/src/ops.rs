//! Operator semantics shared by the VM and the compiler's constant folder,
//! so a folded expression can never give a different answer than a run one.

// The cycle ops ↔ val is forced by the recursive type: operators work on
// Vals, and Val equality is `equal` here (lists and maps item by item).
use crate::val::{ListRef, MapRef, Val};
use bumpalo::Bump;
use std::cmp::Ordering;

/// An operator's failure; the VM adds which operator and where.
#[derive(Debug, Clone, PartialEq)]
pub enum OpError {
    /// The operand types do not fit the operator: (left, right).
    Types(&'static str, &'static str),
    /// An integer operation overflowed.
    Overflow,
    /// Division or modulo by zero.
    DivideByZero,
    /// A float operation on these operands has no finite result (D7).
    NotFinite(f64, f64),
    /// Anything else, fully described.
    Other(String),
}

/// Nil-safe structural equality: numbers compare across int and float,
/// different types are unequal.
pub fn equal(a: Val<'_>, b: Val<'_>) -> bool {
    match (a, b) {
        (Val::Nil, Val::Nil) => true,
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Float(x), Val::Float(y)) => x == y,
        (Val::Int(x), Val::Float(y)) | (Val::Float(y), Val::Int(x)) => (x as f64) == y,
        (Val::Str(x), Val::Str(y)) => crate::key::same_text(x, y),
        (Val::Bytes(x), Val::Bytes(y)) => x == y,
        (Val::Str(x), Val::Bytes(y)) | (Val::Bytes(y), Val::Str(x)) => x.as_bytes() == y,
        (Val::Func(x), Val::Func(y)) => std::ptr::eq(x, y),
        (Val::Time(x), Val::Time(y)) => x.unix_nanos() == y.unix_nanos(),
        (Val::Duration(x), Val::Duration(y)) => x == y,
        (Val::Calendar(x), Val::Calendar(y)) => x == y,
        // Bytes are a list of numbers to expr-lang (Go's `[]byte`).
        (Val::Bytes(x), l) | (l, Val::Bytes(x)) => l
            .list()
            .is_some_and(|l| l.len() == x.len() && l.iter().zip(x).all(|(v, b)| equal(v, Val::Int(i64::from(*b))))),
        _ => match (a.list(), b.list()) {
            (Some(x), Some(y)) => lists_equal(x, y),
            (None, None) => match (a.map(), b.map()) {
                (Some(x), Some(y)) => maps_equal(x, y),
                _ => false,
            },
            _ => false,
        },
    }
}

fn lists_equal(a: ListRef<'_>, b: ListRef<'_>) -> bool {
    a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| equal(x, y))
}

fn maps_equal(a: MapRef<'_>, b: MapRef<'_>) -> bool {
    a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| equal(v, w)))
}

/// Orders two numbers, two strings, two times or two durations.
pub fn compare(a: Val<'_>, b: Val<'_>) -> Result<Ordering, OpError> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Ok(x.cmp(&y)),
        (Val::Str(x), Val::Str(y)) => Ok(x.cmp(y)),
        _ => match (a.as_f64(), b.as_f64()) {
            (Some(x), Some(y)) => x.partial_cmp(&y).ok_or(OpError::Other("cannot order NaN".into())),
            _ => match (a, b) {
                (Val::Time(x), Val::Time(y)) => Ok(x.unix_nanos().cmp(&y.unix_nanos())),
                (Val::Duration(x), Val::Duration(y)) => Ok(x.cmp(&y)),
                _ => Err(OpError::Types(a.type_name(), b.type_name())),
            },
        },
    }
}

/// expr-lang's time arithmetic, tried once the numbers' has not
/// applied: time ± duration, duration ± duration, time − time (a
/// duration, held to a duration's range as Go's `Sub`). `None` when the
/// operands are not of these kinds.
fn time_arithmetic<'a>(a: Val<'a>, b: Val<'a>, minus: bool) -> Option<Result<Val<'a>, OpError>> {
    let moved = |t: crate::time::Time, d: i128| {
        crate::time::Time::from_unix_nanos(t.unix_nanos() + d, t.zone)
            .map(Val::Time)
            .ok_or(OpError::Overflow)
    };
    Some(match (a, b) {
        (Val::Time(t), Val::Duration(d)) => moved(t, if minus { -(d as i128) } else { d as i128 }),
        (Val::Duration(d), Val::Time(t)) if !minus => moved(t, d as i128),
        (Val::Time(x), Val::Time(y)) if minus => Ok(Val::Duration(x.since(y))),
        (Val::Duration(x), Val::Duration(y)) => {
            let r = if minus { x.checked_sub(y) } else { x.checked_add(y) };
            r.map(Val::Duration).ok_or(OpError::Overflow)
        }
        _ => return None,
    })
}

/// `duration * n`: a duration by an integer or a duration is a duration,
/// by a float a float (as expr-lang's `Multiply`).
fn duration_product<'a>(a: Val<'a>, b: Val<'a>) -> Option<Result<Val<'a>, OpError>> {
    let (d, other) = match (a, b) {
        (Val::Duration(d), o) | (o, Val::Duration(d)) => (d, o),
        _ => return None,
    };
    Some(match other {
        Val::Int(n) | Val::Duration(n) => d.checked_mul(n).map(Val::Duration).ok_or(OpError::Overflow),
        Val::Float(f) => Ok(Val::Float(d as f64 * f)),
        _ => return None,
    })
}

/// `a + b`: integer addition (checked), float addition, string concatenation.
pub fn add<'a>(arena: &'a Bump, a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, OpError> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x.checked_add(y).map(Val::Int).ok_or(OpError::Overflow),
        (Val::Str(x), Val::Str(y)) => concat(arena, x, y).map(Val::Str),
        _ => float_op(a, b, |x, y| x + y).or_else(|e| time_arithmetic(a, b, false).unwrap_or(Err(e))),
    }
}

/// `x + y` for strings, in `arena`.
pub fn concat<'a>(arena: &'a Bump, x: &str, y: &str) -> Result<&'a str, OpError> {
    // Concatenation in a loop can double a string each time: the
    // evaluation's memory budget stops it (D9).
    crate::bounds::budget::check(crate::bounds::budget::held(arena), x.len() + y.len()).map_err(OpError::Other)?;
    let mut s = bumpalo::collections::String::with_capacity_in(x.len() + y.len(), arena);
    s.push_str(x);
    s.push_str(y);
    Ok(s.into_bump_str())
}

/// `a - b`.
pub fn sub<'a>(a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, OpError> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x.checked_sub(y).map(Val::Int).ok_or(OpError::Overflow),
        _ => float_op(a, b, |x, y| x - y).or_else(|e| time_arithmetic(a, b, true).unwrap_or(Err(e))),
    }
}

/// `a * b`.
pub fn mul<'a>(a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, OpError> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => x.checked_mul(y).map(Val::Int).ok_or(OpError::Overflow),
        _ => float_op(a, b, |x, y| x * y).or_else(|e| duration_product(a, b).unwrap_or(Err(e))),
    }
}

/// `a / b`: always a float, as in expr-lang; by zero is an error (D7).
pub fn div<'a>(a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, OpError> {
    if b.as_f64() == Some(0.0) && a.as_f64().is_some() {
        return Err(OpError::DivideByZero);
    }
    float_op(a, b, |x, y| x / y)
}

/// `a % b`: integers only.
pub fn rem<'a>(a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, OpError> {
    match (a, b) {
        (Val::Int(_), Val::Int(0)) => Err(OpError::DivideByZero),
        (Val::Int(x), Val::Int(y)) => x.checked_rem(y).map(Val::Int).ok_or(OpError::Overflow),
        _ => Err(OpError::Types(a.type_name(), b.type_name())),
    }
}

/// `a ** b`: always a float.
pub fn pow<'a>(a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, OpError> {
    float_op(a, b, f64::powf)
}

/// `a..b`: the integers from `a` to `b`, both included; empty when
/// `b < a` (as expr-lang). Both must be integers, and the list must fit
/// the evaluation's memory budget.
pub fn range<'a>(arena: &'a Bump, a: Val<'a>, b: Val<'a>) -> Result<Val<'a>, OpError> {
    // A float bound is cut to an int, as Go's `int(x)` does (expr-lang's
    // `runtime.ToInt`).
    let int = |v: Val<'_>| match v {
        Val::Int(i) => Some(i),
        Val::Float(f) => Some(f as i64),
        _ => None,
    };
    let (Some(from), Some(to)) = (int(a), int(b)) else {
        return Err(OpError::Types(a.type_name(), b.type_name()));
    };
    let n = if to < from {
        0
    } else {
        (to as i128 - from as i128 + 1) as u128
    };
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    crate::bounds::budget::check(
        crate::bounds::budget::held(arena),
        n.saturating_mul(std::mem::size_of::<Val<'a>>()),
    )
    .map_err(OpError::Other)?;
    Ok(Val::List(
        arena.alloc_slice_fill_iter((0..n).map(|i| Val::Int(from + i as i64))),
    ))
}

/// `-a`.
pub fn neg<'a>(a: Val<'a>) -> Result<Val<'a>, OpError> {
    match a {
        Val::Int(x) => x.checked_neg().map(Val::Int).ok_or(OpError::Overflow),
        Val::Float(x) => Ok(Val::Float(-x)),
        _ => Err(OpError::Types(a.type_name(), "")),
    }
}

/// A float operation whose result must be a finite number (D7): no
/// infinity or NaN ever stands in for a number.
fn float_op<'a>(a: Val<'a>, b: Val<'a>, f: impl Fn(f64, f64) -> f64) -> Result<Val<'a>, OpError> {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => match f(x, y) {
            r if r.is_finite() => Ok(Val::Float(r)),
            _ => Err(OpError::NotFinite(x, y)),
        },
        _ => Err(OpError::Types(a.type_name(), b.type_name())),
    }
}

/// `needle in haystack`: list membership by [`equal`], or a string key of a map.
pub fn contains_item(needle: Val<'_>, haystack: Val<'_>) -> Result<bool, OpError> {
    if let Some(list) = haystack.list() {
        return Ok(list.iter().any(|x| equal(x, needle)));
    }
    if let Some(map) = haystack.map() {
        return match needle {
            Val::Str(k) => Ok(map.get(k).is_some()),
            // expr-lang looks nil up as the key type's zero value, "".
            Val::Nil => Ok(map.get("").is_some()),
            _ => Err(OpError::Types(needle.type_name(), haystack.type_name())),
        };
    }
    match haystack {
        Val::Nil => Ok(false),
        _ => Err(OpError::Types(needle.type_name(), haystack.type_name())),
    }
}

/// The string operators `contains`, `startsWith`, `endsWith`. Nil on
/// either side is false, not an error, as in expr-lang's VM, so a `when:`
/// on a key the context lacks reads as not matching.
pub fn string_test(a: Val<'_>, b: Val<'_>, test: fn(&str, &str) -> bool) -> Result<bool, OpError> {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => Ok(test(x, y)),
        (Val::Nil, _) | (_, Val::Nil) => Ok(false),
        _ => Err(OpError::Types(a.type_name(), b.type_name())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_results_are_finite() {
        assert_eq!(div(Val::Int(1), Val::Int(0)), Err(OpError::DivideByZero));
        assert_eq!(div(Val::Float(0.0), Val::Float(0.0)), Err(OpError::DivideByZero));
        assert_eq!(pow(Val::Int(2), Val::Int(10000)), Err(OpError::NotFinite(2.0, 10000.0)));
        assert_eq!(pow(Val::Int(-1), Val::Float(0.5)), Err(OpError::NotFinite(-1.0, 0.5)));
        assert_eq!(
            mul(Val::Float(1e300), Val::Float(1e300)),
            Err(OpError::NotFinite(1e300, 1e300))
        );
        assert!(matches!(div(Val::Int(1), Val::Int(4)), Ok(Val::Float(f)) if f == 0.25));
    }

    #[test]
    fn integer_overflow_is_an_error_not_a_wrap() {
        assert_eq!(
            add(&Bump::new(), Val::Int(i64::MAX), Val::Int(1)),
            Err(OpError::Overflow)
        );
        assert_eq!(mul(Val::Int(i64::MIN), Val::Int(-1)), Err(OpError::Overflow));
        assert_eq!(rem(Val::Int(1), Val::Int(0)), Err(OpError::DivideByZero));
    }

    #[test]
    fn division_is_always_float() {
        assert!(matches!(div(Val::Int(4), Val::Int(2)), Ok(Val::Float(f)) if f == 2.0));
    }

    #[test]
    fn equality_crosses_numeric_types_only() {
        assert!(equal(Val::Int(1), Val::Float(1.0)));
        assert!(!equal(Val::Int(1), Val::Str("1")));
        assert!(!equal(Val::Nil, Val::Bool(false)));
        assert!(equal(Val::Nil, Val::Nil));
    }
}
