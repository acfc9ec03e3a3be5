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

/// Go's `strings.Replace`: the first `n` matches of `from` replaced
/// (every one when `n < 0`).
pub fn replace_n<'a>(c: &Ctx<'a>, f: &str, s: &str, from: &str, to: &str, n: i64) -> Result<Val<'a>, FnError> {
    let Ok(n) = usize::try_from(n) else {
        return replace(c, f, s, from, to);
    };
    let hits = if from.is_empty() {
        s.chars().count() + 1
    } else {
        s.matches(from).count()
    }
    .min(n);
    let size = (s.len() - hits * from.len()).saturating_add(hits.saturating_mul(to.len()));
    c.reserve(&format!("{f}()"), size)?;
    Ok(c.str(&s.replacen(from, to, n)))
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

/// Go's `strings.SplitN`/`SplitAfterN` (`after` keeps each `sep` on the
/// part before it): at most `n` parts, the last holding the rest; `n < 0`
/// is no limit and `n == 0` no parts. An empty `sep` cuts between
/// characters.
pub fn split_n<'a>(c: &Ctx<'a>, f: &str, s: &'a str, sep: &str, after: bool, n: i64) -> Result<Val<'a>, FnError> {
    let most = if sep.is_empty() {
        s.chars().count()
    } else {
        s.matches(sep).count() + 1
    };
    let n = if n < 0 {
        most
    } else {
        most.min(usize::try_from(n).unwrap_or(usize::MAX))
    };
    c.reserve_items(&format!("{f}()"), n)?;
    let mut parts = Vec::with_capacity(n);
    let mut rest = s;
    while parts.len() + 1 < n {
        let cut = if sep.is_empty() {
            rest.chars().next().map(|ch| (ch.len_utf8(), 0))
        } else {
            rest.find(sep).map(|at| (at, sep.len()))
        };
        let Some((at, len)) = cut else { break };
        let end = if after { at + len } else { at };
        parts.push(Val::Str(&rest[..end]));
        rest = &rest[at + len..];
    }
    if n > 0 {
        parts.push(Val::Str(rest));
    }
    Ok(c.list(parts))
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
