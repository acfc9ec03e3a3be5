//! A precedence-climbing parser for the Windsor (expr-lang) dialect.
//!
//! Binding powers follow expr-lang: `??` binds tightest of the infix
//! operators, then `**`, `* / %`, `+ -`, comparisons, `&&`, `||`; the
//! ternary is lowest. Calls to predicate builtins take their second argument
//! as a closure (`filter(xs, # > 1)` or `filter(xs, {# > 1})`).

use super::lex::{Tok, Token, tokens, unescape};
use crate::ast::{Accessor, Binary, Call, Expr, Kind, Link, Step, Unary};
use crate::cursor::Cursor;
use bpvm_runtime::Diagnostic;
use bpvm_vm::Loop;

/// Parses `src[start..end]` as one complete expression.
pub fn parse(src: &str, start: usize, end: usize) -> Result<Expr, Diagnostic> {
    let mut p = Parser {
        c: Cursor::new(src, tokens(src, start, end), end),
        depth: 0,
        closure: 0,
    };
    let e = p.expr(0)?;
    if let Some(t) = p.c.peek_token() {
        return Err(p.c.error_at(
            t.span,
            format!("unexpected {} after the end of the expression", p.c.describe(t)),
        ));
    }
    Ok(e)
}

const MAX_DEPTH: u32 = 200;

struct Parser<'s> {
    c: Cursor<'s, Tok>,
    depth: u32,
    /// How many closures (predicate bodies) enclose the current position.
    closure: u32,
}

/// `first` and the operators after it, as one expression.
fn chain(first: Expr, links: Vec<Link>) -> Expr {
    let end = links.last().map_or(first.span.1, |l| l.rhs.span.1);
    let span = (first.span.0, end);
    Expr::new(Kind::Chain(Box::new(first), links), span)
}

/// The predicate builtins and the loop each compiles to.
fn predicate(name: &str) -> Option<Loop> {
    Some(match name {
        "filter" => Loop::Filter,
        "map" => Loop::Map,
        "all" => Loop::All,
        "any" => Loop::Any,
        "none" => Loop::None,
        "one" => Loop::One,
        "count" => Loop::Count,
        "find" => Loop::Find,
        "findIndex" => Loop::FindIndex,
        "findLast" => Loop::FindLast,
        "findLastIndex" => Loop::FindLastIndex,
        "groupBy" => Loop::GroupBy,
        "sortBy" => Loop::SortBy,
        "reduce" => Loop::Reduce,
        _ => return None,
    })
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

    fn unexpected(&self, wanted: &str) -> Diagnostic {
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

    fn expect(&mut self, tok: Tok, wanted: &str) -> Result<Token, Diagnostic> {
        self.c.eat(tok).ok_or_else(|| self.unexpected(wanted))
    }

    fn is_ident(&self, word: &str) -> bool {
        self.c.peek() == Some(Tok::Ident) && self.peek_text() == word
    }

    /// expression := `let` binding | binary [ `?` expression `:` expression ]
    fn expr(&mut self, min: u16) -> Result<Expr, Diagnostic> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let span = self.c.peek_token().map_or(self.c.eof_span(), |t| t.span);
            return Err(self.c.error_at(span, "expression is nested too deeply".into()));
        }
        let r = self.expr_inner(min);
        self.depth -= 1;
        r
    }

    fn expr_inner(&mut self, min: u16) -> Result<Expr, Diagnostic> {
        if min == 0 && self.is_ident("let") {
            return self.let_binding();
        }
        let mut left = self.unary()?;
        // The operators of one binding power collect in one flat chain;
        // a lower one (the only kind that can follow, since the right
        // operand took every higher one) starts a chain around it.
        let mut links: Vec<Link> = Vec::new();
        let mut chain_bp = 0;
        while let Some(t) = self.c.peek_token() {
            let Some(tok) = t.tok else { break };
            let text = self.c.text(t);
            // `not in` / `not matches` …: a negated infix operator.
            let (op, bp, right_assoc, not) = if tok == Tok::Ident && text == "not" {
                let Some(next) = self.c.toks.get(self.c.pos + 1).copied() else {
                    break;
                };
                let Some((op, bp, _)) = next.tok.and_then(|n| infix(n, self.c.text(next))) else {
                    break;
                };
                if bp != 20 || bp < min || op == Binary::Coalesce {
                    break;
                }
                self.c.pos += 1;
                match op {
                    Binary::In => (Binary::NotIn, bp, false, false),
                    _ => (op, bp, false, true),
                }
            } else {
                let Some((op, bp, right_assoc)) = infix(tok, text) else {
                    break;
                };
                if bp < min.max(1) {
                    break;
                }
                (op, bp, right_assoc, false)
            };
            self.c.pos += 1;
            let rhs = self.expr(if right_assoc { bp } else { bp + 1 })?;
            if bp != chain_bp && !links.is_empty() {
                left = chain(left, std::mem::take(&mut links));
            }
            chain_bp = bp;
            links.push(Link { op, not, rhs });
        }
        if !links.is_empty() {
            left = chain(left, links);
        }
        if min == 0 && self.c.peek() == Some(Tok::Question) {
            self.c.pos += 1;
            let then = self.expr(0)?;
            self.expect(Tok::Colon, "':' of the conditional")?;
            let otherwise = self.expr(0)?;
            let span = (left.span.0, otherwise.span.1);
            left = Expr::new(Kind::Ternary(Box::new(left), Box::new(then), Box::new(otherwise)), span);
        }
        if min == 0 && self.c.peek() == Some(Tok::Pipe) {
            let t = self.c.peek_token().unwrap_or(Token {
                tok: None,
                span: self.c.eof_span(),
            });
            return Err(self.c.error_at(
                t.span,
                "the pipe operator '|' is not supported; call the function instead".into(),
            ));
        }
        Ok(left)
    }

    fn let_binding(&mut self) -> Result<Expr, Diagnostic> {
        let start = self.c.next().map_or(0, |t| t.span.0);
        let name = self.expect(Tok::Ident, "a name after 'let'")?;
        self.expect(Tok::Assign, "'=' after the let name")?;
        let value = self.expr(0)?;
        self.expect(Tok::Semi, "';' after the let value")?;
        let body = self.expr(0)?;
        let span = (start, body.span.1);
        Ok(Expr::new(
            Kind::Let(self.c.text(name).to_string(), Box::new(value), Box::new(body)),
            span,
        ))
    }

    fn unary(&mut self) -> Result<Expr, Diagnostic> {
        let Some(t) = self.c.peek_token() else {
            return Err(self.unexpected("an expression"));
        };
        let op = match (t.tok, self.c.text(t)) {
            (Some(Tok::Bang), _) | (Some(Tok::Ident), "not") => Some((Unary::Not, 50)),
            (Some(Tok::Minus), _) => Some((Unary::Neg, 90)),
            (Some(Tok::Plus), _) => Some((Unary::Plus, 90)),
            _ => None,
        };
        if let Some((op, bp)) = op {
            self.c.pos += 1;
            let operand = self.expr(bp)?;
            let span = (t.span.0, operand.span.1);
            return Ok(Expr::new(Kind::Unary(op, Box::new(operand)), span));
        }
        let primary = self.primary()?;
        self.postfix(primary)
    }

    fn postfix(&mut self, base: Expr) -> Result<Expr, Diagnostic> {
        let mut steps = Vec::new();
        loop {
            match self.c.peek() {
                Some(Tok::Dot) | Some(Tok::QDot) => {
                    self.c.pos += 1;
                    if self.c.peek() == Some(Tok::LBracket) {
                        continue; // `a?.[0]`
                    }
                    let name = self.expect(Tok::Ident, "a field name after '.'")?;
                    steps.push(Step {
                        op: Accessor::Member(self.c.text(name).to_string()),
                        end: name.span.1,
                    });
                }
                Some(Tok::LBracket) => {
                    self.c.pos += 1;
                    steps.push(self.index()?);
                }
                Some(Tok::LParen) => {
                    let span = self.c.peek_token().map_or(self.c.eof_span(), |t| t.span);
                    return Err(self.c.error_at(span, "only named functions can be called".into()));
                }
                _ if steps.is_empty() => return Ok(base),
                _ => {
                    let span = (base.span.0, steps.last().map_or(base.span.1, |s: &Step| s.end));
                    return Ok(Expr::new(Kind::Access(Box::new(base), steps), span));
                }
            }
        }
    }

    /// `[index]` or `[from:to]`, after the `[`.
    fn index(&mut self) -> Result<Step, Diagnostic> {
        let from = if self.c.peek() == Some(Tok::Colon) {
            None
        } else {
            Some(self.expr(0)?)
        };
        if self.c.peek() == Some(Tok::Colon) {
            self.c.pos += 1;
            let to = if self.c.peek() == Some(Tok::RBracket) {
                None
            } else {
                Some(self.expr(0)?)
            };
            let close = self.expect(Tok::RBracket, "']' to close the slice")?;
            return Ok(Step {
                op: Accessor::Slice(from, to),
                end: close.span.1,
            });
        }
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

    fn primary(&mut self) -> Result<Expr, Diagnostic> {
        let Some(t) = self.c.peek_token() else {
            return Err(self.unexpected("an expression"));
        };
        let Some(tok) = t.tok else {
            return Err(self.unexpected("an expression"));
        };
        let text = self.c.text(t);
        let lit = |k| Ok(Expr::new(k, t.span));
        match tok {
            Tok::Int => {
                self.c.pos += 1;
                match text.replace('_', "").parse::<i64>() {
                    Ok(i) => lit(Kind::Int(i)),
                    Err(_) => Err(self
                        .c
                        .error_at(t.span, format!("integer {text} does not fit in 64 bits"))),
                }
            }
            Tok::Radix => {
                self.c.pos += 1;
                let digits = text[2..].replace('_', "");
                let radix = match text.as_bytes()[1] {
                    b'x' | b'X' => 16,
                    b'o' | b'O' => 8,
                    _ => 2,
                };
                match i64::from_str_radix(&digits, radix) {
                    Ok(i) => lit(Kind::Int(i)),
                    Err(_) => Err(self.c.error_at(t.span, format!("invalid integer {text}"))),
                }
            }
            Tok::Float => {
                self.c.pos += 1;
                match text.replace('_', "").parse::<f64>() {
                    Ok(f) => lit(Kind::Float(f)),
                    Err(_) => Err(self.c.error_at(t.span, format!("invalid number {text}"))),
                }
            }
            Tok::Str => {
                self.c.pos += 1;
                match unescape(text) {
                    Ok(s) => lit(Kind::Str(s)),
                    Err((at, msg)) => {
                        let at = t.span.0 + at as u32;
                        Err(self.c.error_at((at, at + 2), msg))
                    }
                }
            }
            Tok::Hash => {
                self.c.pos += 1;
                if self.closure == 0 {
                    return Err(self.c.error_at(
                        t.span,
                        "'#' can only be used inside a predicate (like filter(xs, # > 1))".into(),
                    ));
                }
                if let Some(n) = self
                    .c
                    .peek_token()
                    .filter(|n| n.tok == Some(Tok::Ident) && n.span.0 == t.span.1)
                {
                    let kind = match self.c.text(n) {
                        "acc" => Some(Kind::Acc),
                        "index" => Some(Kind::ItemIndex),
                        _ => None,
                    };
                    if let Some(kind) = kind {
                        self.c.pos += 1;
                        return Ok(Expr::new(kind, (t.span.0, n.span.1)));
                    }
                }
                lit(Kind::Item)
            }
            Tok::Dot if self.closure > 0 && self.c.peek_at(1) == Some(Tok::Ident) => {
                // `.name` inside a predicate is `#.name`.
                Ok(Expr::new(Kind::Item, (t.span.0, t.span.0)))
            }
            Tok::LParen => {
                self.c.pos += 1;
                let inner = self.expr(0)?;
                self.expect(Tok::RParen, "')'")?;
                Ok(inner)
            }
            Tok::LBracket => self.list(),
            Tok::LBrace => self.map(),
            Tok::Ident => {
                self.c.pos += 1;
                match text {
                    "true" => lit(Kind::Bool(true)),
                    "false" => lit(Kind::Bool(false)),
                    "nil" => lit(Kind::Nil),
                    "let" => Err(self
                        .c
                        .error_at(t.span, "'let' must start an expression or follow '('".into())),
                    _ if self.c.peek() == Some(Tok::LParen) => self.call(t),
                    _ => lit(Kind::Ident(text.to_string())),
                }
            }
            _ => Err(self.unexpected("an expression")),
        }
    }

    fn list(&mut self) -> Result<Expr, Diagnostic> {
        let open = self.c.next().map_or((0, 0), |t| t.span);
        let mut items = Vec::new();
        while self.c.peek() != Some(Tok::RBracket) {
            items.push(self.expr(0)?);
            if self.c.peek() == Some(Tok::Comma) {
                self.c.pos += 1;
            } else if self.c.peek() != Some(Tok::RBracket) {
                return Err(self.unexpected("',' or ']' in the list"));
            }
        }
        let close = self.expect(Tok::RBracket, "']'")?;
        Ok(Expr::new(Kind::List(items), (open.0, close.span.1)))
    }

    fn map(&mut self) -> Result<Expr, Diagnostic> {
        let open = self.c.next().map_or((0, 0), |t| t.span);
        let mut entries = Vec::new();
        while self.c.peek() != Some(Tok::RBrace) {
            let key = match self.c.peek_token() {
                Some(t) if t.tok == Some(Tok::Ident) => {
                    self.c.pos += 1;
                    Expr::new(Kind::Str(self.c.text(t).to_string()), t.span)
                }
                Some(t) if matches!(t.tok, Some(Tok::Str | Tok::Int | Tok::Float)) => self.primary()?,
                Some(t) if t.tok == Some(Tok::LParen) => self.primary()?,
                _ => return Err(self.unexpected("a map key")),
            };
            self.expect(Tok::Colon, "':' after the map key")?;
            let value = self.expr(0)?;
            entries.push((key, value));
            if self.c.peek() == Some(Tok::Comma) {
                self.c.pos += 1;
            } else if self.c.peek() != Some(Tok::RBrace) {
                return Err(self.unexpected("',' or '}' in the map"));
            }
        }
        let close = self.expect(Tok::RBrace, "'}'")?;
        Ok(Expr::new(Kind::Map(entries), (open.0, close.span.1)))
    }

    fn call(&mut self, name: Token) -> Result<Expr, Diagnostic> {
        let fname = self.c.text(name).to_string();
        self.expect(Tok::LParen, "'('")?;
        let kind = predicate(&fname);
        let mut args = Vec::new();
        while self.c.peek() != Some(Tok::RParen) {
            if kind.is_some() && args.len() == 1 {
                args.push(self.closure_body()?);
            } else {
                args.push(self.expr(0)?);
            }
            if self.c.peek() == Some(Tok::Comma) {
                self.c.pos += 1;
            } else if self.c.peek() != Some(Tok::RParen) {
                return Err(self.unexpected("',' or ')' after the argument"));
            }
        }
        let close = self.expect(Tok::RParen, "')' to close the call")?;
        let span = (name.span.0, close.span.1);
        if let Some(mut kind) = kind {
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
            return Ok(Expr::new(Kind::Predicate(kind, args, Box::new(body)), span));
        }
        Ok(Expr::new(
            Kind::Call(Call {
                name: fname,
                name_span: name.span,
                args,
                named: Vec::new(),
            }),
            span,
        ))
    }

    /// A predicate's body: `{ expr }` or a bare expression.
    fn closure_body(&mut self) -> Result<Expr, Diagnostic> {
        self.closure += 1;
        let body = if self.c.peek() == Some(Tok::LBrace) {
            self.c.pos += 1;
            let e = self.expr(0)?;
            self.expect(Tok::RBrace, "'}' to close the predicate")?;
            Ok(e)
        } else {
            self.expr(0)
        };
        self.closure -= 1;
        body
    }
}
