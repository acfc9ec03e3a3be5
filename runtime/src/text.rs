//! How values become text (D4): integers as integers, floats in shortest
//! round-trip form the way Go's `%v` prints them (`2.0` → `2`, `1e6` →
//! `1e+06`, `1e21` → `1e+21`), nil as the empty string, lists and maps as
//! YAML, times and durations as Go's `%v` prints them.

use crate::val::Val;
use crate::value::Value;
use std::fmt::Write;

/// Appends a float as Go's `%v` prints a float64.
///
/// ```
/// let mut s = String::new();
/// bpvm_runtime::text::push_float(&mut s, 2.0);
/// s.push(' ');
/// bpvm_runtime::text::push_float(&mut s, 1e21);
/// assert_eq!(s, "2 1e+21");
/// ```
pub fn push_float(out: &mut impl Write, f: f64) {
    if f.is_nan() {
        let _ = out.write_str("NaN");
        return;
    }
    if f.is_infinite() {
        let _ = out.write_str(if f > 0.0 { "+Inf" } else { "-Inf" });
        return;
    }
    if f == 0.0 {
        let _ = out.write_str(if f.is_sign_negative() { "-0" } else { "0" });
        return;
    }
    // `{:e}` gives the shortest round-trip digits: "-1.2345e6".
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let (neg, mantissa) = match mantissa.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mantissa),
    };
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    if neg {
        let _ = out.write_char('-');
    }
    // Go's shortest `%g` uses exponent form below 1e-4 and from 1e6 up.
    if !(-4..6).contains(&exp) {
        let _ = out.write_str(&digits[..1]);
        if digits.len() > 1 {
            let _ = out.write_char('.');
            let _ = out.write_str(&digits[1..]);
        }
        let _ = write!(out, "e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs());
    } else if exp < 0 {
        let _ = out.write_str("0.");
        for _ in 0..(-exp - 1) {
            let _ = out.write_char('0');
        }
        let _ = out.write_str(&digits);
    } else {
        let point = exp as usize + 1;
        if digits.len() <= point {
            let _ = out.write_str(&digits);
            for _ in digits.len()..point {
                let _ = out.write_char('0');
            }
        } else {
            let _ = out.write_str(&digits[..point]);
            let _ = out.write_char('.');
            let _ = out.write_str(&digits[point..]);
        }
    }
}

/// Appends `v` as text: the rule for embedded `${…}` results and `string()`.
pub fn push_text(out: &mut impl Write, v: Val<'_>) {
    // Writing to a string cannot fail.
    let _ = match v {
        Val::Nil => Ok(()),
        Val::Bool(b) => out.write_str(if b { "true" } else { "false" }),
        Val::Int(i) => write!(out, "{i}"),
        Val::Float(f) => {
            push_float(out, f);
            Ok(())
        }
        Val::Str(s) => out.write_str(s),
        Val::Bytes(b) => out.write_str(&String::from_utf8_lossy(b)),
        Val::Func(f) => write!(out, "<function {}>", f.func.name),
        Val::Doc(_) | Val::List(_) | Val::Map(_) => out.write_str(to_yaml(&v.to_value()).trim_end()),
        // As Go's `%v`: `2017-10-23 00:00:00 +0000 UTC`, `1h0m0s`, `October`.
        Val::Time(t) => out.write_str(&crate::time::format::format(t, crate::time::format::STRING)),
        Val::Duration(d) => out.write_str(&crate::time::duration::text(d)),
        Val::Calendar(c) => out.write_str(c.name()),
    };
}

/// `v` as text (see [`push_text`]).
pub fn to_text(v: &Value) -> String {
    let mut s = String::new();
    push_text(&mut s, Val::from_doc(v));
    s
}

/// `v` as a YAML document.
///
/// Multi-line strings are literal blocks (`|`); long single-line strings
/// stay on one line (folding them would make `${…}` text hard to read).
pub fn to_yaml(v: &Value) -> String {
    let mut options = serde_saphyr::SerializerOptions::default();
    options.folded_wrap_chars = usize::MAX / 4;
    options.min_fold_chars = usize::MAX / 4;
    serde_saphyr::to_string_with_options(v, options).unwrap_or_default()
}

/// `v` as an indented JSON document ending in a newline, keys in
/// document order (the JSON form of [`to_yaml`]).
pub fn to_json(v: &Value) -> String {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    s.push('\n');
    s
}

/// `s` the way Go's `strconv.Quote` (and `%q`) writes a string:
/// double-quoted, `"` and `\` escaped, control and other non-printing
/// characters as Go escapes them.
pub fn push_go_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if printable(c) => out.push(c),
            c if (c as u32) < 0x80 => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
}

/// Whether Go prints `c` as itself in a quoted string (an approximation
/// of `unicode.IsPrint` without Unicode's tables: controls, spaces other
/// than ` `, format characters and private-use characters are escaped;
/// unassigned code points are printed).
fn printable(c: char) -> bool {
    !(c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c,
            '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{180e}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{e000}'..='\u{f8ff}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'..='\u{e007f}'
            | '\u{f0000}'..))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> String {
        let mut s = String::new();
        push_float(&mut s, x);
        s
    }

    #[test]
    fn floats_print_like_go() {
        assert_eq!(f(2.0), "2");
        assert_eq!(f(2.5), "2.5");
        assert_eq!(f(3.25), "3.25");
        assert_eq!(f(-0.5), "-0.5");
        assert_eq!(f(1e21), "1e+21");
        assert_eq!(f(1e20), "1e+20");
        assert_eq!(f(1e6), "1e+06");
        assert_eq!(f(1234567.0), "1.234567e+06");
        assert_eq!(f(123456.0), "123456");
        assert_eq!(f(0.0001), "0.0001");
        assert_eq!(f(0.00001), "1e-05");
        assert_eq!(f(1.5e-7), "1.5e-07");
        assert_eq!(f(0.1 + 0.2), "0.30000000000000004");
    }
}
