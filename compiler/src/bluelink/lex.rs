//! Tokens of the Bluelink `${..}` substitution language (seed 002,
//! "Substitution Grammar").

use logos::Logos;

/// One token.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
pub enum Tok {
    /// A float literal.
    #[regex(r"-?[0-9]+\.[0-9]+")]
    Float,
    /// An integer literal.
    #[regex(r"-?[0-9]+")]
    Int,
    /// A quoted string, single or double quotes, with escapes.
    #[regex(r#""([^"\\]|\\(.|\n))*""#)]
    #[regex(r"'([^'\\]|\\(.|\n))*'")]
    Str,
    /// A name.
    #[regex(r"[A-Za-z_][A-Za-z0-9_-]*")]
    Ident,
    /// `(`
    #[token("(")]
    LParen,
    /// `)`
    #[token(")")]
    RParen,
    /// `[`
    #[token("[")]
    LBracket,
    /// `]`
    #[token("]")]
    RBracket,
    /// `,`
    #[token(",")]
    Comma,
    /// `.`
    #[token(".")]
    Dot,
    /// `=`
    #[token("=")]
    Assign,
}

/// A token of this dialect with its span.
pub type Token = crate::token::Token<Tok>;

/// Splits `src[start..end]` into tokens, with spans in `src`'s coordinates.
pub fn tokens(src: &str, start: usize, end: usize) -> Vec<Token> {
    crate::token::tokens(src, start, end)
}

/// The text of a string literal: only the quote itself can be escaped;
/// every other backslash stays as written (seed 002 grammar).
pub fn unquote(lit: &str) -> crate::ast::Name {
    let quote = lit.chars().next().unwrap_or('"');
    let mut out = crate::ast::Name::with_capacity(lit.len());
    let mut chars = lit[1..lit.len() - 1].chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&quote) {
            continue;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_not_prefixes() {
        let toks: Vec<_> = tokens("variables.trueish", 0, 17)
            .into_iter()
            .map(|t| t.tok.unwrap())
            .collect();
        assert_eq!(toks, [Tok::Ident, Tok::Dot, Tok::Ident]);
    }

    #[test]
    fn only_the_quote_is_escaped() {
        assert_eq!(unquote(r#""a\"b\nc""#), r#"a"b\nc"#);
    }
}
