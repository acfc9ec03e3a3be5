//! The parser's view of the tokens: comments dropped, line ends skipped
//! inside `(…)` and `[…]` and significant elsewhere (they end an entry).

use super::token::{Token, TokenKind};
use crate::error::Pos;
use crate::node::ReadError;
use bpvm_runtime::limits::VALUE_DEPTH;

/// A result of the parser.
pub(super) type Parsed<T> = Result<T, ReadError>;

/// An error at `at`.
pub(super) fn fail<T>(at: Pos, message: impl Into<String>) -> Parsed<T> {
    Err(ReadError {
        at,
        message: message.into(),
    })
}

/// The tokens being read, and where.
pub(super) struct Cursor {
    toks: Vec<Token>,
    pos: usize,
    /// How many `(` and `[` are open.
    grouping: usize,
    /// How deeply blocks and expressions are nested.
    depth: usize,
    /// Where the last token taken starts.
    last: Pos,
}

impl Cursor {
    pub(super) fn new(mut toks: Vec<Token>) -> Cursor {
        toks.retain(|t| t.kind != TokenKind::Comment);
        Cursor {
            toks,
            pos: 0,
            grouping: 0,
            depth: 0,
            last: Pos::default(),
        }
    }

    fn skip_grouped_newlines(&mut self) {
        if self.grouping > 0 {
            self.skip_newlines();
        }
    }

    /// Skips line ends, wherever the cursor is.
    pub(super) fn skip_newlines(&mut self) {
        while self.toks[self.pos].kind == TokenKind::Newline {
            self.pos += 1;
        }
    }

    /// The next token (the last is always `Eof`).
    pub(super) fn peek(&mut self) -> &Token {
        self.skip_grouped_newlines();
        &self.toks[self.pos]
    }

    pub(super) fn kind(&mut self) -> TokenKind {
        self.peek().kind
    }

    /// The kind of the token `n` after the next.
    pub(super) fn kind_at(&mut self, n: usize) -> TokenKind {
        self.skip_grouped_newlines();
        self.toks[(self.pos + n).min(self.toks.len() - 1)].kind
    }

    pub(super) fn advance(&mut self) -> Token {
        self.skip_grouped_newlines();
        // A token taken is never read again (the cursor only moves on):
        // its text is moved out rather than copied. `Eof` stays.
        let t = if self.toks[self.pos].kind == TokenKind::Eof {
            self.toks[self.pos].clone()
        } else {
            let t = &mut self.toks[self.pos];
            let text = std::mem::take(&mut t.text);
            self.pos += 1;
            Token { text, ..*t }
        };
        self.last = t.start;
        match t.kind {
            TokenKind::LParen | TokenKind::LBracket => self.grouping += 1,
            TokenKind::RParen | TokenKind::RBracket => self.grouping = self.grouping.saturating_sub(1),
            _ => {}
        }
        t
    }

    /// Where the cursor is among the tokens.
    pub(super) fn index(&self) -> usize {
        self.pos
    }

    /// The index of the `}` that closes the interpolation the next token
    /// opens (or of the end of the file).
    pub(super) fn interpolation_end(&self) -> usize {
        let (open, close) = (TokenKind::InterpolationStart, TokenKind::InterpolationEnd);
        super::token::closing(&self.toks, self.pos, open, close).unwrap_or(self.toks.len() - 1)
    }

    /// The tokens from index `from` up to `to`.
    pub(super) fn tokens(&self, from: usize, to: usize) -> &[Token] {
        &self.toks[from.min(to)..to.min(self.toks.len())]
    }

    /// Where the last token taken starts.
    pub(super) fn last(&self) -> Pos {
        self.last
    }

    /// Takes the next token when it is `kind`.
    pub(super) fn eat(&mut self, kind: TokenKind) -> Option<Token> {
        (self.kind() == kind).then(|| self.advance())
    }

    /// The next token, which must be `kind` (`what` names it).
    pub(super) fn expect(&mut self, kind: TokenKind, what: &str) -> Parsed<Token> {
        match self.eat(kind) {
            Some(t) => Ok(t),
            None => self.unexpected(what),
        }
    }

    /// An error at the next token: `what` was expected there.
    pub(super) fn unexpected<T>(&mut self, what: &str) -> Parsed<T> {
        let t = self.peek();
        fail(t.start, format!("expected {what}, found {}", t.kind.describe()))
    }

    /// Takes any commas and line ends; true when there was one.
    pub(super) fn separators(&mut self) -> bool {
        let mut any = false;
        while matches!(self.kind(), TokenKind::Comma | TokenKind::Newline) {
            self.advance();
            any = true;
        }
        any
    }

    /// A binary operator `wanted` accepts, on this line or at the start
    /// of a later one (an expression goes on across line ends before and
    /// after a binary operator).
    pub(super) fn operator(&mut self, wanted: impl Fn(TokenKind) -> bool) -> Option<Token> {
        let mut k = self.pos;
        while self.toks[k].kind == TokenKind::Newline {
            k += 1;
        }
        if !wanted(self.toks[k].kind) {
            return None;
        }
        self.pos = k;
        let op = self.advance();
        self.skip_newlines();
        Some(op)
    }

    /// One level deeper, refused past the document depth limit.
    pub(super) fn enter(&mut self, at: Pos) -> Parsed<()> {
        self.depth += 1;
        if self.depth > VALUE_DEPTH {
            return fail(
                at,
                format!("the document is nested too deeply (more than {VALUE_DEPTH} levels)"),
            );
        }
        Ok(())
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
    }
}
