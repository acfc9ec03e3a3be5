//! Where a parser is in its token list, and errors that point into the
//! source: the part of parsing both dialects share.

use crate::ast::Span;
use crate::token::Token;
use bpvm_runtime::Diagnostic;

/// A position in the tokens of `src[..end]`.
pub struct Cursor<'s, T> {
    /// The whole source (spans are in its coordinates).
    pub src: &'s str,
    /// The tokens being parsed.
    pub toks: Vec<Token<T>>,
    /// The next token's index.
    pub pos: usize,
    /// Where the parsed text ends.
    pub end: u32,
}

impl<'s, T: Copy + PartialEq> Cursor<'s, T> {
    /// A cursor at the first of `toks`.
    pub fn new(src: &'s str, toks: Vec<Token<T>>, end: usize) -> Cursor<'s, T> {
        Cursor {
            src,
            toks,
            pos: 0,
            end: end as u32,
        }
    }

    /// The next token.
    pub fn peek_token(&self) -> Option<Token<T>> {
        self.toks.get(self.pos).copied()
    }

    /// The next token's kind (`None` also for text that is not a token).
    pub fn peek(&self) -> Option<T> {
        self.peek_at(0)
    }

    /// The kind of the token `n` after the next.
    pub fn peek_at(&self, n: usize) -> Option<T> {
        self.toks.get(self.pos + n).and_then(|t| t.tok)
    }

    /// Takes the next token.
    pub fn next(&mut self) -> Option<Token<T>> {
        let t = self.peek_token();
        self.pos += 1;
        t
    }

    /// Takes the next token if it is `tok`.
    pub fn eat(&mut self, tok: T) -> Option<Token<T>> {
        let t = self.peek_token().filter(|t| t.tok == Some(tok))?;
        self.pos += 1;
        Some(t)
    }

    /// A token's text.
    pub fn text(&self, t: Token<T>) -> &'s str {
        &self.src[t.span.0 as usize..t.span.1 as usize]
    }

    /// A token as messages name it: `'+'`, `character '@'`, `unterminated string`.
    pub fn describe(&self, t: Token<T>) -> String {
        let text = self.text(t);
        match t.tok {
            None if text.starts_with('"') || text.starts_with('\'') => "unterminated string".into(),
            None => format!("character '{text}'"),
            Some(_) => format!("'{text}'"),
        }
    }

    /// The empty span at the end of the parsed text.
    pub fn eof_span(&self) -> Span {
        (self.end, self.end)
    }

    /// An error at `span`.
    pub fn error_at(&self, span: Span, message: String) -> Diagnostic {
        Diagnostic::new(message, self.src, span.0 as usize, span.1 as usize)
    }
}
