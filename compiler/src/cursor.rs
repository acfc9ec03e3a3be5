//! Where a parser is in its token list, and errors that point into the
//! source: the part of parsing both dialects share.

use crate::ast::Span;
use crate::token::Token;
use bpvm_runtime::limits::EXPRESSION_DEPTH;
use bpvm_runtime::{Diagnostic, excerpt};

/// A parse result. The error is boxed: a parser's functions return
/// results all the way up a deeply nested expression, and a small result
/// keeps each level's stack frame small.
pub type Parsed<T> = Result<T, Box<Diagnostic>>;

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
    /// How many levels of nesting enclose the current position.
    depth: u32,
}

impl<'s, T: Copy + PartialEq> Cursor<'s, T> {
    /// A cursor at the first of `toks`.
    pub fn new(src: &'s str, toks: Vec<Token<T>>, end: usize) -> Cursor<'s, T> {
        Cursor {
            src,
            toks,
            pos: 0,
            end: end as u32,
            depth: 0,
        }
    }

    /// Goes one level deeper into the expression, `what` the dialect's
    /// word for it: past [`EXPRESSION_DEPTH`] levels an error at the next
    /// token. The tree the parser builds is then no deeper than that, and
    /// neither is any pass that recurses over it. Each `enter` that
    /// succeeds is matched by a [`Cursor::leave`].
    pub fn enter(&mut self, what: &str) -> Parsed<()> {
        if self.depth >= EXPRESSION_DEPTH {
            let span = self.peek_token().map_or(self.eof_span(), |t| t.span);
            return Err(self.error_at(
                span,
                format!("{what} nested too deeply (more than {EXPRESSION_DEPTH} levels)"),
            ));
        }
        self.depth += 1;
        Ok(())
    }

    /// Comes back out of a level [`Cursor::enter`] went into.
    pub fn leave(&mut self) {
        self.depth -= 1;
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

    /// A token as messages name it: `'+'`, `character '@'`, `unterminated
    /// string` (a long token shortened).
    pub fn describe(&self, t: Token<T>) -> String {
        let text = excerpt::clip(self.text(t));
        match t.tok {
            None if text.starts_with(['"', '\'', '`']) => "unterminated string".into(),
            None => format!("character '{text}'"),
            Some(_) => format!("'{text}'"),
        }
    }

    /// The empty span at the end of the parsed text.
    pub fn eof_span(&self) -> Span {
        (self.end, self.end)
    }

    /// An error at `span`.
    pub fn error_at(&self, span: Span, message: String) -> Box<Diagnostic> {
        Box::new(Diagnostic::new(message, self.src, span.0 as usize, span.1 as usize))
    }

    /// The float literal `text` (at `span`; `digits` is it without digit
    /// separators), which must be a finite number (D7).
    pub fn float(&self, span: Span, text: &str, digits: &str) -> Result<f64, Box<Diagnostic>> {
        match digits.parse::<f64>() {
            Ok(f) if f.is_finite() => Ok(f),
            Ok(_) => Err(self.error_at(
                span,
                format!("number {} is too large for a 64-bit float", excerpt::clip(text)),
            )),
            Err(_) => Err(self.error_at(span, format!("invalid number {}", excerpt::clip(text)))),
        }
    }
}
