//! The Bluelink core functions (seed 003): strings, collections, logic and
//! comparison, numbers. `none` propagates through the functions that seed
//! 003 says return none for a none first argument.

use super::args::{bool_at, char_offset, int_at, list_at, map_at, size, str_at, wrong};
use super::case;
use super::extreme::extreme;
use super::pointer;
use super::sized;
use crate::func::{Builtin, Ctx, FnError, VARIADIC};
use crate::key::same_bytes;
use crate::ops;
use crate::val::Val;
use std::cmp::Ordering;

/// Every core function of the Bluelink dialect, by name.
pub static FUNCTIONS: &[Builtin] = &[
    builtin!("trim", 1, 1, |_, a| none_or(a, |a| Ok(Val::Str(
        str_at("trim", a, 0)?.trim()
    )))),
    builtin!("trimprefix", 2, 2, |_, a| none_or(a, |a| {
        let s = str_at("trimprefix", a, 0)?;
        Ok(Val::Str(s.strip_prefix(str_at("trimprefix", a, 1)?).unwrap_or(s)))
    })),
    builtin!("trimsuffix", 2, 2, |_, a| none_or(a, |a| {
        let s = str_at("trimsuffix", a, 0)?;
        Ok(Val::Str(s.strip_suffix(str_at("trimsuffix", a, 1)?).unwrap_or(s)))
    })),
    builtin!("replace", 3, 3, |c, a| none_or(a, |a| {
        let (s, from, to) = (
            str_at("replace", a, 0)?,
            str_at("replace", a, 1)?,
            str_at("replace", a, 2)?,
        );
        sized::replace(c, "replace", s, from, to)
    })),
    builtin!("substr", 2, 3, substr),
    builtin!("split", 2, 2, |c, a| none_or(a, |a| {
        sized::split(c, "split", str_at("split", a, 0)?, str_at("split", a, 1)?, false)
    })),
    builtin!("join", 2, 2, join),
    builtin!("index", 2, 2, |_, a| none_or(a, |a| find("index", a, false))),
    builtin!("last_index", 2, 2, |_, a| none_or(a, |a| find("last_index", a, true))),
    builtin!("to_upper", 1, 1, |c, a| none_or(a, |a| Ok(case::upper(
        c,
        str_at("to_upper", a, 0)?
    )))),
    builtin!("to_lower", 1, 1, |c, a| none_or(a, |a| Ok(case::lower(
        c,
        str_at("to_lower", a, 0)?
    )))),
    builtin!("has_prefix", 2, 2, |_, a| affix("has_prefix", a, |s, p| s
        .get(..p.len())
        .is_some_and(|s| same_bytes(s, p)))),
    builtin!("has_suffix", 2, 2, |_, a| affix("has_suffix", a, |s, p| s
        .len()
        .checked_sub(p.len())
        .is_some_and(|from| same_bytes(&s[from..], p)))),
    builtin!("contains", 2, 2, contains),
    builtin!("len", 1, 1, len),
    builtin!("list", 0, VARIADIC, |c, a| Ok(c.list(a.iter().copied()))),
    builtin!("object", 0, VARIADIC, object),
    builtin!("keys", 1, 1, |c, a| none_or(a, |a| Ok(
        c.list(map_at("keys", a, 0)?.iter().map(|(k, _)| Val::Str(k)))
    ))),
    builtin!("vals", 1, 1, |c, a| none_or(a, |a| Ok(
        c.list(map_at("vals", a, 0)?.iter().map(|(_, v)| v))
    ))),
    builtin!("lookup", 2, 3, lookup),
    builtin!("first", 1, VARIADIC, first),
    builtin!("coalesce", 1, VARIADIC, |_, a| Ok(a
        .iter()
        .copied()
        .find(|v| !v.is_nil())
        .unwrap_or(Val::Nil))),
    builtin!("and", 2, 2, |_, a| {
        let (x, y) = both("and", a)?;
        Ok(Val::Bool(x && y))
    }),
    builtin!("or", 2, 2, |_, a| {
        let (x, y) = both("or", a)?;
        Ok(Val::Bool(x || y))
    }),
    builtin!("not", 1, 1, |_, a| Ok(Val::Bool(!truthy("not", a, 0)?))),
    builtin!("if", 3, 3, |_, a| Ok(if truthy("if", a, 0)? { a[1] } else { a[2] })),
    builtin!("eq", 2, 2, eq),
    builtin!("gt", 2, 2, |_, a| order("gt", a, Ordering::is_gt)),
    builtin!("ge", 2, 2, |_, a| order("ge", a, Ordering::is_ge)),
    builtin!("lt", 2, 2, |_, a| order("lt", a, Ordering::is_lt)),
    builtin!("le", 2, 2, |_, a| order("le", a, Ordering::is_le)),
    builtin!("min", 1, VARIADIC, |_, a| none_or(a, |a| extreme(
        "min",
        a,
        Ordering::Less
    ))),
    builtin!("max", 1, VARIADIC, |_, a| none_or(a, |a| extreme(
        "max",
        a,
        Ordering::Greater
    ))),
    builtin!("abs", 1, 1, |c, a| none_or(a, |a| super::windsor::abs(c, a))),
    builtin!("fromjson", 2, 2, fromjson),
    builtin!("trimprefix_g", 1, 1, |c, a| g(c, "trimprefix_g", a, Bound::Text)),
    builtin!("trimsuffix_g", 1, 1, |c, a| g(c, "trimsuffix_g", a, Bound::Text)),
    builtin!("replace_g", 2, 2, |c, a| g(c, "replace_g", a, Bound::Text)),
    builtin!("substr_g", 1, 2, |c, a| g(c, "substr_g", a, Bound::Integer)),
    builtin!("split_g", 1, 1, |c, a| g(c, "split_g", a, Bound::Text)),
    builtin!("has_prefix_g", 1, 1, |c, a| g(c, "has_prefix_g", a, Bound::Text)),
    builtin!("has_suffix_g", 1, 1, |c, a| g(c, "has_suffix_g", a, Bound::Text)),
    builtin!("contains_g", 1, 1, |c, a| g(c, "contains_g", a, Bound::Any)),
    builtin!("fromjson_g", 1, 1, |c, a| g(c, "fromjson_g", a, Bound::Text)),
    builtin!("jsondecode", 1, 1, |c, a| {
        if a[0].is_nil() {
            return Ok(Val::Nil);
        }
        let s = str_at("jsondecode", a, 0)?;
        let v = crate::Value::from_json(s).map_err(|e| FnError::arg(0, format!("jsondecode() invalid JSON: {e}")))?;
        c.adopt("jsondecode()", &v)
    }),
];

/// What seed 003 declares for every argument of a `_g` function.
#[derive(Clone, Copy)]
enum Bound {
    Text,
    Integer,
    Any,
}

/// `f_g(args…)`: `f` with `args` bound after its first argument. The
/// bound arguments are checked when the partial is built, as for any call
/// (a partial never applied still fails); a none among them is kept, and
/// makes every application none.
fn g<'a>(c: &mut Ctx<'a>, g_name: &str, a: &[Val<'a>], bound: Bound) -> Result<Val<'a>, FnError> {
    for (i, v) in a.iter().enumerate() {
        match (bound, v) {
            (_, Val::Nil) | (Bound::Any, _) => {}
            (Bound::Text, _) => _ = str_at(g_name, a, i)?,
            (Bound::Integer, _) => _ = int_at(g_name, a, i)?,
        }
    }
    let name = g_name.strip_suffix("_g").unwrap_or(g_name);
    match FUNCTIONS.iter().find(|f| f.name == name) {
        Some(f) => super::higher::partial(c, f, a),
        None => Err(FnError::new(format!("{g_name}() has no function {name}"))),
    }
}

/// `fromjson(json, pointer)`: the value at an RFC 6901 pointer (`/a/b/0`)
/// inside a JSON text whose root is an object. The pointer may also be
/// written as a URI fragment, `#` first (`#/a/b/0`); as in Bluelink's
/// tests (B12), the rest is read as it stands, not percent-decoded.
fn fromjson<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    none_or(a, |a| {
        let text = str_at("fromjson", a, 0)?;
        let written = str_at("fromjson", a, 1)?;
        let pointer = written.strip_prefix('#').unwrap_or(written);
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(FnError::arg(
                1,
                format!("fromjson() pointer {written:?} must start with '/' or '#/'"),
            ));
        }
        if !text.trim_start().starts_with('{') {
            return match pointer::find(text, "") {
                Err(e) => Err(not_json(e)),
                Ok(_) => Err(FnError::arg(0, "fromjson() needs a JSON object at the root")),
            };
        }
        match pointer::find(text, pointer).map_err(not_json)? {
            Some(found) => {
                let v = crate::Value::from_json(found)
                    .map_err(|e| FnError::new(format!("fromjson() cannot read the value: {e}")))?;
                c.adopt("fromjson()", &v)
            }
            None => Err(FnError::arg(1, format!("fromjson() found nothing at {written:?}"))),
        }
    })
}

fn not_json(e: pointer::Invalid) -> FnError {
    FnError::arg(
        0,
        format!(
            "fromjson() argument 1 is not valid JSON: {} at line {} column {}",
            e.message, e.line, e.column
        ),
    )
}

/// Returns none when any argument is none (seed 003: most functions
/// propagate none), else runs `f`.
fn none_or<'a>(a: &[Val<'a>], f: impl FnOnce(&[Val<'a>]) -> Result<Val<'a>, FnError>) -> Result<Val<'a>, FnError> {
    if a.iter().any(Val::is_nil) { Ok(Val::Nil) } else { f(a) }
}

/// A boolean argument where none counts as false (`and`, `or`, `not`, `if`).
fn truthy(f: &str, a: &[Val<'_>], i: usize) -> Result<bool, FnError> {
    if a[i].is_nil() { Ok(false) } else { bool_at(f, a, i) }
}

/// Both operands of `and`/`or`, each checked: seed 003 declares both
/// boolean, so a wrong second operand is an error even when the first
/// already decides the result.
fn both(f: &str, a: &[Val<'_>]) -> Result<(bool, bool), FnError> {
    Ok((truthy(f, a, 0)?, truthy(f, a, 1)?))
}

/// `substr(s, start[, end])` counting characters (D5).
fn substr<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    none_or(a, |a| {
        let s = str_at("substr", a, 0)?;
        let len = s.chars().count() as i64;
        let start = int_at("substr", a, 1)?;
        let end = if a.len() > 2 { int_at("substr", a, 2)? } else { len };
        if start < 0 || end < 0 {
            return Err(FnError::new("substr() start and end must not be negative"));
        }
        if start > end {
            return Err(FnError::new(format!(
                "substr() start {start} is greater than end {end}"
            )));
        }
        // Out-of-range positions are errors, not clamped (B12: Bluelink's
        // substr tests): the start must be a character of the string, the
        // end at most its length.
        if start >= len {
            let last = match len {
                0 => "the string is empty".to_string(),
                n => format!("index {}", n - 1),
            };
            return Err(FnError::arg(
                1,
                format!("substr() start {start} is past the last character ({last})"),
            ));
        }
        if end > len {
            return Err(FnError::arg(
                2,
                format!("substr() end {end} is past the end of the string (length {len})"),
            ));
        }
        let (start, end) = (start as usize, end as usize);
        let from = s.char_indices().nth(start).map_or(s.len(), |(i, _)| i);
        let to = s.char_indices().nth(end).map_or(s.len(), |(i, _)| i);
        Ok(Val::Str(&s[from..to]))
    })
}

fn join<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    none_or(a, |a| {
        let items = list_at("join", a, 0)?;
        let sep = str_at("join", a, 1)?;
        sized::check_join(c, "join", items.iter().map(sized::text_len), sep)?;
        let mut out = String::new();
        let mut first = true;
        for v in items.iter() {
            if v.is_nil() {
                continue;
            }
            if !first {
                out.push_str(sep);
            }
            first = false;
            match v {
                Val::Doc(_) | Val::List(_) | Val::Map(_) | Val::Func(_) => {
                    return Err(FnError::kinds(
                        0,
                        "join() items must be strings or primitives, got {}",
                        &[v.kind()],
                    ));
                }
                v => crate::text::push_text(&mut out, v),
            }
        }
        Ok(c.str(&out))
    })
}

fn find<'a>(f: &str, a: &[Val<'a>], last: bool) -> Result<Val<'a>, FnError> {
    let s = str_at(f, a, 0)?;
    let sub = str_at(f, a, 1)?;
    let at = if last { s.rfind(sub) } else { s.find(sub) };
    Ok(Val::Int(at.map_or(-1, |b| char_offset(s, b))))
}

fn affix<'a>(f: &str, a: &[Val<'a>], test: impl Fn(&[u8], &[u8]) -> bool) -> Result<Val<'a>, FnError> {
    none_or(a, |a| {
        Ok(Val::Bool(test(
            str_at(f, a, 0)?.as_bytes(),
            str_at(f, a, 1)?.as_bytes(),
        )))
    })
}

fn contains<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    if a.iter().any(Val::is_nil) {
        return Ok(Val::Nil);
    }
    match a[0] {
        Val::Str(s) => Ok(Val::Bool(s.contains(str_at("contains", a, 1)?))),
        v => match v.list() {
            Some(items) => {
                let mut found = false;
                for x in items.iter() {
                    if deep_eq(x, a[1])? {
                        found = true;
                        break;
                    }
                }
                Ok(Val::Bool(found))
            }
            None => Err(wrong("contains", 0, "a string or an array", v)),
        },
    }
}

fn len<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    match a[0] {
        Val::Nil => Ok(Val::Nil),
        v => size(v)
            .map(|n| Val::Int(n as i64))
            .ok_or_else(|| wrong("len", 0, "a string, an array or a mapping", v)),
    }
}

/// `object(name = value, …)`: the compiler passes each named argument as a
/// (name, value) pair of positions.
fn object<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let mut entries = Vec::with_capacity(a.len() / 2);
    for pair in a.chunks(2) {
        match (pair[0], pair.get(1)) {
            (Val::Str(k), Some(v)) if !v.is_nil() => entries.push((k, *v)),
            (Val::Str(_), Some(_)) => {}
            _ => return Err(FnError::new("object() takes named arguments only, like object(id = 1)")),
        }
    }
    Ok(c.map(entries))
}

fn lookup<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    if a[0].is_nil() || a[1].is_nil() {
        return Ok(a.get(2).copied().unwrap_or(Val::Nil));
    }
    let m = map_at("lookup", a, 0)?;
    let key = str_at("lookup", a, 1)?;
    Ok(m.get(key).unwrap_or_else(|| a.get(2).copied().unwrap_or(Val::Nil)))
}

/// The first argument that is not empty; else the last argument. Seed 003
/// names the empty values: none, `""` and `[]` (an empty object is not one).
fn first<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let empty = |v: &Val<'_>| match v {
        Val::Nil => true,
        Val::Str(s) => s.is_empty(),
        v => v.list().is_some_and(|l| l.is_empty()),
    };
    Ok(a.iter().copied().find(|v| !empty(v)).unwrap_or(a[a.len() - 1]))
}

/// B5: deep structural equality; int and float compare numerically; other
/// type mismatches are errors naming both types.
fn deep_eq(x: Val<'_>, y: Val<'_>) -> Result<bool, FnError> {
    let kind = |v: Val<'_>| match v {
        Val::Int(_) | Val::Float(_) => "number",
        v => v.type_name(),
    };
    if kind(x) != kind(y) {
        return Err(FnError::kinds(
            0,
            "eq() cannot compare {} with {}",
            &[x.kind(), y.kind()],
        ));
    }
    Ok(ops::equal(x, y))
}

fn eq<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    deep_eq(a[0], a[1]).map(Val::Bool)
}

fn order<'a>(f: &str, a: &[Val<'a>], test: fn(Ordering) -> bool) -> Result<Val<'a>, FnError> {
    if a.iter().any(Val::is_nil) {
        return Ok(Val::Nil);
    }
    for (i, v) in a.iter().enumerate().take(2) {
        if v.as_f64().is_none() {
            return Err(wrong(f, i, "a number", *v));
        }
    }
    let o = ops::compare(a[0], a[1]).map_err(|_| FnError::new(format!("{f}() cannot order NaN")))?;
    Ok(Val::Bool(test(o)))
}
