//! `min` and `max` of both dialects: over the arguments, or over one list
//! argument; the winner keeps its type (`max(2, 2.0)` is the integer 2).
//! Durations compare with durations.

use super::args::wrong;
use crate::func::FnError;
use crate::ops;
use crate::val::Val;
use std::cmp::Ordering;

/// The argument that is most `want` (`Less` for min, `Greater` for max).
pub fn extreme<'a>(f: &str, a: &[Val<'a>], want: Ordering) -> Result<Val<'a>, FnError> {
    let items: Vec<Val<'a>> = match (a.len(), a[0].list()) {
        (1, Some(l)) => l.iter().collect(),
        _ => a.to_vec(),
    };
    let mut best: Option<Val<'a>> = None;
    for (i, v) in items.into_iter().enumerate() {
        // Durations order too (Go's int64 kind, as expr-lang has it).
        if v.as_f64().is_none() && !matches!(v, Val::Duration(_)) {
            return Err(wrong(f, if a.len() == 1 { 0 } else { i }, "a number", v));
        }
        best = match best {
            Some(b) if ops::compare(v, b).map_err(|_| mixed(f, b, v))? != want => Some(b),
            _ => Some(v),
        };
    }
    best.ok_or_else(|| FnError::arg(0, format!("{f}() of an empty list")))
}

/// "max() cannot compare time.Duration with int".
fn mixed(f: &str, a: Val<'_>, b: Val<'_>) -> FnError {
    FnError::new(format!("{f}() cannot compare {} with {}", a.type_name(), b.type_name()))
}

/// Lists nested deeper than this are refused rather than walked.
const MAX_NESTING: usize = 10_000;

/// expr-lang's `min`/`max`: over every number among the arguments, lists
/// of any depth walked through; no number at all is nil. A single
/// argument that is neither a number nor a list is the result as it is.
pub fn expr_extreme<'a>(f: &str, a: &[Val<'a>], want: Ordering) -> Result<Val<'a>, FnError> {
    if let [one] = a
        && one.as_f64().is_none()
        && one.list().is_none()
    {
        return Ok(*one);
    }
    let mut best = None;
    for (i, &v) in a.iter().enumerate() {
        walk(f, i, v, 0, want, &mut best)?;
    }
    Ok(best.unwrap_or(Val::Nil))
}

/// Takes `v` (a number, or a list walked through) into `best`; a tie
/// keeps the one seen first.
fn walk<'a>(
    f: &str,
    i: usize,
    v: Val<'a>,
    depth: usize,
    want: Ordering,
    best: &mut Option<Val<'a>>,
) -> Result<(), FnError> {
    // Durations order too (Go's int64 kind, as expr-lang has it).
    if v.as_f64().is_some() || matches!(v, Val::Duration(_)) {
        let wins = match *best {
            None => true,
            Some(b) => ops::compare(v, b).map_err(|_| mixed(f, b, v))? == want,
        };
        if wins {
            *best = Some(v);
        }
        return Ok(());
    }
    let items = v.list().ok_or_else(|| wrong(f, i, "a number", v))?;
    if depth >= MAX_NESTING {
        return Err(FnError::arg(i, format!("{f}() lists nest too deep")));
    }
    items.iter().try_for_each(|x| walk(f, i, x, depth + 1, want, best))
}
