//! Host strings with `${…}` parts: split once into text and expressions,
//! compiled into one program.
//!
//! A host string that is exactly one `${…}` (whitespace around allowed)
//! keeps the expression's type; otherwise each result becomes text by the
//! dialect's rule and the parts are concatenated. `$${` is a literal `${`
//! (D2); nothing else is an escape.

use crate::ast::Span;
use bpvm_runtime::Diagnostic;

/// One piece of a host string.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// Literal text (with `$${` already turned into `${`).
    Text(String),
    /// The byte range of an expression between `${` and `}`.
    Expr(Span),
}

/// Splits a host string. An unclosed `${` or an empty `${}` is an error.
///
/// ```
/// use bpvm_compiler::template::{split, Part};
/// let parts = split("a-${x ?? '}'}-$${y}").unwrap();
/// assert_eq!(parts, [Part::Text("a-".into()), Part::Expr((4, 12)), Part::Text("-${y}".into())]);
/// ```
pub fn split(src: &str) -> Result<Vec<Part>, Diagnostic> {
    let bytes = src.as_bytes();
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    let mut lit_start = 0;
    while i < bytes.len() {
        if bytes[i] == b'$' && bytes.get(i + 1) == Some(&b'$') && bytes.get(i + 2) == Some(&b'{') {
            text.push_str(&src[lit_start..i]);
            text.push_str("${");
            i += 3;
            lit_start = i;
            continue;
        }
        if bytes[i] == b'$' && bytes.get(i + 1) == Some(&b'{') {
            text.push_str(&src[lit_start..i]);
            let end = match closing_brace(bytes, i + 2) {
                Some(end) => end,
                None => return Err(Diagnostic::new("unclosed '${': no matching '}'", src, i, i + 2)),
            };
            if src[i + 2..end].trim().is_empty() {
                return Err(Diagnostic::new("empty expression in '${}'", src, i, end + 1));
            }
            if !text.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut text)));
            }
            parts.push(Part::Expr(((i + 2) as u32, end as u32)));
            i = end + 1;
            lit_start = i;
            continue;
        }
        i += 1;
    }
    text.push_str(&src[lit_start..]);
    if !text.is_empty() || parts.is_empty() {
        parts.push(Part::Text(text));
    }
    Ok(parts)
}

/// The index of the `}` that closes an expression starting at `from`,
/// skipping quoted text and nested braces.
fn closing_brace(bytes: &[u8], from: usize) -> Option<usize> {
    let mut depth = 1;
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            q @ (b'"' | b'\'') => {
                i += 1;
                while i < bytes.len() && bytes[i] != q {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The expression's span when the host string is exactly one `${…}`
/// with only whitespace around it.
pub fn whole(parts: &[Part]) -> Option<Span> {
    let mut found = None;
    for p in parts {
        match p {
            Part::Text(t) if t.trim().is_empty() => {}
            Part::Expr(span) if found.is_none() => found = Some(*span),
            _ => return None,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn braces_in_strings_and_maps_do_not_close() {
        let parts = split(r#"${x ?? {}}${foo ?? "}"}"#).unwrap();
        assert_eq!(parts, [Part::Expr((2, 9)), Part::Expr((12, 22))]);
    }

    #[test]
    fn unclosed_and_empty_are_errors() {
        let e = split("ab ${x").unwrap_err();
        assert_eq!(
            (e.line_col(), e.message.as_str()),
            ((1, 4), "unclosed '${': no matching '}'")
        );
        assert_eq!(split("${ }").unwrap_err().message, "empty expression in '${}'");
    }

    #[test]
    fn whole_value_allows_surrounding_whitespace() {
        assert_eq!(whole(&split("  ${x}\n").unwrap()), Some((4, 5)));
        assert_eq!(whole(&split("a${x}").unwrap()), None);
        assert_eq!(whole(&split("${x}${y}").unwrap()), None);
    }
}
