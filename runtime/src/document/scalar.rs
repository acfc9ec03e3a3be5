//! A YAML scalar's value by its style and tag, as bpvm reads it (the
//! YAML 1.2 core schema, or go-yaml's rules for Windsor's files), and the
//! key a map keeps for it.

use super::Typing;
use super::place::{At, Built, Error};
use super::tag::TagKind;
use crate::key::Key;
use crate::report::excerpt;
use crate::value::Value;
use saphyr_parser_bw::ScalarStyle;

/// The text a map keeps for a key: text as is, `null` for null, other
/// values as text.
pub(super) fn key_text(value: Value) -> Key {
    match value {
        Value::Str(s) => Key::new(&s),
        Value::Null => Key::new("null"),
        other => Key::new(&crate::text::to_text(&other)),
    }
}

/// The key text of a scalar key, without building a value for text.
pub(super) fn scalar_key(text: &str, style: ScalarStyle, kind: TagKind, typing: Typing, at: At) -> Built<Key> {
    if kind == TagKind::None && style == ScalarStyle::Plain && !maybe_typed(text) {
        return Ok(Key::new(text));
    }
    if style != ScalarStyle::Plain
        && matches!(
            kind,
            TagKind::None | TagKind::Other | TagKind::String | TagKind::NonSpecific
        )
    {
        return Ok(Key::new(text));
    }
    Ok(key_text(scalar(text, style, kind, typing, at)?))
}

/// A scalar's value by its style and tag.
pub(super) fn scalar(text: &str, style: ScalarStyle, kind: TagKind, typing: Typing, at: At) -> Built<Value> {
    let not_finite = |_| {
        Error::new(
            at,
            format!("{} is not a finite number (numbers stay finite)", excerpt::clip(text)),
        )
    };
    Ok(match kind {
        TagKind::None | TagKind::Other | TagKind::Merge | TagKind::Value | TagKind::Include => {
            if style != ScalarStyle::Plain {
                Value::Str(text.into())
            } else if typing == Typing::GoYaml && maybe_typed(text) {
                super::go_number::plain(text).map_err(|m| Error::new(at, m))?
            } else {
                plain(text).map_err(not_finite)?
            }
        }
        TagKind::NonSpecific | TagKind::String => Value::Str(text.into()),
        TagKind::Null => Value::Null,
        TagKind::Bool => match core_bool(trim(text)) {
            Some(b) => Value::Bool(b),
            None => return Err(Error::new(at, "invalid boolean (strict mode expects true/false)")),
        },
        TagKind::Int => {
            let t = trim(text);
            if t.starts_with('-') {
                match signed(t) {
                    Some(i) => Value::Int(i),
                    None => return Err(Error::new(at, "invalid i64")),
                }
            } else {
                match unsigned(t) {
                    Some(u) => from_u64(u),
                    None => return Err(Error::new(at, "invalid u64")),
                }
            }
        }
        TagKind::Float => match float(text) {
            Some(Ok(f)) => Value::Float(f),
            Some(Err(e)) => return Err(not_finite(e)),
            None => return Err(Error::new(at, "invalid floating point")),
        },
        TagKind::Unit => return Err(Error::new(at, "invalid floating point")),
        TagKind::Binary => match base64(text) {
            None => return Err(Error::new(at, "invalid !!binary base64")),
            Some(bytes) => match String::from_utf8(bytes) {
                Ok(s) => Value::Str(s.into()),
                Err(_) => return Err(Error::new(at, "!!binary scalar is not valid UTF-8 text")),
            },
        },
        TagKind::TimeStamp | TagKind::Seq | TagKind::Map => {
            return Err(Error::new(at, "cannot deserialize tagged scalar into string"));
        }
    })
}

/// A number spelled as infinity or not-a-number, or too large for a float.
#[derive(Debug)]
struct NotFinite;

/// A plain (unquoted, untagged) scalar by the YAML 1.2 core schema, as
/// bpvm reads it:
///
/// - null: empty, `~`, `null`, `Null`, `NULL`;
/// - booleans: `true`/`false` (also `True`, `TRUE`, …), never `yes` or `on`;
/// - integers: decimal without a leading zero (`010` is read as the float
///   10), `0x`/`0o`/`0b` with an optional sign, single `_` between digits;
///   past 64 bits a float;
/// - floats as Rust spells them (`1.5`, `.5`, `1e3`); `.inf`, `.nan` and
///   overflowing numerals are [`NotFinite`];
/// - anything else is text.
fn plain(text: &str) -> Result<Value, NotFinite> {
    if !maybe_typed(text) {
        return Ok(Value::Str(text.into()));
    }
    if let "" | "~" | "null" | "Null" | "NULL" = text {
        return Ok(Value::Null);
    }
    let t = trim(text);
    if let Some(b) = core_bool(t) {
        return Ok(Value::Bool(b));
    }
    if t.starts_with('-') {
        if !leading_zero(t)
            && let Some(i) = signed(t)
        {
            return Ok(Value::Int(i));
        }
    } else if let Some(u) = unsigned(t) {
        return Ok(from_u64(u));
    }
    match float(text) {
        Some(f) => f.map(Value::Float),
        None => Ok(Value::Str(text.into())),
    }
}

/// False when `text` can only be text: it starts like no null, boolean
/// or number does.
fn maybe_typed(text: &str) -> bool {
    match text.as_bytes().first() {
        None => true,
        Some(b) => matches!(
            b,
            b'0'..=b'9'
                | b'+'
                | b'-'
                | b'.'
                | b'~'
                | b'n'
                | b'N'
                | b't'
                | b'T'
                | b'f'
                | b'F'
                | b' '
                | b'\t'
                | b'\r'
                | b'\n'
        ),
    }
}

fn trim(s: &str) -> &str {
    s.trim_matches([' ', '\t', '\r', '\n'])
}

fn core_bool(t: &str) -> Option<bool> {
    match t {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

fn from_u64(u: u64) -> Value {
    i64::try_from(u).map_or(Value::Float(u as f64), Value::Int)
}

/// `0127`, `+0127`, `-0127`: a decimal with a redundant leading zero.
fn leading_zero(t: &str) -> bool {
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    digits.len() > 1 && digits.starts_with('0') && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The radix a number's prefix names, and its digits.
fn radix(rest: &str) -> (u32, &str) {
    for (prefix, radix) in [("0x", 16), ("0X", 16), ("0o", 8), ("0O", 8), ("0b", 2), ("0B", 2)] {
        if let Some(digits) = rest.strip_prefix(prefix) {
            return (radix, digits);
        }
    }
    (10, rest)
}

/// The digits' value; single `_` may stand between digits.
fn digits(digits: &str, radix: u32) -> Option<u128> {
    let bytes = digits.as_bytes();
    let mut value: u128 = 0;
    let mut any = false;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'_' {
            if i == 0 || bytes[i - 1] == b'_' || i + 1 == bytes.len() || bytes[i + 1] == b'_' {
                return None;
            }
            continue;
        }
        let d = (b as char).to_digit(radix)?;
        value = value.checked_mul(u128::from(radix))?.checked_add(u128::from(d))?;
        any = true;
    }
    any.then_some(value)
}

/// An integer without a sign or with `+`.
fn unsigned(t: &str) -> Option<u64> {
    if t.starts_with('-') {
        return None;
    }
    let (radix, ds) = radix(t.strip_prefix('+').unwrap_or(t));
    if radix == 10 && ds.starts_with('0') && ds != "0" {
        return None;
    }
    u64::try_from(digits(ds, radix)?).ok()
}

/// An integer with an optional sign.
fn signed(t: &str) -> Option<i64> {
    let (negative, rest) = match t.strip_prefix('+') {
        Some(rest) => (false, rest),
        None => match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t),
        },
    };
    let (radix, ds) = radix(rest);
    if radix == 10 && ds.starts_with('0') && ds != "0" {
        return None;
    }
    let magnitude = digits(ds, radix)?;
    let value = if negative {
        0i128.checked_sub_unsigned(magnitude)?
    } else {
        i128::try_from(magnitude).ok()?
    };
    i64::try_from(value).ok()
}

/// A float as YAML 1.2 and Rust spell it: `None` when `text` is no
/// float, [`NotFinite`] for `.inf`, `.nan` and numerals past `f64`.
fn float(text: &str) -> Option<Result<f64, NotFinite>> {
    let t = trim(text);
    let unsigned = match t.strip_prefix('-') {
        Some(rest) => rest,
        None => t.strip_prefix('+').unwrap_or(t),
    };
    if let ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" = unsigned {
        return Some(Err(NotFinite));
    }
    match t.parse::<f64>() {
        Ok(f) if f.is_finite() => Some(Ok(f)),
        Ok(f) if f.is_infinite() && unsigned.as_bytes().first().is_some_and(u8::is_ascii_digit) => Some(Err(NotFinite)),
        _ => None,
    }
}

/// The bytes of base64 text (`!!binary`); whitespace inside is skipped,
/// padding is required.
fn base64(text: &str) -> Option<Vec<u8>> {
    fn sextet(b: u8) -> Option<u32> {
        Some(u32::from(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    let clean: Vec<u8> = text.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    if clean.len() % 4 != 0 {
        return None;
    }
    let chunks = clean.len() / 4;
    let mut out = Vec::with_capacity(chunks * 3);
    for (i, chunk) in clean.chunks_exact(4).enumerate() {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || pad > 0 && i + 1 != chunks {
            return None;
        }
        let a = sextet(chunk[0])?;
        let b = sextet(chunk[1])?;
        let c = if pad == 2 { 0 } else { sextet(chunk[2])? };
        let d = if pad >= 1 { 0 } else { sextet(chunk[3])? };
        if pad == 2 && b & 0x0F != 0 || pad == 1 && c & 0x03 != 0 {
            return None;
        }
        let triple = (a << 18) | (b << 12) | (c << 6) | d;
        out.push((triple >> 16) as u8);
        if pad < 2 {
            out.push((triple >> 8) as u8);
        }
        if pad == 0 {
            out.push(triple as u8);
        }
    }
    Some(out)
}
