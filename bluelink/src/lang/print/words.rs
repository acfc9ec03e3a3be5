//! How names, keys and strings are spelt in `.bp`: a bare word when the
//! language reads it back as the same text, else quoted; a string quoted
//! with only `\"` escaped, or in `"""` when it has line breaks or ends
//! with a backslash.

use super::super::token::KEYWORDS;
use super::refusal::{Refused, refused};
use crate::error::Pos;

/// Four spaces per level.
pub(super) fn pad(level: usize) -> String {
    "    ".repeat(level)
}

/// True for an IDENT of the language: `[A-Za-z_][A-Za-z0-9_-]*`.
pub(super) fn is_ident(s: &str) -> bool {
    s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'))
}

/// True for a word the lexer reads as something other than a name.
fn reserved(s: &str) -> bool {
    KEYWORDS.contains(&s) || matches!(s, "true" | "false" | "none")
}

/// True for text a quoted name may hold: letters, digits, `_`, `-`, `.`.
pub(super) fn is_quotable_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// A declaration's name (`variable NAME: …`): bare, or quoted.
pub(super) fn decl_name(s: &str, at: Pos) -> Result<String, Refused> {
    if is_ident(s) && !reserved(s) {
        return Ok(s.to_string());
    }
    if is_quotable_name(s) {
        return Ok(format!("\"{s}\""));
    }
    Err(refused(
        at,
        format!("the name {s:?} cannot be written in .bp (a name holds letters, digits, '_', '-' and '.')"),
    ))
}

/// An object or block key: a name or keyword bare, else a plain string.
pub(super) fn key(s: &str, at: Pos) -> Result<String, Refused> {
    if is_ident(s) && !matches!(s, "true" | "false" | "none") {
        return Ok(s.to_string());
    }
    plain(s, at, "the key")
}

/// A single-line string without interpolation (`version`, a label, a
/// filter's field, a key).
pub(super) fn plain(s: &str, at: Pos, what: &str) -> Result<String, Refused> {
    if s.contains('\n') || s.contains('\r') || s.ends_with('\\') || s.contains("${") {
        return Err(refused(
            at,
            format!(
                "{what} {s:?} cannot be written in .bp: it takes a one-line string without '${{' that does not end with a backslash"
            ),
        ));
    }
    Ok(quote(s))
}

/// `s` in double quotes, `"` escaped as `\"` (the only escape).
pub(super) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    push_escaped(&mut out, s);
    out.push('"');
    out
}

/// `s` with `"` escaped, for the inside of a one-line string.
pub(super) fn push_escaped(out: &mut String, s: &str) {
    for c in s.chars() {
        if c == '"' {
            out.push('\\');
        }
        out.push(c);
    }
}

/// True when a string's text must go in `"""`: it has a line break, or
/// it ends with a backslash (which would escape the closing quote).
pub(super) fn needs_block(s: &str) -> bool {
    s.contains('\n') || s.ends_with('\\')
}

/// Text that no `.bp` string can hold, said why: a carriage return (the
/// lexer reads `\r\n` as `\n`) or `"""` inside a multi-line string.
pub(super) fn unwritable(s: &str, block: bool) -> Option<&'static str> {
    if s.contains('\r') {
        return Some("a carriage return, which .bp strings cannot hold");
    }
    if block && s.contains("\"\"\"") {
        return Some("'\"\"\"' in text that needs a multi-line string");
    }
    None
}

/// A float as `.bp` writes it: digits on both sides of the point.
pub(super) fn float(f: f64, at: Pos) -> Result<String, Refused> {
    if !f.is_finite() {
        return Err(refused(at, format!("the number {f} cannot be written in .bp")));
    }
    let mut s = format!("{f}");
    if !s.contains('.') {
        s.push_str(".0");
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keys_and_strings_are_spelt_so_they_read_back() {
        let at = Pos::default();
        assert_eq!(decl_name("fn", at).unwrap(), "fn");
        assert_eq!(decl_name("data", at).unwrap(), "\"data\"");
        assert_eq!(decl_name("a.b", at).unwrap(), "\"a.b\"");
        assert!(decl_name("a b", at).is_err());
        assert_eq!(key("data", at).unwrap(), "data");
        assert_eq!(key("true", at).unwrap(), "\"true\"");
        assert_eq!(key("a b", at).unwrap(), "\"a b\"");
        assert_eq!(quote(r#"say "hi"\n"#), r#""say \"hi\"\n""#);
        assert_eq!(float(2.0, at).unwrap(), "2.0");
        assert_eq!(float(1e21, at).unwrap(), "1000000000000000000000.0");
        assert!(needs_block("C:\\") && needs_block("a\nb") && !needs_block("a\\b"));
    }
}
