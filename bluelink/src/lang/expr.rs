//! Expressions: operators by precedence (`||`, `&&`, `==`/`!=`, `<` `<=`
//! `>` `>=`, `!`), then literals, strings, arrays, objects, groups,
//! references and calls.

use super::ast::{Expr, ExprKind, Field, Part, Text};
use super::cursor::{Cursor, Parsed, fail};
use super::token::TokenKind as T;

/// A binary operator's precedence, loosest first: `||`, `&&`, `==` and
/// `!=`, then `<` `<=` `>` `>=`.
fn level(kind: T) -> Option<usize> {
    match kind {
        T::Or => Some(0),
        T::And => Some(1),
        T::Eq | T::Neq => Some(2),
        T::Lt | T::Le | T::Gt | T::Ge => Some(3),
        _ => None,
    }
}

impl Cursor {
    /// An expression (each nested one a level deeper: arrays and objects
    /// nest through their items' expressions).
    pub(super) fn expr(&mut self) -> Parsed<Expr> {
        let at = self.peek().start;
        self.enter(at)?;
        let e = self.binary(0);
        self.leave();
        e
    }

    /// The operators of precedence `min` and above, left-associative
    /// (precedence climbing: an operand without an operator after it, most
    /// of them, is read without going through a call per level).
    fn binary(&mut self, min: usize) -> Parsed<Expr> {
        let mut left = self.unary()?;
        // Each operator nests the expression one level deeper.
        let mut nested = 0;
        while let Some(op) = self.operator(|kind| level(kind).is_some_and(|l| l >= min)) {
            self.enter(op.start)?;
            nested += 1;
            let right = self.binary(level(op.kind).unwrap_or(0) + 1)?;
            let at = left.at;
            let call = |name, args| Expr {
                at,
                kind: ExprKind::Op(name, args),
            };
            left = match op.kind {
                T::Or => call("or", vec![left, right]),
                T::And => call("and", vec![left, right]),
                T::Eq => call("eq", vec![left, right]),
                T::Neq => call("not", vec![call("eq", vec![left, right])]),
                T::Lt => call("lt", vec![left, right]),
                T::Le => call("le", vec![left, right]),
                T::Gt => call("gt", vec![left, right]),
                _ => call("ge", vec![left, right]),
            };
        }
        for _ in 0..nested {
            self.leave();
        }
        Ok(left)
    }

    fn unary(&mut self) -> Parsed<Expr> {
        match self.eat(T::Not) {
            Some(not) => {
                let operand = self.primary()?;
                Ok(Expr {
                    at: not.start,
                    kind: ExprKind::Op("not", vec![operand]),
                })
            }
            None => self.primary(),
        }
    }

    fn primary(&mut self) -> Parsed<Expr> {
        match self.kind() {
            T::Int | T::Float | T::Bool => self.scalar(),
            T::StringStart => self.string_expr(),
            T::None => {
                let t = self.advance();
                Ok(Expr {
                    at: t.start,
                    kind: ExprKind::None,
                })
            }
            T::LBracket => {
                let at = self.peek().start;
                let items = self.array(Cursor::expr)?;
                Ok(Expr {
                    at,
                    kind: ExprKind::List(items),
                })
            }
            T::LBrace => self.object(),
            T::LParen => {
                self.advance();
                let inner = self.expr()?;
                self.expect(T::RParen, "')'")?;
                Ok(inner)
            }
            _ => self.reference_or_call(),
        }
    }

    /// An integer, float or boolean literal.
    pub(super) fn scalar(&mut self) -> Parsed<Expr> {
        let t = self.advance();
        let kind = match t.kind {
            T::Int => match t.text.parse::<i64>() {
                Ok(i) => ExprKind::Int(i),
                Err(_) => return fail(t.start, format!("the integer {} does not fit in 64 bits", t.text)),
            },
            T::Float => match t.text.parse::<f64>() {
                Ok(f) if f.is_finite() => ExprKind::Float(f, t.text),
                _ => return fail(t.start, format!("the float {} is out of range", t.text)),
            },
            _ => ExprKind::Bool(t.text == "true"),
        };
        Ok(Expr { at: t.start, kind })
    }

    /// `[ item, … ]`: commas (and line ends) between the items, any number.
    pub(super) fn array<I>(&mut self, mut item: impl FnMut(&mut Cursor) -> Parsed<I>) -> Parsed<Vec<I>> {
        self.expect(T::LBracket, "'['")?;
        let mut items = Vec::new();
        self.separators();
        while !matches!(self.kind(), T::RBracket | T::Eof) {
            items.push(item(self)?);
            if !self.separators() {
                break;
            }
        }
        self.expect(T::RBracket, "']'")?;
        Ok(items)
    }

    /// `{ key = value … }`: a block of entries (see [`Cursor::block`]).
    fn object(&mut self) -> Parsed<Expr> {
        let at = self.peek().start;
        let mut fields = Vec::new();
        self.block(|c| {
            let (key, key_at) = c.object_key()?;
            c.expect(T::Assign, "'='")?;
            let value = c.expr()?;
            fields.push(Field { key, key_at, value });
            Ok(())
        })?;
        Ok(Expr {
            at,
            kind: ExprKind::Object(fields),
        })
    }

    /// `{ entry … }`: entries separated by commas or line ends, the `{` on
    /// the line of what it belongs to.
    pub(super) fn block(&mut self, mut entry: impl FnMut(&mut Cursor) -> Parsed<()>) -> Parsed<()> {
        self.expect(T::LBrace, "'{'")?;
        self.separators();
        while !matches!(self.kind(), T::RBrace | T::Eof) {
            entry(self)?;
            if !self.separators() {
                break;
            }
        }
        self.expect(T::RBrace, "'}'")?;
        Ok(())
    }

    /// A string: plain, or with interpolations.
    pub(super) fn string_expr(&mut self) -> Parsed<Expr> {
        let start = self.expect(T::StringStart, "a string")?;
        let mut parts: Vec<Part> = Vec::with_capacity(4);
        let mut subs = Vec::new();
        loop {
            match self.kind() {
                T::Text | T::MultilineText => {
                    let text = self.advance().text;
                    match parts.last_mut() {
                        Some(Part::Text(t)) => t.push_str(&text),
                        _ => parts.push(Part::Text(text)),
                    }
                }
                T::InterpolationStart => {
                    let close = self.interpolation_end();
                    self.advance();
                    // Parsing takes the tokens' text: an interpolation over
                    // several lines (rare) keeps a copy for its layout.
                    let toks = self.tokens(self.index(), close);
                    let lines = toks
                        .first()
                        .zip(toks.last())
                        .is_some_and(|(a, b)| a.start.line != b.start.line);
                    let saved = lines.then(|| toks.to_vec());
                    let e = self.expr()?;
                    subs.push((parts.len(), saved));
                    self.expect(T::InterpolationEnd, "'}' to close the interpolation")?;
                    parts.push(Part::Sub(e, None));
                }
                T::StringEnd => break,
                _ => return self.unexpected("the end of the string"),
            }
        }
        let end = self.advance();
        // A multi-line string's lines lose the closing `"""`'s indentation.
        let strip = if start.text == "\"\"\"" { end.start.col - 1 } else { 0 };
        for (k, saved) in subs {
            if let (Some(Part::Sub(_, kept)), Some(toks)) = (parts.get_mut(k), saved) {
                *kept = super::layout::of_tokens(&toks, strip);
            }
        }
        let kind = match parts.as_slice() {
            [] => ExprKind::Str(Text::default()),
            [Part::Text(t)] => ExprKind::Str(t.clone()),
            _ => ExprKind::Interpolated(parts),
        };
        Ok(Expr { at: start.start, kind })
    }
}
