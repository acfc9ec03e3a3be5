//! `jsonString(x)`: JSON text exactly as Windsor's `jsonString` writes it,
//! which is Go's `encoding/json`: compact, object keys sorted, `<`, `>`,
//! `&`, U+2028 and U+2029 escaped, floats in Go's shortest form (`2` for
//! 2.0, `1e+21` past 1e21, `1e-7` below 1e-6).

use super::args::wrong;
use crate::func::{Ctx, FnError};
use crate::val::Val;
use std::fmt::Write;

/// `jsonString(x)`.
pub fn json_string<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let mut out = String::new();
    write(&mut out, a[0])?;
    c.reserve("jsonString()", out.len())?;
    Ok(c.str(&out))
}

fn write(out: &mut String, v: Val<'_>) -> Result<(), FnError> {
    match v {
        Val::Nil => out.push_str("null"),
        Val::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Val::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Val::Float(f) => float(out, f),
        Val::Str(s) => string(out, s),
        Val::Bytes(b) => string(out, &String::from_utf8_lossy(b)),
        Val::Func(_) => return Err(wrong("jsonString", 0, "a value that JSON can hold", v)),
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
                out.push('[');
                for (i, x) in list.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(out, x)?;
                }
                out.push(']');
            } else if let Some(map) = v.map() {
                let mut entries: Vec<(&str, Val<'_>)> = map.iter().collect();
                entries.sort_by(|x, y| x.0.cmp(y.0));
                out.push('{');
                for (i, (k, x)) in entries.into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    string(out, k);
                    out.push(':');
                    write(out, x)?;
                }
                out.push('}');
            }
        }
    }
    Ok(())
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
