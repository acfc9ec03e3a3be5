//! The Windsor dialect's functions: expr-lang's builtins as Windsor facets
//! use them, with Windsor's own `string` and `split`.
//!
//! Functions that take a predicate (`filter`, `map`, `all`, `reduce`, …) are
//! not here: the compiler turns them into loops in bytecode.

use super::args::{char_offset, in_i64, index_in, int_at, list_at, map_at, num_at, out_of_i64, size, str_at, wrong};
use super::extreme::expr_extreme;
use super::sized;
use crate::func::{Builtin, Ctx, FnError, VARIADIC};
use crate::ops;
use crate::text;
use crate::val::Val;
use base64::Engine as _;
use std::cmp::Ordering;
use std::num::IntErrorKind;

/// Every function of the Windsor dialect, by name.
pub static FUNCTIONS: &[Builtin] = &[
    builtin!("len", 1, 1, len),
    builtin!("string", 1, 1, string),
    builtin!("split", 2, 2, split),
    builtin!("splitAfter", 2, 3, split_after),
    builtin!("concat", 1, VARIADIC, concat),
    builtin!("fromPairs", 1, 1, from_pairs),
    builtin!("toPairs", 1, 1, to_pairs),
    builtin!("get", 2, 2, get),
    builtin!("take", 2, 2, take),
    builtin!("uniq", 1, 1, uniq),
    builtin!("floor", 1, 1, |_, a| round_with("floor", a, f64::floor)),
    builtin!("ceil", 1, 1, |_, a| round_with("ceil", a, f64::ceil)),
    builtin!("round", 1, 1, |_, a| round_with("round", a, f64::round)),
    builtin!("abs", 1, 1, abs),
    builtin!("int", 1, 1, int),
    builtin!("float", 1, 1, float),
    builtin!("min", 1, VARIADIC, |_, a| expr_extreme("min", a, Ordering::Less)),
    builtin!("max", 1, VARIADIC, |_, a| expr_extreme("max", a, Ordering::Greater)),
    builtin!("sum", 1, 1, sum),
    builtin!("mean", 1, VARIADIC, mean),
    builtin!("median", 1, VARIADIC, median),
    builtin!("values", 1, 1, values),
    builtin!("keys", 1, 1, keys),
    builtin!("first", 1, 1, |_, a| end_item(a, false)),
    builtin!("last", 1, 1, |_, a| end_item(a, true)),
    builtin!("join", 1, 2, join),
    builtin!("lower", 1, 1, |c, a| Ok(super::case::lower(c, str_at("lower", a, 0)?))),
    builtin!("upper", 1, 1, |c, a| Ok(super::case::upper(c, str_at("upper", a, 0)?))),
    builtin!("trim", 1, 2, trim),
    builtin!("trimPrefix", 1, 2, trim_prefix),
    builtin!("trimSuffix", 1, 2, trim_suffix),
    builtin!("hasPrefix", 2, 2, |_, a| Ok(Val::Bool(
        str_at("hasPrefix", a, 0)?.starts_with(str_at("hasPrefix", a, 1)?)
    ))),
    builtin!("hasSuffix", 2, 2, |_, a| Ok(Val::Bool(
        str_at("hasSuffix", a, 0)?.ends_with(str_at("hasSuffix", a, 1)?)
    ))),
    builtin!("replace", 3, 4, replace),
    builtin!("repeat", 2, 2, repeat),
    builtin!("indexOf", 2, 2, |_, a| index_of("indexOf", a, false)),
    builtin!("lastIndexOf", 2, 2, |_, a| index_of("lastIndexOf", a, true)),
    builtin!("flatten", 1, 1, flatten),
    builtin!("reverse", 1, 1, reverse),
    builtin!("sort", 1, 2, sort),
    builtin!("type", 1, 1, type_of),
    builtin!("toJSON", 1, 1, super::go_json::to_json),
    builtin!("jsonString", 1, 1, super::go_json::json_string),
    builtin!("fromJSON", 1, 1, from_json),
    builtin!("toBase64", 1, 1, to_base64),
    builtin!("fromBase64", 1, 1, from_base64),
];

fn len<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let n = match a[0] {
        Val::Bytes(b) => b.len(),
        v => size(v).ok_or_else(|| wrong("len", 0, "a string, list or map", v))?,
    };
    Ok(Val::Int(n as i64))
}

/// Windsor's `string`: nil is empty, lists and maps are goccy's YAML
/// (trimmed), the rest is Go `%v`.
fn string<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    if let Val::Str(_) = a[0] {
        return Ok(a[0]);
    }
    if a[0].list().is_some() || a[0].map().is_some() {
        let s = super::go_yaml::to_yaml(a[0]);
        c.reserve("string()", s.len())?;
        return Ok(c.str(&s));
    }
    let mut s = String::new();
    text::push_text(&mut s, a[0]);
    Ok(c.str(&s))
}

fn split<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    sized::split(c, "split", str_at("split", a, 0)?, str_at("split", a, 1)?, true)
}

/// expr-lang's `splitAfter(s, sep[, n])`: Go's `SplitAfterN`. (Windsor
/// replaces expr-lang's `split` with its own two-argument one.)
fn split_after<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let f = "splitAfter";
    let n = if a.len() > 2 { count_at(f, a, 2)? } else { -1 };
    sized::split_n(c, f, str_at(f, a, 0)?, str_at(f, a, 1)?, true, n)
}

/// A count argument as expr-lang reads it: an integer, or a float
/// without its fraction.
fn count_at(f: &str, a: &[Val<'_>], i: usize) -> Result<i64, FnError> {
    match a[i] {
        Val::Int(n) => Ok(n),
        Val::Float(x) => {
            in_i64(x).ok_or_else(|| FnError::arg(i, format!("{f}() argument {} {}", i + 1, out_of_i64(x))))
        }
        v => Err(wrong(f, i, "an integer", v)),
    }
}

fn concat<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let mut n = 0usize;
    for i in 0..a.len() {
        n = n.saturating_add(list_at("concat", a, i)?.len());
    }
    c.reserve_items("concat()", n)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..a.len() {
        out.extend(list_at("concat", a, i)?.iter());
    }
    Ok(c.list(out))
}

fn from_pairs<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let mut entries = Vec::new();
    for pair in list_at("fromPairs", a, 0)?.iter() {
        let p = pair.list().filter(|p| p.len() == 2).ok_or_else(|| {
            FnError::arg(
                0,
                format!(
                    "fromPairs() needs a list of [key, value] pairs, got an item of type {}",
                    pair.type_name()
                ),
            )
        })?;
        let key = match p.get(0).unwrap_or(Val::Nil) {
            Val::Str(s) => s,
            // As Windsor prints a map with a nil key (fmt.Sprint).
            Val::Nil => "<nil>",
            k @ (Val::Int(_) | Val::Float(_) | Val::Bool(_)) => {
                let mut s = String::new();
                text::push_text(&mut s, k);
                c.arena.alloc_str(&s)
            }
            k => {
                return Err(FnError::arg(
                    0,
                    format!("fromPairs() keys must be strings, got {}", k.type_name()),
                ));
            }
        };
        entries.push((key, p.get(1).unwrap_or(Val::Nil)));
    }
    Ok(c.map(entries))
}

fn to_pairs<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let m = map_at("toPairs", a, 0)?;
    let pairs: Vec<Val<'a>> = m.iter().map(|(k, v)| c.list([Val::Str(k), v])).collect();
    Ok(c.list(pairs))
}

/// expr-lang's `get(x, key)`: a member or item, nil when there is none
/// or `x` cannot have one; a key of the wrong kind for a map or list is
/// an error. A string's item is a number, as `char_at` says.
fn get<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let (base, key) = (a[0], a[1]);
    if let Some(m) = base.map() {
        return match key {
            Val::Str(k) => Ok(m.get(k).unwrap_or(Val::Nil)),
            // Go looks a nil key up as the zero key, "".
            Val::Nil => Ok(m.get("").unwrap_or(Val::Nil)),
            other => Err(wrong("get", 1, "a string key for a map", other)),
        };
    }
    if let Some(l) = base.list() {
        let i = count_at("get", a, 1)?;
        return Ok(index_in(i, l.len()).and_then(|i| l.get(i)).unwrap_or(Val::Nil));
    }
    match base {
        Val::Str(s) => Ok(char_at(s, count_at("get", a, 1)?)),
        _ => Ok(Val::Nil),
    }
}

/// The item of `s` at index `i` (negative counts from the end), or nil:
/// as `s[i]`, a number, the character's code point (Go gives the byte,
/// the same for ASCII text; strings count characters, D5).
fn char_at<'a>(s: &str, i: i64) -> Val<'a> {
    index_in(i, s.chars().count())
        .and_then(|at| s.chars().nth(at))
        .map_or(Val::Nil, |ch| Val::Int(i64::from(u32::from(ch))))
}

fn take<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let l = list_at("take", a, 0)?;
    let n = int_at("take", a, 1)?;
    if n < 0 {
        return Err(FnError::arg(1, format!("take() count {n} is negative")));
    }
    let n = n.min(l.len() as i64) as usize;
    Ok(c.list(l.iter().take(n)))
}

fn uniq<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let mut out: Vec<Val<'a>> = Vec::new();
    for v in list_at("uniq", a, 0)?.iter() {
        if !out.iter().any(|o| ops::equal(*o, v)) {
            out.push(v);
        }
    }
    Ok(c.list(out))
}

fn round_with<'a>(f: &str, a: &[Val<'a>], op: fn(f64) -> f64) -> Result<Val<'a>, FnError> {
    Ok(Val::Float(op(num_at(f, a, 0)?)))
}

/// `abs(n)`, shared with the Bluelink dialect (which adds none).
pub(super) fn abs<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    match a[0] {
        Val::Int(i) => i
            .checked_abs()
            .map(Val::Int)
            .ok_or_else(|| FnError::new("abs() integer overflow")),
        Val::Float(f) => Ok(Val::Float(f.abs())),
        v => Err(wrong("abs", 0, "a number", v)),
    }
}

fn int<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    match a[0] {
        Val::Int(i) => Ok(Val::Int(i)),
        // Go's `int(d)` of a duration, month or weekday: its number.
        Val::Duration(d) => Ok(Val::Int(d)),
        Val::Calendar(crate::time::Calendar::Month(n) | crate::time::Calendar::Weekday(n)) => Ok(Val::Int(n as i64)),
        Val::Float(f) => in_i64(f)
            .map(Val::Int)
            .ok_or_else(|| FnError::arg(0, format!("int() argument 1 {}", out_of_i64(f)))),
        Val::Str(s) => s.trim().parse::<i64>().map(Val::Int).map_err(|e| {
            let why = match e.kind() {
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow => ": it is out of the 64-bit integer range",
                _ => "",
            };
            FnError::arg(0, format!("int() cannot parse {s:?} as an integer{why}"))
        }),
        v => Err(wrong("int", 0, "a number or a numeric string", v)),
    }
}

fn float<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    match a[0] {
        Val::Int(i) => Ok(Val::Float(i as f64)),
        Val::Float(f) => Ok(Val::Float(f)),
        Val::Str(s) => s
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|f| f.is_finite())
            .map(Val::Float)
            .ok_or_else(|| FnError::arg(0, format!("float() cannot parse {s:?} as a finite number"))),
        v => Err(wrong("float", 0, "a number or a numeric string", v)),
    }
}

fn sum<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    // A string's items are numbers, its characters' code points (as the
    // predicate functions loop over it).
    if let Val::Str(s) = a[0] {
        return Ok(Val::Int(s.chars().map(|c| i64::from(u32::from(c))).sum()));
    }
    let mut total = Val::Int(0);
    for v in list_at("sum", a, 0)?.iter() {
        total = match (total, v) {
            (Val::Int(x), Val::Int(y)) => {
                Val::Int(x.checked_add(y).ok_or_else(|| FnError::new("sum() integer overflow"))?)
            }
            (t, v) => match (t.as_f64(), v.as_f64()) {
                (Some(x), Some(y)) if (x + y).is_finite() => Val::Float(x + y),
                (Some(_), Some(_)) => return Err(FnError::new("sum() is not a finite number")),
                _ => {
                    return Err(FnError::arg(
                        0,
                        format!("sum() needs a list of numbers, got an item of type {}", v.type_name()),
                    ));
                }
            },
        };
    }
    Ok(total)
}

/// expr-lang's `mean`: the numbers among the arguments, lists of any
/// depth walked through; none is 0.0.
fn mean<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let (mut total, mut count) = (0.0, 0usize);
    each_number("mean", a, &mut |x| {
        total += x;
        count += 1;
    })?;
    if count == 0 {
        return Ok(Val::Float(0.0));
    }
    if !total.is_finite() {
        return Err(FnError::new("mean() is not a finite number"));
    }
    Ok(Val::Float(total / count as f64))
}

/// expr-lang's `median`: of the numbers among the arguments, lists of any
/// depth walked through, the middle one or the mean of the two middle
/// ones, as a float; none is 0.0.
fn median<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let mut numbers = Vec::new();
    each_number("median", a, &mut |x| numbers.push(x))?;
    numbers.sort_by(f64::total_cmp);
    let n = numbers.len();
    Ok(Val::Float(match n {
        0 => 0.0,
        _ if n % 2 == 1 => numbers[n / 2],
        _ => (numbers[n / 2 - 1] + numbers[n / 2]) / 2.0,
    }))
}

/// Lists nested deeper than this are refused rather than walked.
const MAX_NESTING: usize = 10_000;

/// Calls `each` with every number of the arguments of `f`, walking into
/// lists; anything else is an error naming the argument.
fn each_number(f: &str, a: &[Val<'_>], each: &mut dyn FnMut(f64)) -> Result<(), FnError> {
    for (i, &v) in a.iter().enumerate() {
        walk_numbers(f, i, v, 0, each)?;
    }
    Ok(())
}

fn walk_numbers(f: &str, i: usize, v: Val<'_>, depth: usize, each: &mut dyn FnMut(f64)) -> Result<(), FnError> {
    if let Some(x) = v.as_f64() {
        each(x);
        return Ok(());
    }
    let items = v
        .list()
        .ok_or_else(|| wrong(f, i, "a number or a list of numbers", v))?;
    if depth >= MAX_NESTING {
        return Err(FnError::arg(i, format!("{f}() lists nest too deep")));
    }
    for item in items.iter() {
        walk_numbers(f, i, item, depth + 1, each)?;
    }
    Ok(())
}

fn values<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let m = map_at("values", a, 0)?;
    Ok(c.list(m.iter().map(|(_, v)| v)))
}

fn keys<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let m = map_at("keys", a, 0)?;
    Ok(c.list(m.iter().map(|(k, _)| Val::Str(k))))
}

/// expr-lang's `first`/`last`: the end item of a list or a string (a
/// number, as `char_at`), nil for anything else (expr-lang recovers from the
/// failed fetch with nil).
fn end_item<'a>(a: &[Val<'a>], last: bool) -> Result<Val<'a>, FnError> {
    let at = if last { -1 } else { 0 };
    Ok(match (a[0], a[0].list()) {
        (_, Some(l)) => index_in(at, l.len()).and_then(|i| l.get(i)).unwrap_or(Val::Nil),
        (Val::Str(s), None) => char_at(s, at),
        _ => Val::Nil,
    })
}

fn join<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let l = list_at("join", a, 0)?;
    let sep = if a.len() > 1 { str_at("join", a, 1)? } else { "" };
    sized::check_join(c, "join", l.iter().map(sized::text_len), sep)?;
    let mut out = String::new();
    for (i, v) in l.iter().enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        match v {
            Val::Str(s) => out.push_str(s),
            other => {
                return Err(FnError::arg(
                    0,
                    format!(
                        "join() needs a list of strings, got an item of type {}",
                        other.type_name()
                    ),
                ));
            }
        }
    }
    Ok(c.str(&out))
}

fn trim<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let s = str_at("trim", a, 0)?;
    if a.len() > 1 {
        let cut = str_at("trim", a, 1)?;
        return Ok(Val::Str(s.trim_matches(|ch| cut.contains(ch))));
    }
    Ok(Val::Str(s.trim()))
}

/// The text `trimPrefix`/`trimSuffix` cut: the second argument, or one
/// space when there is none (expr-lang's default).
fn cut_text<'a>(f: &str, a: &[Val<'a>]) -> Result<&'a str, FnError> {
    if a.len() > 1 { str_at(f, a, 1) } else { Ok(" ") }
}

fn trim_prefix<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let s = str_at("trimPrefix", a, 0)?;
    Ok(Val::Str(s.strip_prefix(cut_text("trimPrefix", a)?).unwrap_or(s)))
}

fn trim_suffix<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let s = str_at("trimSuffix", a, 0)?;
    Ok(Val::Str(s.strip_suffix(cut_text("trimSuffix", a)?).unwrap_or(s)))
}

fn replace<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let (s, from, to) = (
        str_at("replace", a, 0)?,
        str_at("replace", a, 1)?,
        str_at("replace", a, 2)?,
    );
    match a.get(3) {
        Some(_) => sized::replace_n(c, "replace", s, from, to, count_at("replace", a, 3)?),
        None => sized::replace(c, "replace", s, from, to),
    }
}

fn repeat<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    sized::repeat(c, "repeat", str_at("repeat", a, 0)?, count_at("repeat", a, 1)?)
}

fn index_of<'a>(f: &str, a: &[Val<'a>], last: bool) -> Result<Val<'a>, FnError> {
    let s = str_at(f, a, 0)?;
    let sub = str_at(f, a, 1)?;
    let at = if last { s.rfind(sub) } else { s.find(sub) };
    Ok(Val::Int(at.map_or(-1, |b| char_offset(s, b))))
}

fn flatten<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    fn walk<'a>(v: Val<'a>, out: &mut Vec<Val<'a>>, depth: usize) -> Result<(), FnError> {
        if depth > 256 {
            return Err(FnError::new("flatten() nesting is too deep"));
        }
        match v.list() {
            Some(l) => l.iter().try_for_each(|x| walk(x, out, depth + 1)),
            None => {
                out.push(v);
                Ok(())
            }
        }
    }
    let mut out = Vec::new();
    for v in list_at("flatten", a, 0)?.iter() {
        walk(v, &mut out, 0)?;
    }
    Ok(c.list(out))
}

fn reverse<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    Ok(c.list(list_at("reverse", a, 0)?.iter().rev()))
}

fn sort<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    // expr-lang sorts nothing but a list; anything else sorts as empty.
    let mut items: Vec<Val<'a>> = a[0].list().map_or_else(Vec::new, |l| l.iter().collect());
    let desc = match a.get(1) {
        None => false,
        Some(_) => match str_at("sort", a, 1)? {
            "asc" => false,
            "desc" => true,
            other => {
                return Err(FnError::arg(
                    1,
                    format!("sort() order must be \"asc\" or \"desc\", got {other:?}"),
                ));
            }
        },
    };
    let mut failure = None;
    items.sort_by(|x, y| match ops::compare(*x, *y) {
        Ok(o) => o,
        Err(_) => {
            failure.get_or_insert_with(|| {
                FnError::arg(
                    0,
                    format!("sort() cannot order {} and {}", x.type_name(), y.type_name()),
                )
            });
            Ordering::Equal
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    if desc {
        items.reverse();
    }
    Ok(c.list(items))
}

fn type_of<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    Ok(Val::Str(match a[0].type_name() {
        "list" => "array",
        other => other,
    }))
}

fn from_json<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let s = str_at("fromJSON", a, 0)?;
    let mut v = crate::Value::from_json(s).map_err(|e| FnError::arg(0, format!("fromJSON() invalid JSON: {e}")))?;
    numbers_as_floats(&mut v);
    c.adopt("fromJSON()", &v)
}

/// Go's `encoding/json` decodes every number into `any` as a float64
/// (`fromJSON("1")` is 1.0). JSON text nests boundedly, so this recursion is.
fn numbers_as_floats(v: &mut crate::Value) {
    match v {
        crate::Value::Int(i) => *v = crate::Value::Float(*i as f64),
        crate::Value::List(items) => items.iter_mut().for_each(numbers_as_floats),
        crate::Value::Map(m) => m.iter_mut().for_each(|(_, x)| numbers_as_floats(x)),
        _ => {}
    }
}

fn to_base64<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let bytes = match a[0] {
        Val::Str(s) => s.as_bytes(),
        Val::Bytes(b) => b,
        v => return Err(wrong("toBase64", 0, "a string", v)),
    };
    Ok(c.str(&base64::engine::general_purpose::STANDARD.encode(bytes)))
}

fn from_base64<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let s = str_at("fromBase64", a, 0)?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(s)
        .map_err(|e| FnError::arg(0, format!("fromBase64() invalid base64: {e}")))?;
    // Go gives the bytes as a string whatever they are; bytes that are
    // not UTF-8 print as U+FFFD, so they are that here.
    Ok(c.str(&String::from_utf8_lossy(&bytes)))
}
