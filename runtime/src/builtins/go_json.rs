//! `jsonString(x)` and `toJSON(x)`: JSON text exactly as Windsor's
//! `jsonString` (compact) and expr-lang's `toJSON` (indented) write it,
//! which is Go's `encoding/json`: object keys sorted, `<`, `>`,
//! `&`, U+2028 and U+2029 escaped, floats in Go's shortest form (`2` for
//! 2.0, `1e+21` past 1e21, `1e-7` below 1e-6).

use super::args::wrong;
use crate::func::{Ctx, FnError};
use crate::val::Val;
use base64::Engine as _;
use std::fmt::Write;

/// `jsonString(x)`.
pub fn json_string<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    encode(c, "jsonString", a[0], None)
}

/// expr-lang's `toJSON(x)`: Go's `json.MarshalIndent(x, "", "  ")`, the
/// same text as `jsonString` laid out one value a line, two spaces a level.
pub fn to_json<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    encode(c, "toJSON", a[0], Some(0))
}

fn encode<'a>(c: &mut Ctx<'a>, f: &str, v: Val<'a>, indent: Option<usize>) -> Result<Val<'a>, FnError> {
    let mut out = String::new();
    write(&mut out, f, v, indent)?;
    c.reserve(&format!("{f}()"), out.len())?;
    Ok(c.str(&out))
}

/// Values nested deeper than this are refused rather than walked.
const MAX_DEPTH: usize = 10_000;

/// Writes `v`; `indent` is the current level when laying out, `None` for
/// compact text.
fn write(out: &mut String, f: &str, v: Val<'_>, indent: Option<usize>) -> Result<(), FnError> {
    if indent.is_some_and(|d| d > MAX_DEPTH) {
        return Err(FnError::new(format!("{f}() value nests too deep")));
    }
    match v {
        Val::Nil => out.push_str("null"),
        Val::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Val::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Val::Float(x) => float(out, x),
        Val::Str(s) => string(out, s),
        // Go writes a byte slice as base64 text.
        Val::Bytes(b) => string(out, &base64::engine::general_purpose::STANDARD.encode(b)),
        Val::Func(_) => return Err(wrong(f, 0, "a value that JSON can hold", v)),
        // As Go's encoding/json: a time in RFC 3339, a duration, month or
        // weekday as its number, a location as an object of no fields.
        Val::Time(t) => string(out, &crate::time::format::format(t, crate::time::format::RFC3339_NANO)),
        Val::Duration(d) => {
            let _ = write!(out, "{d}");
        }
        Val::Calendar(crate::time::Calendar::Month(n) | crate::time::Calendar::Weekday(n)) => {
            let _ = write!(out, "{n}");
        }
        Val::Calendar(_) => out.push_str("{}"),
        _ => {
            if let Some(list) = v.list() {
                let items = list.iter().map(|x| (None, x));
                return composite(out, f, ('[', ']'), items, indent);
            }
            if let Some(map) = v.map() {
                let mut entries: Vec<(&str, Val<'_>)> = map.iter().collect();
                entries.sort_by(|x, y| x.0.cmp(y.0));
                let items = entries.into_iter().map(|(k, x)| (Some(k), x));
                return composite(out, f, ('{', '}'), items, indent);
            }
        }
    }
    Ok(())
}

/// A list or map between `brackets`, its items `(key, value)`: on one
/// line when compact, else one a line (an empty one stays `[]` / `{}`).
fn composite<'v>(
    out: &mut String,
    f: &str,
    brackets: (char, char),
    items: impl Iterator<Item = (Option<&'v str>, Val<'v>)>,
    indent: Option<usize>,
) -> Result<(), FnError> {
    out.push(brackets.0);
    let mut any = false;
    for (i, (key, x)) in items.enumerate() {
        any = true;
        if i > 0 {
            out.push(',');
        }
        if let Some(d) = indent {
            new_line(out, d + 1);
        }
        if let Some(k) = key {
            string(out, k);
            out.push(':');
            if indent.is_some() {
                out.push(' ');
            }
        }
        write(out, f, x, indent.map(|d| d + 1))?;
    }
    if let (true, Some(d)) = (any, indent) {
        new_line(out, d);
    }
    out.push(brackets.1);
    Ok(())
}

fn new_line(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Go's float encoding: decimal between 1e-6 and 1e21, otherwise an
/// exponent with a sign and no leading zero (`1e+21`, `1e-7`).
fn float(out: &mut String, f: f64) {
    let abs = f.abs();
    if abs == 0.0 || (1e-6..1e21).contains(&abs) {
        let _ = write!(out, "{f}");
        return;
    }
    let text = format!("{f:e}");
    match text.split_once('e') {
        Some((mantissa, exp)) if !exp.starts_with('-') => {
            let _ = write!(out, "{mantissa}e+{exp}");
        }
        _ => out.push_str(&text),
    }
}

fn string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", ch as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}
