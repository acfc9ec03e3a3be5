//! Tokens of the Windsor (expr-lang) dialect.

use logos::Logos;

/// One token.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
#[logos(skip r"[ \t\r\n\f]+")]
// A line comment ends at the newline, so reading to it is meant.
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
#[logos(skip r"/\*([^*]|\*+[^*/])*\*+/")]
pub enum Tok {
    /// An integer literal; with a `.` and no digits after it (`1.`,
    /// `1.e3`), a float.
    #[regex(r"[0-9][0-9_]*", bare_point)]
    Int,
    /// An integer in hex (`0x`), octal (`0o`) or binary (`0b`).
    #[regex(r"0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+")]
    Radix,
    /// A float literal.
    #[regex(
        r"[0-9][0-9_]*\.[0-9][0-9_]*([eE][+-]?[0-9][0-9_]*)?|[0-9][0-9_]*[eE][+-]?[0-9][0-9_]*|\.[0-9][0-9_]*([eE][+-]?[0-9][0-9_]*)?"
    )]
    Float,
    /// A quoted string, single or double quotes, with escapes.
    #[regex(r#""([^"\\]|\\(.|\n))*""#)]
    #[regex(r"'([^'\\]|\\(.|\n))*'")]
    Str,
    /// A bytes literal: a quoted string after `b` or `B`.
    #[regex(r#"[bB]"([^"\\]|\\(.|\n))*""#)]
    #[regex(r"[bB]'([^'\\]|\\(.|\n))*'")]
    Bytes,
    /// A raw string between backticks: no escapes but `` for a backtick.
    #[regex(r"`([^`]|``)*`")]
    RawStr,
    /// A `/*` comment that is never closed.
    #[regex(r"/\*([^*]|\*+[^*/])*\**")]
    OpenComment,
    /// A name.
    #[regex(r"[A-Za-z_$][A-Za-z0-9_$]*")]
    Ident,
    /// `#`
    #[token("#")]
    Hash,
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
    /// `{`
    #[token("{")]
    LBrace,
    /// `}`
    #[token("}")]
    RBrace,
    /// `,`
    #[token(",")]
    Comma,
    /// `:`
    #[token(":")]
    Colon,
    /// `::`, before the name of a builtin called as such.
    #[token("::")]
    ColonColon,
    /// `;`
    #[token(";")]
    Semi,
    /// `.`
    #[token(".")]
    Dot,
    /// `?.`
    #[token("?.")]
    QDot,
    /// `?`
    #[token("?")]
    Question,
    /// `??`
    #[token("??")]
    QQ,
    /// `+`
    #[token("+")]
    Plus,
    /// `-`
    #[token("-")]
    Minus,
    /// `*`
    #[token("*")]
    Star,
    /// `**`
    #[token("**")]
    StarStar,
    /// `^`
    #[token("^")]
    Caret,
    /// `/`
    #[token("/")]
    Slash,
    /// `%`
    #[token("%")]
    Percent,
    /// `==`
    #[token("==")]
    EqEq,
    /// `!=`
    #[token("!=")]
    Ne,
    /// `<`
    #[token("<")]
    Lt,
    /// `<=`
    #[token("<=")]
    Le,
    /// `>`
    #[token(">")]
    Gt,
    /// `>=`
    #[token(">=")]
    Ge,
    /// `&&`
    #[token("&&")]
    AndAnd,
    /// `||`
    #[token("||")]
    OrOr,
    /// `!`
    #[token("!")]
    Bang,
    /// `=`
    #[token("=")]
    Assign,
    /// `..`
    #[token("..")]
    DotDot,
    /// `|`
    #[token("|")]
    Pipe,
}

/// After an integer: takes a `.` that is not `..` and has no digit after
/// it, and an exponent after that, making the token a float.
fn bare_point(lex: &mut logos::Lexer<Tok>) {
    let rest = lex.remainder().as_bytes();
    if rest.first() != Some(&b'.') || rest.get(1) == Some(&b'.') {
        return;
    }
    let mut len = 1;
    if matches!(rest.get(1), Some(b'e' | b'E')) {
        let sign = usize::from(matches!(rest.get(2), Some(b'+' | b'-')));
        let exponent = &rest[2 + sign..];
        let digits = exponent
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b'_')
            .count();
        if exponent.first().is_some_and(u8::is_ascii_digit) {
            len += 1 + sign + digits;
        }
    }
    lex.bump(len);
}

/// The text of a raw string literal (`` `…` ``).
pub fn raw(lit: &str) -> crate::ast::Name {
    crate::ast::Name::from(lit[1..lit.len() - 1].replace("``", "`"))
}

/// A token of this dialect with its span.
pub type Token = crate::token::Token<Tok>;

/// Splits `src[start..end]` into tokens, with spans in `src`'s coordinates.
pub fn tokens(src: &str, start: usize, end: usize) -> Vec<Token> {
    crate::token::tokens(src, start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexes_operators_longest_first() {
        let toks: Vec<_> = tokens("a?.b ?? c ** 2", 0, 14)
            .into_iter()
            .map(|t| t.tok.unwrap())
            .collect();
        assert_eq!(
            toks,
            [
                Tok::Ident,
                Tok::QDot,
                Tok::Ident,
                Tok::QQ,
                Tok::Ident,
                Tok::StarStar,
                Tok::Int
            ]
        );
    }
}
