//! The layout of a substitution written over several lines. An
//! interpolation whose `.bp` text already is bpvm's substitution text
//! (only its line breaks and spaces differ) is lowered to that text as
//! written, so that a YAML blueprint's multi-line `${…}` goes to `.bp`
//! and back unchanged: a value known only at deploy time is output as
//! its text.

use super::token::{Token, TokenKind as T};

/// The text of an interpolation's tokens over the lines they are on, each
/// later line losing up to `strip` columns of indentation (a multi-line
/// string's own). `None` when they are on one line, or when one is a
/// string (whose token text is not what was written).
pub(super) fn of_tokens(toks: &[Token], strip: u32) -> Option<String> {
    let toks: Vec<&Token> = toks.iter().filter(|t| t.kind != T::Newline).collect();
    let first = toks.first()?;
    if toks.iter().all(|t| t.start.line == first.start.line) {
        return None;
    }
    let mut out = String::new();
    let mut prev: Option<&Token> = None;
    for t in toks {
        if matches!(
            t.kind,
            T::StringStart | T::Text | T::MultilineText | T::StringEnd | T::InterpolationStart | T::InterpolationEnd
        ) {
            return None;
        }
        if let Some(p) = prev {
            if t.start.line > p.end.line {
                out.push_str(&"\n".repeat((t.start.line - p.end.line) as usize));
                let indent = t.start.col.saturating_sub(1).saturating_sub(strip);
                out.push_str(&" ".repeat(indent as usize));
            } else {
                out.push_str(&" ".repeat(t.start.col.saturating_sub(p.end.col) as usize));
            }
        }
        out.push_str(t.kind.spelling().filter(|_| t.text.is_empty()).unwrap_or(&t.text));
        prev = Some(t);
    }
    Some(out)
}

/// True when `written` is `canonical` (substitution text as the lowering
/// writes it) with only spaces and line breaks changed, each where
/// bpvm's substitution parser skips them: after `(`, `,` or `=`, or
/// before `)` or `=`.
pub(super) fn same_tokens(canonical: &str, written: &str) -> bool {
    let squeeze = |s: &str| s.chars().filter(|c| !c.is_whitespace()).collect::<String>();
    if squeeze(canonical) != squeeze(written) {
        return false;
    }
    let chars: Vec<char> = written.chars().collect();
    let mut k = 0;
    while k < chars.len() {
        if !chars[k].is_whitespace() {
            k += 1;
            continue;
        }
        let start = k;
        while k < chars.len() && chars[k].is_whitespace() {
            k += 1;
        }
        let before = start.checked_sub(1).map(|p| chars[p]);
        let after = chars.get(k).copied();
        if !(matches!(before, Some('(' | ',' | '=')) || matches!(after, Some(')' | '='))) {
            return false;
        }
    }
    true
}

/// Where in `written` the character at byte `at` of `canonical` is
/// (`same_tokens` holds, and `at` is not a space).
pub(super) fn moved(canonical: &str, written: &str, at: usize) -> usize {
    let n = canonical[..at].chars().filter(|c| !c.is_whitespace()).count();
    written
        .char_indices()
        .filter(|(_, c)| !c.is_whitespace())
        .nth(n)
        .map_or(written.len(), |(k, _)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_spaces_where_the_parser_skips_them_keep_the_layout() {
        assert!(same_tokens("list(a.b, c)", "list(\n  a.b,\n  c\n)"));
        assert!(same_tokens("object(k = 1)", "object(k=1)"));
        assert!(!same_tokens("list(a.b, c)", "list(a .b, c)"));
        assert!(!same_tokens("list(resources.a)", "list(\n  a\n)"));
        assert_eq!(moved("list(a, c)", "list(\n  a,\n  c\n)", 8), 13);
    }
}
