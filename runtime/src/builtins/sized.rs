//! The builders whose result can be far larger than their arguments
//! (`replace`, `split`, `join`, `repeat`, `concat`): each works out the
//! size of its result first and checks it against the evaluation's memory
//! budget, so `replace(repeat('x', 2^26), 'x', repeat('y', 1000))` is an
//! error, not an allocation the machine cannot make. Both dialects use them.

use crate::func::{Ctx, FnError};
use crate::val::Val;

/// `s` with every `from` replaced by `to`.
pub fn replace<'a>(c: &Ctx<'a>, f: &str, s: &str, from: &str, to: &str) -> Result<Val<'a>, FnError> {
    // An empty pattern matches before every character and at the end.
    let hits = if from.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(from).count()
    };
    let size = (s.len() - hits * from.len()).saturating_add(hits.saturating_mul(to.len()));
    c.reserve(&format!("{f}()"), size)?;
    Ok(c.str(&s.replace(from, to)))
}

/// `s` cut at every `sep` (every character when `sep` is empty and
/// `chars` is set).
pub fn split<'a>(c: &Ctx<'a>, f: &str, s: &'a str, sep: &str, chars: bool) -> Result<Val<'a>, FnError> {
    if sep.is_empty() && chars {
        let n = s.chars().count();
        c.reserve_items(&format!("{f}()"), n)?;
        let mut buf = [0u8; 4];
        return Ok(c.list(s.chars().map(|ch| c.str(ch.encode_utf8(&mut buf))).collect::<Vec<_>>()));
    }
    let n = if sep.is_empty() {
        s.len() + 2
    } else {
        s.matches(sep).count() + 1
    };
    c.reserve_items(&format!("{f}()"), n)?;
    Ok(c.list(s.split(sep).map(Val::Str).collect::<Vec<_>>()))
}

/// Checks the text `join` would build from `items` (strings counted by
/// length, anything else as a short number) before it is built.
pub fn check_join(c: &Ctx<'_>, f: &str, items: impl Iterator<Item = usize>, sep: &str) -> Result<(), FnError> {
    let (mut n, mut size) = (0usize, 0usize);
    for len in items {
        n += 1;
        size = size.saturating_add(len);
    }
    size = size.saturating_add(n.saturating_sub(1).saturating_mul(sep.len()));
    c.reserve(&format!("{f}()"), size)
}

/// The length `join` counts for an item.
pub fn text_len(v: Val<'_>) -> usize {
    match v {
        Val::Str(s) => s.len(),
        Val::Bytes(b) => b.len(),
        _ => 24,
    }
}

/// `s` repeated `n` times.
pub fn repeat<'a>(c: &Ctx<'a>, f: &str, s: &str, n: i64) -> Result<Val<'a>, FnError> {
    let Ok(count) = usize::try_from(n) else {
        return Err(FnError::arg(1, format!("{f}() count {n} is negative")));
    };
    c.reserve(&format!("{f}()"), s.len().saturating_mul(count))?;
    Ok(c.str(&s.repeat(count)))
}
