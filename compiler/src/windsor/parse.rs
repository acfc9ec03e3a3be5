//! A precedence-climbing parser for the Windsor (expr-lang) dialect.
//!
//! Binding powers follow expr-lang: `??` binds tightest of the infix
//! operators, then `**`, `* / %`, `+ -`, comparisons, `&&`, `||`; the
//! ternary is lowest. Calls to predicate builtins take their second argument
//! as a closure (`filter(xs, # > 1)` or `filter(xs, {# > 1})`).
//!
//! The functions that recurse (one call per level of nesting) are kept
//! small and leave building messages and leaves to functions that return
//! before parsing goes deeper, so that the deepest expression allowed
//! parses on a small stack even in a debug build.

use super::escape::{unescape, unescape_bytes};
use super::lex::{Tok, Token, raw, tokens};
use super::names;
use crate::ast::{Accessor, Binary, Call, Expr, Kind, Link, Name, Span, Step, Unary, access, predicate};
use crate::cursor::{Cursor, Parsed};
use bpvm_runtime::{Diagnostic, excerpt};
use bpvm_vm::Loop;

/// Parses `src[start..end]` as one complete expression.
pub fn parse(src: &str, start: usize, end: usize) -> Result<Expr, Diagnostic> {
    let toks = tokens(src, start, end);
    let mut p = Parser {
        c: Cursor::new(src, toks, end),
        closures: Vec::new(),
    };
    if let Some(open) = p.c.toks.iter().find(|t| t.tok == Some(Tok::OpenComment)) {
        return Err(*p.c.error_at((open.span.0, open.span.0 + 2), "unclosed comment".into()));
    }
    let e = p.sequence().map_err(|d| *d)?;
    match p.c.peek_token() {
        Some(t) => Err(*p.c.error_at(
            t.span,
            format!("unexpected {} after the end of the expression", p.c.describe(t)),
        )),
        None => Ok(e),
    }
}

struct Parser<'s> {
    c: Cursor<'s, Tok>,
    /// The predicate builtins whose bodies (closures) enclose the current
    /// position, innermost last.
    closures: Vec<&'s str>,
}

/// An infix operator as read.
struct Operator {
    op: Binary,
    bp: u16,
    right_assoc: bool,
    /// `not matches` and the like: the result is negated.
    not: bool,
}

/// The operators read so far at one level of an expression.
struct Level<'a> {
    left: &'a mut Expr,
    links: &'a mut Vec<Link>,
    /// The binding power of the operators in `links`.
    bp: &'a mut u16,
    /// The right operand of the last operator when it was `<`, `<=`, `>`
    /// or `>=`.
    compared: &'a mut Option<Expr>,
}

impl Level<'_> {
    /// Adds `link`, an operator of binding power `bp` and its operand.
    fn add(&mut self, bp: u16, link: Link) {
        let ordering = matches!(link.op, Binary::Lt | Binary::Le | Binary::Gt | Binary::Ge);
        let before = if ordering {
            self.compared.replace(link.rhs.clone())
        } else {
            *self.compared = None;
            None
        };
        if let Some(middle) = before {
            // `a < b < c` is `a < b && b < c`; like expr-lang, `b` is
            // computed for each comparison.
            let whole = self.close();
            let next = chain(middle, vec![link]);
            *self.left = chain(
                whole,
                vec![Link {
                    op: Binary::And,
                    not: false,
                    rhs: next,
                }],
            );
            *self.bp = 0;
            return;
        }
        if bp != *self.bp && !self.links.is_empty() {
            *self.left = self.close();
        }
        *self.bp = bp;
        self.links.push(link);
    }

    /// The left operand and the links so far as one expression, taken.
    fn close(&mut self) -> Expr {
        let left = std::mem::replace(self.left, Expr::new(Kind::Nil, (0, 0)));
        if self.links.is_empty() {
            left
        } else {
            chain(left, std::mem::take(self.links))
        }
    }
}

/// `first` and the operators after it, as one expression.
fn chain(first: Expr, links: Vec<Link>) -> Expr {
    let end = links.last().map_or(first.span.1, |l| l.rhs.span.1);
    let span = (first.span.0, end);
    Expr::new(Kind::Chain(Box::new(first), links), span)
}

/// `a; b; c` as nested nameless lets: every item is computed, the last
/// is the value, and no new instruction is needed.
fn sequence(mut items: Vec<Expr>) -> Expr {
    let mut e = items.pop().unwrap_or_else(|| Expr::new(Kind::Nil, (0, 0)));
    while let Some(item) = items.pop() {
        let span = (item.span.0, e.span.1);
        e = Expr::new(Kind::Let(Name::default(), Box::new(item), Box::new(e)), span);
    }
    e
}

/// `cond ? then : otherwise`.
fn ternary(cond: Expr, then: Expr, otherwise: Expr) -> Expr {
    let span = (cond.span.0, otherwise.span.1);
    Expr::new(Kind::Ternary(Box::new(cond), Box::new(then), Box::new(otherwise)), span)
}

/// `sum(xs, body)` adds up the body's value for every item, as expr-lang
/// compiles it: the sum of `map(xs, body)`.
fn sum_terms(mut args: Vec<Expr>, span: Span) -> Expr {
    let body = args.remove(1);
    Expr::new(Kind::Predicate(Loop::Map, args, Box::new(body)), span)
}

fn infix(tok: Tok, text: &str) -> Option<(Binary, u16, bool)> {
    // (operator, binding power, right-associative)
    Some(match (tok, text) {
        (Tok::OrOr, _) | (Tok::Ident, "or") => (Binary::Or, 10, false),
        (Tok::AndAnd, _) | (Tok::Ident, "and") => (Binary::And, 15, false),
        (Tok::EqEq, _) => (Binary::Eq, 20, false),
        (Tok::Ne, _) => (Binary::Ne, 20, false),
        (Tok::Lt, _) => (Binary::Lt, 20, false),
        (Tok::Le, _) => (Binary::Le, 20, false),
        (Tok::Gt, _) => (Binary::Gt, 20, false),
        (Tok::Ge, _) => (Binary::Ge, 20, false),
        (Tok::Ident, "in") => (Binary::In, 20, false),
        (Tok::Ident, "matches") => (Binary::Matches, 20, false),
        (Tok::Ident, "contains") => (Binary::Contains, 20, false),
        (Tok::Ident, "startsWith") => (Binary::StartsWith, 20, false),
        (Tok::Ident, "endsWith") => (Binary::EndsWith, 20, false),
        (Tok::DotDot, _) => (Binary::Range, 25, false),
        (Tok::Plus, _) => (Binary::Add, 30, false),
        (Tok::Minus, _) => (Binary::Sub, 30, false),
        (Tok::Star, _) => (Binary::Mul, 60, false),
        (Tok::Slash, _) => (Binary::Div, 60, false),
        (Tok::Percent, _) => (Binary::Mod, 60, false),
        (Tok::StarStar, _) | (Tok::Caret, _) => (Binary::Pow, 100, true),
        (Tok::QQ, _) => (Binary::Coalesce, 500, false),
        _ => return None,
    })
}

impl<'s> Parser<'s> {
    fn peek_text(&self) -> &'s str {
        self.c.peek_token().map_or("", |t| self.c.text(t))
    }

    fn unexpected(&self, wanted: &str) -> Box<Diagnostic> {
        match self.c.peek_token() {
            Some(t) if t.tok.is_none() && self.c.describe(t) == "unterminated string" => {
                self.c.error_at((t.span.0, t.span.0 + 1), "unterminated string".into())
            }
            Some(t) => self
                .c
                .error_at(t.span, format!("expected {wanted}, found {}", self.c.describe(t))),
            None => self.c.error_at(
                self.c.eof_span(),
                format!("expected {wanted}, found the end of the expression"),
            ),
        }
    }

    /// An error at the next token (or the end).
    fn error_here(&self, message: &str) -> Box<Diagnostic> {
        let span = self.c.peek_token().map_or(self.c.eof_span(), |t| t.span);
        self.c.error_at(span, message.into())
    }

    fn expect(&mut self, tok: Tok, wanted: &str) -> Parsed<Token> {
        self.c.eat(tok).ok_or_else(|| self.unexpected(wanted))
    }

    fn is_ident(&self, word: &str) -> bool {
        self.c.peek() == Some(Tok::Ident) && self.peek_text() == word
    }

    // ── the recursive part: one call per level of nesting ────────────

    /// expression := `let` binding | binary [ `?` expression `:` expression ]
    fn expr(&mut self, min: u16) -> Parsed<Expr> {
        self.c.enter("expression")?;
        let r = self.expr_inner(min);
        self.c.leave();
        r
    }

    fn expr_inner(&mut self, min: u16) -> Parsed<Expr> {
        if min == 0 && self.is_ident("let") {
            return self.let_binding();
        }
        if min == 0 && self.is_ident("if") {
            return self.if_else();
        }
        // Combinators rather than `?`: their temporaries live in frames
        // that are gone before parsing goes deeper.
        let left = self.unary().and_then(|left| self.infix(left, min));
        if min == 0 {
            left.and_then(|left| self.conditional(left))
        } else {
            left
        }
    }

    /// The infix operators after `left` that bind at least as tightly as
    /// `min`. The operators of one binding power collect in one flat
    /// chain; a lower one (the only kind that can follow, since each right
    /// operand took every higher one) starts a chain around it.
    fn infix(&mut self, mut left: Expr, min: u16) -> Parsed<Expr> {
        let mut links = Vec::new();
        let mut chain_bp = 0;
        // The right operand of `<`, `<=`, `>` or `>=` when that was the
        // last operator: a second one chains (`a < b < c`).
        let mut compared = None;
        // Whether the last operator taken here was `??`: expr-lang refuses
        // another operator after it at the same level (`a ?? b > c`).
        let mut coalesced = false;
        loop {
            // `|` binds loosest of all, so only a whole expression takes
            // it: what is on its left so far becomes the first argument.
            if min == 0 && self.c.peek() == Some(Tok::Pipe) {
                if !links.is_empty() {
                    left = chain(left, std::mem::take(&mut links));
                }
                left = self.pipe(left)?;
                chain_bp = 0;
                compared = None;
                coalesced = false;
                continue;
            }
            let at = self.c.pos;
            let Some(o) = self.operator(min) else { break };
            if coalesced && o.op != Binary::Coalesce {
                return Err(self.mixed_with_coalesce(at));
            }
            coalesced = o.op == Binary::Coalesce;
            let bp = if o.right_assoc { o.bp } else { o.bp + 1 };
            self.expr(bp).map(|rhs| {
                let link = Link {
                    op: o.op,
                    not: o.not,
                    rhs,
                };
                let mut level = Level {
                    left: &mut left,
                    links: &mut links,
                    bp: &mut chain_bp,
                    compared: &mut compared,
                };
                level.add(o.bp, link);
            })?;
        }
        Ok(if links.is_empty() { left } else { chain(left, links) })
    }

    /// `cond ? then : otherwise`, when a `?` follows.
    fn conditional(&mut self, cond: Expr) -> Parsed<Expr> {
        if self.c.eat(Tok::Question).is_none() {
            return Ok(cond);
        }
        if self.c.eat(Tok::Colon).is_some() {
            // `a ?: b` is `a ? a : b`: the condition is also the value.
            let then = cond.clone();
            return self.expr(0).map(|otherwise| ternary(cond, then, otherwise));
        }
        self.expr(0).and_then(|then| self.otherwise(cond, then))
    }

    /// `| name(args)` after `first`: the call `name(first, args)`.
    fn pipe(&mut self, first: Expr) -> Parsed<Expr> {
        self.c.pos += 1;
        if self.c.peek() != Some(Tok::Ident) || self.c.peek_at(1) != Some(Tok::LParen) {
            return Err(self.unexpected("a function call after '|'"));
        }
        let start = first.span.0;
        self.call_with(vec![first]).map(|mut call| {
            call.span.0 = start;
            call
        })
    }

    /// `: otherwise` of a conditional.
    fn otherwise(&mut self, cond: Expr, then: Expr) -> Parsed<Expr> {
        self.expect(Tok::Colon, "':' of the conditional")?;
        self.expr(0).map(|otherwise| ternary(cond, then, otherwise))
    }

    /// `a; b; c`: each evaluated in turn, the last one the result. A `;`
    /// may end the whole text.
    fn sequence(&mut self) -> Parsed<Expr> {
        self.expr(0).and_then(|first| self.sequence_rest(first))
    }

    /// The items of a sequence after its first.
    fn sequence_rest(&mut self, first: Expr) -> Parsed<Expr> {
        if self.c.peek() != Some(Tok::Semi) {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.c.eat(Tok::Semi).is_some() && self.c.peek_token().is_some() {
            self.expr(0).map(|item| items.push(item))?;
        }
        Ok(sequence(items))
    }

    /// `if cond { then } else { otherwise }`, where `otherwise` may be
    /// another `if`.
    fn if_else(&mut self) -> Parsed<Expr> {
        let start = self.c.next().map_or(0, |t| t.span.0);
        self.expr(0).and_then(|cond| self.if_then(start, cond))
    }

    /// `{ then } else …`, after the condition.
    fn if_then(&mut self, start: u32, cond: Expr) -> Parsed<Expr> {
        self.expect(Tok::LBrace, "'{' after the if condition")?;
        self.sequence().and_then(|then| self.if_otherwise(start, cond, then))
    }

    /// `} else { otherwise }` or `} else if …`, after the then branch.
    fn if_otherwise(&mut self, start: u32, cond: Expr, then: Expr) -> Parsed<Expr> {
        self.else_head()?;
        let finish = |otherwise: Expr, end: u32| {
            let mut e = ternary(cond, then, otherwise);
            e.span = (start, end);
            e
        };
        if self.is_ident("if") {
            return self.expr(0).map(|o| {
                let end = o.span.1;
                finish(o, end)
            });
        }
        self.expect(Tok::LBrace, "'{' or 'if' after 'else'")?;
        self.sequence().and_then(|o| {
            self.expect(Tok::RBrace, "'}' to close the block")
                .map(|close| finish(o, close.span.1))
        })
    }

    fn let_binding(&mut self) -> Parsed<Expr> {
        let (start, name) = self.let_head()?;
        self.expr(0).and_then(|value| self.let_body(start, name, value))
    }

    /// `; body` of a `let`.
    fn let_body(&mut self, start: u32, name: Name, value: Expr) -> Parsed<Expr> {
        self.expect(Tok::Semi, "';' after the let value")?;
        self.sequence().map(|body| {
            let span = (start, body.span.1);
            Expr::new(Kind::Let(name, Box::new(value), Box::new(body)), span)
        })
    }

    fn unary(&mut self) -> Parsed<Expr> {
        match self.prefix() {
            Some((op, bp, start)) => self.expr(bp).map(|operand| {
                let span = (start, operand.span.1);
                Expr::new(Kind::Unary(op, Box::new(operand)), span)
            }),
            None => self.primary().and_then(|primary| self.postfix(primary)),
        }
    }

    fn postfix(&mut self, mut base: Expr) -> Parsed<Expr> {
        let mut steps = Vec::new();
        loop {
            match self.c.peek() {
                Some(Tok::Dot) | Some(Tok::QDot) => self.member().map(|step| steps.extend(step))?,
                Some(Tok::LBracket) => {
                    self.c.pos += 1;
                    self.index().map(|step| steps.push(step))?;
                }
                Some(Tok::LParen) => match steps.pop() {
                    Some(Step {
                        op: Accessor::Member(name),
                        ..
                    }) => base = self.method_call(access(base, std::mem::take(&mut steps)), name)?,
                    _ => return Err(self.error_here("only named functions can be called")),
                },
                _ => return Ok(access(base, steps)),
            }
        }
    }

    /// `receiver.name(args…)`, from the `(`: a call of the hidden method
    /// function with the receiver and the name first (time values have
    /// methods, as Go's do).
    fn method_call(&mut self, receiver: Expr, name: Name) -> Parsed<Expr> {
        let name_span = (
            receiver.span.1,
            self.c.peek_token().map_or(receiver.span.1, |t| t.span.0),
        );
        let start = receiver.span.0;
        let mut args = vec![receiver, Expr::new(Kind::Str(name), name_span)];
        self.expect(Tok::LParen, "'('")?;
        while self.c.peek() != Some(Tok::RParen) {
            self.expr(0).and_then(|arg| {
                args.push(arg);
                self.separator(Tok::RParen, "',' or ')' after the argument")
            })?;
        }
        let close = self.expect(Tok::RParen, "')' to close the call")?;
        let call = Call {
            name: bpvm_runtime::time::functions::METHOD.to_string(),
            name_span,
            literal_args: crate::literal_calls::all_literal(&args, &[]),
            args,
            named: Vec::new(),
        };
        Ok(Expr::new(Kind::Call(Box::new(call)), (start, close.span.1)))
    }

    /// `[index]` or `[from:to]`, after the `[`.
    fn index(&mut self) -> Parsed<Step> {
        let from = match self.c.peek() {
            Some(Tok::Colon) => None,
            _ => Some(self.expr(0).map(Box::new)?),
        };
        if self.c.eat(Tok::Colon).is_none() {
            return self.index_end(from);
        }
        let to = match self.c.peek() {
            Some(Tok::RBracket) => None,
            _ => Some(self.expr(0).map(Box::new)?),
        };
        self.slice_end(from, to)
    }

    fn primary(&mut self) -> Parsed<Expr> {
        match self.c.peek() {
            Some(Tok::LParen) => {
                self.c.pos += 1;
                self.sequence()
                    .and_then(|inner| self.expect(Tok::RParen, "')'").map(|_| inner))
            }
            Some(Tok::LBracket) => self.list(),
            Some(Tok::LBrace) => self.map(),
            Some(Tok::Ident) if self.is_call() => self.call(),
            // `::name(…)` calls the builtin even where a function of the
            // host has its name; bpvm's names never clash, so it is a call.
            Some(Tok::ColonColon)
                if self.c.peek_at(1) == Some(Tok::Ident) && self.c.peek_at(2) == Some(Tok::LParen) =>
            {
                let start = self.c.next().map_or(0, |t| t.span.0);
                self.call().map(|mut call| {
                    call.span.0 = start;
                    call
                })
            }
            _ => self.leaf(),
        }
    }

    fn list(&mut self) -> Parsed<Expr> {
        let open = self.c.next().map_or((0, 0), |t| t.span);
        let mut items = Vec::new();
        while self.c.peek() != Some(Tok::RBracket) {
            self.expr(0).and_then(|item| {
                items.push(item);
                self.separator(Tok::RBracket, "',' or ']' in the list")
            })?;
        }
        self.close(Tok::RBracket, "']'", open, Kind::List(items))
    }

    fn map(&mut self) -> Parsed<Expr> {
        let open = self.c.next().map_or((0, 0), |t| t.span);
        let mut entries = Vec::new();
        while self.c.peek() != Some(Tok::RBrace) {
            self.map_key().and_then(|key| self.map_value(key, &mut entries))?;
        }
        self.close(Tok::RBrace, "'}'", open, Kind::Map(entries))
    }

    fn map_key(&mut self) -> Parsed<Expr> {
        match self.c.peek_token() {
            Some(t) if t.tok == Some(Tok::Ident) && names::is_keyword(self.c.text(t)) => {
                let word = self.c.text(t);
                Err(self.c.error_at(
                    t.span,
                    format!("'{word}' is a keyword; quote it to use it as a map key: {{'{word}': …}}"),
                ))
            }
            // A name or a number is the key as written (`{0x10: 1}` has
            // the key "0x10"), as expr-lang's parser makes it.
            Some(t) if matches!(t.tok, Some(Tok::Ident | Tok::Int | Tok::Radix | Tok::Float)) => {
                self.c.pos += 1;
                Ok(Expr::new(Kind::Str(self.c.text(t).into()), t.span))
            }
            Some(t) if matches!(t.tok, Some(Tok::Str | Tok::RawStr | Tok::LParen)) => self.primary(),
            _ => Err(self.unexpected("a map key")),
        }
    }

    /// `: value` of a map entry, and what follows it.
    fn map_value(&mut self, key: Expr, entries: &mut Vec<(Expr, Expr)>) -> Parsed<()> {
        self.expect(Tok::Colon, "':' after the map key")?;
        self.expr(0).and_then(|value| {
            entries.push((key, value));
            self.separator(Tok::RBrace, "',' or '}' in the map")
        })
    }

    fn call(&mut self) -> Parsed<Expr> {
        self.call_with(Vec::new())
    }

    /// `name(…)`, its arguments after `args` (the piped value, if any).
    fn call_with(&mut self, mut args: Vec<Expr>) -> Parsed<Expr> {
        let name = self.c.next().unwrap_or(Token {
            tok: None,
            span: self.c.eof_span(),
        });
        self.expect(Tok::LParen, "'('")?;
        let fname = self.c.text(name);
        let takes_closure = predicate(fname).is_some() || fname == "sum";
        while self.c.peek() != Some(Tok::RParen) {
            let arg = if takes_closure && args.len() == 1 {
                self.closure_body(fname)
            } else {
                self.expr(0)
            };
            arg.and_then(|arg| {
                args.push(arg);
                self.separator(Tok::RParen, "',' or ')' after the argument")
            })?;
        }
        self.expect(Tok::RParen, "')' to close the call")
            .and_then(|close| self.finish_call(name, args, close))
    }

    /// A predicate's body: `{ expr }` or a bare expression.
    fn closure_body(&mut self, builtin: &'s str) -> Parsed<Expr> {
        self.closures.push(builtin);
        let braced = self.c.eat(Tok::LBrace).is_some();
        let body = if braced { self.sequence() } else { self.expr(0) };
        self.closures.pop();
        if braced {
            body.and_then(|body| self.expect(Tok::RBrace, "'}' to close the predicate").map(|_| body))
        } else if body.is_ok() && self.c.peek() == Some(Tok::Semi) {
            Err(self.error_here("a predicate of several expressions must be in braces, like {a; b}"))
        } else {
            body
        }
    }

    // ── the rest: returns before parsing goes deeper ─────────────────

    /// The next infix operator binding at least as tightly as `min`,
    /// taken; `None` (nothing taken) when there is none.
    fn operator(&mut self, min: u16) -> Option<Operator> {
        let t = self.c.peek_token()?;
        let tok = t.tok?;
        let text = self.c.text(t);
        // `not in` / `not matches` …: a negated infix operator.
        if tok == Tok::Ident && text == "not" {
            let next = self.c.toks.get(self.c.pos + 1).copied()?;
            let (op, bp, _) = next.tok.and_then(|n| infix(n, self.c.text(next)))?;
            // Only these take a `not` (expr-lang's AllowedNegateSuffix).
            let negatable = matches!(
                op,
                Binary::In | Binary::Matches | Binary::Contains | Binary::StartsWith | Binary::EndsWith
            );
            if !negatable || bp < min {
                return None;
            }
            self.c.pos += 2;
            let (op, not) = match op {
                Binary::In => (Binary::NotIn, false),
                _ => (op, true),
            };
            return Some(Operator {
                op,
                bp,
                right_assoc: false,
                not,
            });
        }
        let (op, bp, right_assoc) = infix(tok, text)?;
        if bp < min.max(1) {
            return None;
        }
        self.c.pos += 1;
        Some(Operator {
            op,
            bp,
            right_assoc,
            not: false,
        })
    }

    /// A prefix operator, taken: the operator, the binding power of its
    /// operand, and where it starts.
    fn prefix(&mut self) -> Option<(Unary, u16, u32)> {
        let t = self.c.peek_token()?;
        let (op, bp) = match (t.tok, self.c.text(t)) {
            (Some(Tok::Bang), _) | (Some(Tok::Ident), "not") => (Unary::Not, 50),
            (Some(Tok::Minus), _) => (Unary::Neg, 90),
            (Some(Tok::Plus), _) => (Unary::Plus, 90),
            _ => return None,
        };
        self.c.pos += 1;
        Some((op, bp, t.span.0))
    }

    /// The `}` of an if's then branch and the `else` after it, taken.
    fn else_head(&mut self) -> Parsed<()> {
        self.expect(Tok::RBrace, "'}' to close the block")?;
        if !self.is_ident("else") {
            return Err(self.unexpected("'else' after the if block"));
        }
        self.c.pos += 1;
        Ok(())
    }

    /// `let name =`, taken: where it starts and the name.
    fn let_head(&mut self) -> Parsed<(u32, Name)> {
        let start = self.c.next().map_or(0, |t| t.span.0);
        let name = self.expect(Tok::Ident, "a name after 'let'")?;
        if names::is_keyword(self.c.text(name)) {
            return Err(self.c.error_at(
                name.span,
                format!("'{}' is a keyword and cannot be a let name", self.c.text(name)),
            ));
        }
        self.expect(Tok::Assign, "'=' after the let name")?;
        Ok((start, self.c.text(name).into()))
    }

    /// `.name` or `?.name`, taken; `None` for the `?.` of `a?.[0]`.
    fn member(&mut self) -> Parsed<Option<Step>> {
        self.c.pos += 1;
        if self.c.peek() == Some(Tok::LBracket) {
            return Ok(None);
        }
        let name = self.expect(Tok::Ident, "a field name after '.'")?;
        Ok(Some(Step {
            op: Accessor::Member(self.c.text(name).into()),
            end: name.span.1,
        }))
    }

    /// The `]` of an index: a string index is a member.
    fn index_end(&mut self, from: Option<Box<Expr>>) -> Parsed<Step> {
        let close = self.expect(Tok::RBracket, "']' to close the index")?;
        let index = match from {
            Some(i) => i,
            None => return Err(self.c.error_at(close.span, "expected an index".into())),
        };
        let op = match index.kind {
            Kind::Str(key) => Accessor::Member(key),
            _ => Accessor::Index(index),
        };
        Ok(Step { op, end: close.span.1 })
    }

    /// The `]` of a slice.
    fn slice_end(&mut self, from: Option<Box<Expr>>, to: Option<Box<Expr>>) -> Parsed<Step> {
        let close = self.expect(Tok::RBracket, "']' to close the slice")?;
        Ok(Step {
            op: Accessor::Slice(from, to),
            end: close.span.1,
        })
    }

    /// The `close` token that ends a list or a map opened at `open`.
    fn close(&mut self, close: Tok, wanted: &str, open: (u32, u32), kind: Kind) -> Parsed<Expr> {
        let end = self.expect(close, wanted)?;
        Ok(Expr::new(kind, (open.0, end.span.1)))
    }

    /// After an item: a `,` (taken), or the `close` that ends the list.
    fn separator(&mut self, close: Tok, wanted: &str) -> Parsed<()> {
        if self.c.eat(Tok::Comma).is_some() || self.c.peek() == Some(close) {
            Ok(())
        } else {
            Err(self.unexpected(wanted))
        }
    }

    /// Whether a name followed by `(` is next, and is not a keyword.
    fn is_call(&self) -> bool {
        let word = self.peek_text();
        self.c.peek_at(1) == Some(Tok::LParen) && !matches!(word, "true" | "false" | "nil") && !names::is_keyword(word)
    }

    /// The number literal `t` (of kind `tok`, written `text`).
    fn number(&self, t: Token, tok: Tok, text: &str) -> Parsed<Kind> {
        match tok {
            Tok::Int if text.contains('.') => Ok(Kind::Float(self.c.float(t.span, text, &text.replace('_', ""))?)),
            Tok::Int => match text.replace('_', "").parse::<i64>() {
                Ok(i) => Ok(Kind::Int(i)),
                Err(_) => Err(self.c.error_at(
                    t.span,
                    format!("integer {} does not fit in 64 bits", excerpt::clip(text)),
                )),
            },
            Tok::Radix => {
                let digits = text[2..].replace('_', "");
                let radix = match text.as_bytes()[1] {
                    b'x' | b'X' => 16,
                    b'o' | b'O' => 8,
                    _ => 2,
                };
                match i64::from_str_radix(&digits, radix) {
                    Ok(i) => Ok(Kind::Int(i)),
                    Err(_) => Err(self
                        .c
                        .error_at(t.span, format!("invalid integer {}", excerpt::clip(text)))),
                }
            }
            Tok::Float => Ok(Kind::Float(self.c.float(t.span, text, &text.replace('_', ""))?)),
            _ => Err(self.unexpected("a number")),
        }
    }

    /// A literal, a name, `#`, or an error.
    fn leaf(&mut self) -> Parsed<Expr> {
        let Some(t) = self.c.peek_token() else {
            return Err(self.unexpected("an expression"));
        };
        let Some(tok) = t.tok else {
            return Err(self.unexpected("an expression"));
        };
        let text = self.c.text(t);
        let lit = |k| Ok(Expr::new(k, t.span));
        match tok {
            Tok::Int | Tok::Radix | Tok::Float => {
                self.c.pos += 1;
                if let Some(glued) = self.c.peek_token().filter(|n| {
                    n.span.0 == t.span.1 && matches!(n.tok, Some(Tok::Int | Tok::Radix | Tok::Float | Tok::Ident))
                }) {
                    // `0b15`, `1E`, `0x1G`: one malformed number, as
                    // expr-lang's lexer reads it ("bad number syntax").
                    let span = (t.span.0, glued.span.1);
                    let written = excerpt::clip(&self.c.src[span.0 as usize..span.1 as usize]);
                    return Err(self.c.error_at(span, format!("invalid number '{written}'")));
                }
                self.number(t, tok, text).map(|k| Expr::new(k, t.span))
            }
            Tok::RawStr => {
                self.c.pos += 1;
                lit(Kind::Str(raw(text)))
            }
            Tok::Str => {
                self.c.pos += 1;
                match unescape(text) {
                    Ok(s) => lit(Kind::Str(s)),
                    Err((at, msg)) => Err(self.escape_error(t, at, msg)),
                }
            }
            Tok::Hash => self.pointer(t),
            Tok::Bytes => {
                self.c.pos += 1;
                match unescape_bytes(text) {
                    Ok(b) => lit(Kind::Bytes(b)),
                    Err((at, msg)) => Err(self.escape_error(t, at, msg)),
                }
            }
            Tok::Dot if !self.closures.is_empty() && self.c.peek_at(1) == Some(Tok::Ident) => {
                // `.name` inside a predicate is `#.name`.
                Ok(Expr::new(Kind::Item, (t.span.0, t.span.0)))
            }
            Tok::Ident => {
                self.c.pos += 1;
                match text {
                    "true" => lit(Kind::Bool(true)),
                    "false" => lit(Kind::Bool(false)),
                    "nil" => lit(Kind::Nil),
                    _ if names::is_keyword(text) => Err(self.keyword(t)),
                    _ => lit(Kind::Ident(text.into())),
                }
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    /// `#`, `#index` or `#acc` (the name may be apart from the `#`, as in
    /// expr-lang, unless it is a keyword), inside a predicate's body.
    fn pointer(&mut self, hash: Token) -> Parsed<Expr> {
        self.c.pos += 1;
        let Some(&builtin) = self.closures.last() else {
            return Err(self.c.error_at(
                hash.span,
                "'#' can only be used inside a predicate (like filter(xs, # > 1))".into(),
            ));
        };
        let named = self
            .c
            .peek_token()
            .filter(|n| n.tok == Some(Tok::Ident) && (n.span.0 == hash.span.1 || !names::is_keyword(self.c.text(*n))));
        let Some(name) = named else {
            return Ok(Expr::new(Kind::Item, hash.span));
        };
        self.c.pos += 1;
        let span = (hash.span.0, name.span.1);
        match names::pointer(self.c.text(name), builtin) {
            Ok(kind) => Ok(Expr::new(kind, span)),
            Err(message) => Err(self.c.error_at(span, message)),
        }
    }

    /// The error of an operator (its tokens from `at` to the one just
    /// taken) right after a `??` operand.
    fn mixed_with_coalesce(&self, at: usize) -> Box<Diagnostic> {
        let (first, last) = (self.c.toks[at], self.c.toks[self.c.pos - 1]);
        let op = self.c.src[first.span.0 as usize..last.span.1 as usize].to_string();
        self.c.error_at(
            (first.span.0, last.span.1),
            format!("'{op}' and '??' cannot be mixed without parentheses: write (a ?? b) {op} c or a ?? (b {op} c)"),
        )
    }

    /// The error of a bad escape at byte `at` of the literal `t`.
    fn escape_error(&self, t: Token, at: usize, message: String) -> Box<Diagnostic> {
        let at = t.span.0 + at as u32;
        self.c.error_at((at, at + 2), message)
    }

    /// The error of the keyword `t` where a name or a value should be.
    fn keyword(&self, t: Token) -> Box<Diagnostic> {
        self.c.error_at(t.span, names::misplaced_keyword(self.c.text(t)))
    }

    /// The call expression for `name(args)`: a predicate gets its body
    /// apart, and its arguments checked.
    fn finish_call(&self, name: Token, mut args: Vec<Expr>, close: Token) -> Parsed<Expr> {
        let fname = self.c.text(name).to_string();
        let span = (name.span.0, close.span.1);
        if fname == "sum" && args.len() == 2 {
            args = vec![sum_terms(args, span)];
        }
        let Some(mut kind) = predicate(&fname) else {
            return Ok(Expr::new(
                Kind::Call(Box::new(Call {
                    name: fname,
                    name_span: name.span,
                    literal_args: crate::literal_calls::all_literal(&args, &[]),
                    args,
                    named: Vec::new(),
                })),
                span,
            ));
        };
        let min_args = if kind == Loop::Count { 1 } else { 2 };
        let max_args = if matches!(kind, Loop::Reduce | Loop::SortBy) {
            3
        } else {
            2
        };
        if args.len() < min_args || args.len() > max_args {
            let want = if min_args == max_args {
                format!("{min_args}")
            } else {
                format!("{min_args} to {max_args}")
            };
            return Err(self
                .c
                .error_at(span, format!("{fname}() takes {want} arguments, got {}", args.len())));
        }
        if args.len() == 1 {
            args.push(Expr::new(Kind::Item, span));
        }
        let body = args.remove(1);
        if args.len() == 2 {
            match kind {
                Loop::Reduce => kind = Loop::ReduceFrom,
                Loop::SortBy => match &args[1].kind {
                    Kind::Str(s) if s == "asc" => {
                        args.pop();
                    }
                    Kind::Str(s) if s == "desc" => {
                        kind = Loop::SortByDesc;
                        args.pop();
                    }
                    _ => {
                        return Err(self.c.error_at(
                            args[1].span,
                            "sortBy() order must be the literal \"asc\" or \"desc\"".into(),
                        ));
                    }
                },
                _ => {}
            }
        }
        Ok(Expr::new(Kind::Predicate(kind, args, Box::new(body)), span))
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    fn sexpr(src: &str) -> String {
        parse(src, 0, src.len()).unwrap().sexpr()
    }

    #[test]
    fn operators_nest_left_to_right() {
        assert_eq!(sexpr("a + b - c * 2"), "(- (+ a b) (* c 2))");
        assert_eq!(sexpr("!x || y not contains 'z'"), r#"(|| (! x) (not contains y "z"))"#);
        assert_eq!(sexpr("2 ** 3 ** 2"), "(** 2 (** 3 2))");
    }

    #[test]
    fn every_other_kind_has_a_form() {
        assert_eq!(
            sexpr("ok ? {'k': [1, 2.0]} : nil"),
            r#"(?: ok (map ("k" (list 1 2.0))) nil)"#
        );
        assert_eq!(sexpr("filter(xs, # > 1)"), "(Filter xs (> # 1))");
        assert_eq!(sexpr("a?.b['c.d'][0][1:]"), r#"(get a .b ."c.d" [0] [1:])"#);
        assert_eq!(sexpr("let n = 1; n + 1"), "(let n 1 (+ n 1))");
    }

    #[test]
    fn predicate_calls_take_the_arguments_the_table_says() {
        for &(name, min, max) in crate::ast::PREDICATES {
            assert_eq!(crate::ast::predicate(name).map(|l| l.name()), Some(name));
            for given in 0..=max + 1 {
                let third = if name == "sortBy" { "'asc'" } else { "0" };
                let args = ["xs", "# > 0", third, "1"][..usize::from(given)].join(", ");
                let src = format!("{name}({args})");
                let parsed = parse(&src, 0, src.len());
                assert_eq!(parsed.is_ok(), (min..=max).contains(&given), "{src}");
            }
        }
    }

    #[test]
    fn forms_that_become_other_kinds() {
        assert_eq!(sexpr("a + b | f(c) * 2"), sexpr("f(a + b, c) * 2"));
        assert_eq!(sexpr("xs | filter(# > 1)"), sexpr("filter(xs, # > 1)"));
        assert_eq!(
            sexpr("if a { b } else if c { d } else { e }"),
            sexpr("a ? b : c ? d : e")
        );
        assert_eq!(sexpr("a ?: b"), sexpr("a ? a : b"));
        assert_eq!(sexpr("a < b <= c"), sexpr("(a < b) && (b <= c)"));
        assert_eq!(sexpr("a; b; c"), "(let  a (let  b c))");
    }
}
