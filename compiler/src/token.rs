//! What both lexers produce: a token (or `None` for text that is not one)
//! with its byte span in the whole source.

use crate::ast::Span;
use logos::Logos;

/// A token of kind `T` and where it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Token<T> {
    /// The token, or `None` for text that is not a token.
    pub tok: Option<T>,
    /// Where, in bytes of the whole source.
    pub span: Span,
}

/// Splits `src[start..end]` into tokens, with spans in `src`'s coordinates.
pub fn tokens<'s, T>(src: &'s str, start: usize, end: usize) -> Vec<Token<T>>
where
    T: Logos<'s, Source = str>,
    T::Extras: Default,
{
    let mut lex = T::lexer(&src[start..end]);
    // About one token per four bytes of source: grown a few times
    // otherwise, which was a tenth of compiling a short `when`.
    let mut out = Vec::with_capacity((end - start) / 4 + 2);
    while let Some(t) = lex.next() {
        let r = lex.span();
        out.push(Token {
            tok: t.ok(),
            span: ((start + r.start) as u32, (start + r.end) as u32),
        });
    }
    out
}
