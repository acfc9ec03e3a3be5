//! A recursive-descent parser for the Bluelink substitution grammar.
//!
//! References become paths rooted at their namespace (`variables`,
//! `values`, `datasources`, `resources`, `children`, `elem`, `i`); a bare
//! name is a resource (`cache.spec.host` is `resources.cache.spec.host`)
//! unless it names a core function in argument position (B4). Accessors
//! apply after any reference or call (B8). Trailing tokens are an error (D3).

use super::lex::{Tok, Token, tokens, unquote};
use crate::ast::{Accessor, Call, Expr, Kind, Span, Step, access};
use crate::cursor::{Cursor, Parsed};
use bpvm_runtime::{Diagnostic, Library, excerpt};

/// Parses `src[start..end]` as one substitution.
pub fn parse(src: &str, start: usize, end: usize, lib: &Library) -> Result<Expr, Diagnostic> {
    let mut p = Parser {
        c: Cursor::new(src, tokens(src, start, end), end),
        lib,
    };
    let e = p.substitution(false).map_err(|d| *d)?;
    match p.c.peek_token() {
        Some(t) => Err(*p.c.error_at(
            t.span,
            format!("unexpected {} after the end of the substitution", p.c.describe(t)),
        )),
        None => Ok(e),
    }
}

struct Parser<'s> {
    c: Cursor<'s, Tok>,
    lib: &'s Library,
}

/// What a call's argument list holds so far.
#[derive(Default)]
struct Arguments {
    args: Vec<Expr>,
    named: Vec<(String, Span, Expr)>,
}

impl<'s> Parser<'s> {
    fn unexpected(&self, wanted: &str) -> Box<Diagnostic> {
        match self.c.peek_token() {
            Some(t) => self
                .c
                .error_at(t.span, format!("expected {wanted}, found {}", self.c.describe(t))),
            None => self.c.error_at(
                self.c.eof_span(),
                format!("expected {wanted}, found the end of the substitution"),
            ),
        }
    }

    fn expect(&mut self, tok: Tok, wanted: &str) -> Parsed<Token> {
        self.c.eat(tok).ok_or_else(|| self.unexpected(wanted))
    }

    // ── the recursive part: one call per level of nesting, kept small ─

    /// substitution = call | reference | literal. `argument` is true in a
    /// call's argument list, where a bare core-function name is a function value.
    fn substitution(&mut self, argument: bool) -> Parsed<Expr> {
        self.c.enter("substitution")?;
        let r = self.substitution_inner(argument);
        self.c.leave();
        r
    }

    fn substitution_inner(&mut self, argument: bool) -> Parsed<Expr> {
        match self.c.peek() {
            // Combinators rather than `?`: their temporaries live in
            // frames that are gone before parsing goes deeper.
            Some(Tok::Ident) if self.is_call() => self.call().and_then(|call| self.accessors(call, Vec::new())),
            // An array literal: not in seed 002's grammar, but seed 003's
            // examples write them (`join([8080, 8081], ",")`); same as list(…).
            Some(Tok::LBracket) => self.array().and_then(|list| self.accessors(list, Vec::new())),
            _ => self.leaf(argument),
        }
    }

    fn array(&mut self) -> Parsed<Expr> {
        let open = self.c.next().map_or((0, 0), |t| t.span);
        let mut items = Vec::new();
        while self.c.peek() != Some(Tok::RBracket) {
            self.substitution(true).and_then(|item| {
                items.push(item);
                self.array_separator()
            })?;
        }
        let close = self.expect(Tok::RBracket, "']' to close the array")?;
        Ok(Expr::new(Kind::List(items), (open.0, close.span.1)))
    }

    fn call(&mut self) -> Parsed<Expr> {
        let name = self.c.next().unwrap_or(Token {
            tok: None,
            span: self.c.eof_span(),
        });
        self.expect(Tok::LParen, "'('")?;
        let mut list = Arguments::default();
        while self.c.peek() != Some(Tok::RParen) {
            let name = self.argument_name(&list)?;
            self.substitution(true).and_then(|value| {
                match name {
                    Some(n) => list.named.push((self.c.text(n).to_string(), n.span, value)),
                    None => list.args.push(value),
                }
                self.argument_separator()
            })?;
        }
        let close = self.expect(Tok::RParen, "')' to close the call")?;
        Ok(self.finish_call(name, list, close))
    }

    // ── the rest: returns before parsing goes deeper ─────────────────

    /// Whether a name followed by `(` is next, and is not a literal.
    fn is_call(&self) -> bool {
        self.c.peek_at(1) == Some(Tok::LParen)
            && !self
                .c
                .peek_token()
                .is_some_and(|t| matches!(self.c.text(t), "true" | "false" | "none"))
    }

    /// A literal, a reference, or an error.
    fn leaf(&mut self, argument: bool) -> Parsed<Expr> {
        let Some(t) = self.c.peek_token() else {
            return Err(self.unexpected("a reference, a function call or a literal"));
        };
        let text = self.c.text(t);
        let lit = |k| Ok(Expr::new(k, t.span));
        match t.tok {
            Some(Tok::Int) => {
                self.c.pos += 1;
                match text.parse::<i64>() {
                    Ok(i) => lit(Kind::Int(i)),
                    Err(_) => Err(self.c.error_at(
                        t.span,
                        format!("integer {} does not fit in 64 bits", excerpt::clip(text)),
                    )),
                }
            }
            Some(Tok::Float) => {
                self.c.pos += 1;
                lit(Kind::Float(self.c.float(t.span, text, text)?))
            }
            Some(Tok::Str) => {
                self.c.pos += 1;
                lit(Kind::Str(unquote(text)))
            }
            Some(Tok::Ident) => {
                self.c.pos += 1;
                match text {
                    "true" => lit(Kind::Bool(true)),
                    "false" => lit(Kind::Bool(false)),
                    "none" => lit(Kind::Nil),
                    _ => self.reference(t, argument),
                }
            }
            _ => Err(self.unexpected("a reference, a function call or a literal")),
        }
    }

    fn array_separator(&mut self) -> Parsed<()> {
        match self.c.peek() {
            Some(Tok::Comma) => {
                self.c.pos += 1;
                Ok(())
            }
            Some(Tok::RBracket) => Ok(()),
            _ => Err(self.unexpected("',' or ']' in the array")),
        }
    }

    /// The name of a named argument (`name =`, taken) when one is next.
    fn argument_name(&mut self, list: &Arguments) -> Parsed<Option<Token>> {
        if self.c.peek() == Some(Tok::Ident) && self.c.peek_at(1) == Some(Tok::Assign) {
            let n = self.c.toks[self.c.pos];
            self.c.pos += 2;
            return Ok(Some(n));
        }
        if !list.named.is_empty() {
            let span = self.c.peek_token().map_or(self.c.eof_span(), |t| t.span);
            return Err(self
                .c
                .error_at(span, "positional arguments cannot follow named arguments".into()));
        }
        Ok(None)
    }

    fn argument_separator(&mut self) -> Parsed<()> {
        match self.c.peek() {
            Some(Tok::Comma) => {
                self.c.pos += 1;
                if self.c.peek() == Some(Tok::RParen) {
                    return Err(self.unexpected("an argument after ','"));
                }
                Ok(())
            }
            Some(Tok::RParen) => Ok(()),
            _ => Err(self.unexpected("',' or ')' after the argument")),
        }
    }

    fn finish_call(&self, name: Token, list: Arguments, close: Token) -> Expr {
        let Arguments { mut args, named } = list;
        // `link(orderApi, resources.createOrderFunction)`: a resource
        // reference names the resource (seed 003, "string | ResourceRef").
        if self.c.text(name) == "link" {
            for arg in &mut args {
                if let Kind::Access(base, steps) = &arg.kind
                    && matches!(&base.kind, Kind::Ident(root) if root == "resources")
                    && let [
                        Step {
                            op: Accessor::Member(resource),
                            ..
                        },
                    ] = steps.as_slice()
                {
                    arg.kind = Kind::Str(resource.clone());
                }
            }
        }
        let call = Call {
            name: self.c.text(name).to_string(),
            name_span: name.span,
            literal_args: crate::literal_calls::all_literal(&args, &named),
            args,
            named,
        };
        Expr::new(Kind::Call(Box::new(call)), (name.span.0, close.span.1))
    }

    fn root(&self, name: &str, span: Span) -> Expr {
        Expr::new(Kind::Ident(name.into()), span)
    }

    fn reference(&mut self, first: Token, argument: bool) -> Parsed<Expr> {
        let word = self.c.text(first);
        let span = first.span;
        let mut steps = Vec::new();
        match word {
            "variables" => {
                steps.push(self.name_accessor("a variable name after 'variables'")?);
                if matches!(self.c.peek(), Some(Tok::Dot | Tok::LBracket)) {
                    let t = self.c.peek_token().map_or(span, |t| t.span);
                    return Err(self.c.error_at(
                        t,
                        "variables are primitives and have no fields or items; use fromjson() to read serialised JSON"
                            .into(),
                    ));
                }
                Ok(access(self.root("variables", span), steps))
            }
            "values" => {
                steps.push(self.name_accessor("a value name after 'values'")?);
                self.accessors(self.root("values", span), steps)
            }
            "datasources" => {
                steps.push(self.name_accessor("a data source name after 'datasources'")?);
                steps.push(self.name_accessor("a data source field after the data source name")?);
                if self.c.peek() == Some(Tok::LBracket) {
                    steps.push(self.index_accessor()?);
                }
                if matches!(self.c.peek(), Some(Tok::Dot | Tok::LBracket)) {
                    let t = self.c.peek_token().map_or(span, |t| t.span);
                    return Err(self
                        .c
                        .error_at(t, "a data source reference takes a field and at most one index".into()));
                }
                Ok(access(self.root("datasources", span), steps))
            }
            "children" => {
                steps.push(self.name_accessor("a child blueprint name after 'children'")?);
                if !matches!(self.c.peek(), Some(Tok::Dot | Tok::LBracket)) {
                    return Err(self.unexpected("an exported field after the child blueprint name"));
                }
                self.accessors(self.root("children", span), steps)
            }
            "resources" => {
                steps.push(self.name_accessor("a resource name after 'resources'")?);
                self.accessors(self.root("resources", span), steps)
            }
            "elem" => self.accessors(self.root("elem", span), steps),
            "i" => {
                if matches!(self.c.peek(), Some(Tok::Dot | Tok::LBracket)) {
                    let t = self.c.peek_token().map_or(span, |t| t.span);
                    return Err(self
                        .c
                        .error_at(t, "'i' is the element index and has no fields or items".into()));
                }
                Ok(self.root("i", span))
            }
            name if argument
                && self.lib.find(name).is_some()
                && !matches!(self.c.peek(), Some(Tok::Dot | Tok::LBracket)) =>
            {
                Ok(Expr::new(Kind::FuncRef(name.into()), span))
            }
            name => {
                // A bare name is a resource: the step after the root is
                // the name itself, ending where it ends.
                steps.push(Step {
                    op: Accessor::Member(name.into()),
                    end: span.1,
                });
                self.accessors(self.root("resources", span), steps)
            }
        }
    }

    /// `.name` or `["quoted-name"]`.
    fn name_accessor(&mut self, wanted: &str) -> Parsed<Step> {
        match self.c.peek() {
            Some(Tok::Dot) => {
                self.c.pos += 1;
                let name = self.expect(Tok::Ident, wanted)?;
                Ok(Step {
                    op: Accessor::Member(self.c.text(name).into()),
                    end: name.span.1,
                })
            }
            Some(Tok::LBracket) if self.c.peek_at(1) == Some(Tok::Str) => {
                self.c.pos += 1;
                let lit = self.c.toks[self.c.pos];
                self.c.pos += 1;
                let name = unquote(self.c.text(lit));
                if name.is_empty()
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                {
                    return Err(self.c.error_at(
                        lit.span,
                        format!("{name:?} is not a valid name: names in quotes use letters, digits, '_', '-' and '.'"),
                    ));
                }
                let close = self.expect(Tok::RBracket, "']' after the quoted name")?;
                Ok(Step {
                    op: Accessor::Member(name),
                    end: close.span.1,
                })
            }
            _ => Err(self.unexpected(wanted)),
        }
    }

    /// `[n]` or `[]` (the first item).
    fn index_accessor(&mut self) -> Parsed<Step> {
        let open = self.expect(Tok::LBracket, "'['")?;
        let index = match self.c.peek_token() {
            Some(t) if t.tok == Some(Tok::RBracket) => Expr::new(Kind::Int(0), open.span),
            Some(t) if t.tok == Some(Tok::Int) && !self.c.text(t).starts_with('-') => {
                self.c.pos += 1;
                match self.c.text(t).parse::<i64>() {
                    Ok(i) => Expr::new(Kind::Int(i), t.span),
                    Err(_) => return Err(self.c.error_at(t.span, "index does not fit in 64 bits".into())),
                }
            }
            _ => return Err(self.unexpected("an index (a natural number), a quoted name, or ']'")),
        };
        let close = self.expect(Tok::RBracket, "']' to close the index")?;
        Ok(Step {
            op: Accessor::Index(Box::new(index)),
            end: close.span.1,
        })
    }

    /// The accessors after `base` (and its `steps` so far), however many.
    fn accessors(&mut self, base: Expr, mut steps: Vec<Step>) -> Parsed<Expr> {
        loop {
            match self.c.peek() {
                Some(Tok::Dot) => steps.push(self.name_accessor("a field name after '.'")?),
                Some(Tok::LBracket) => {
                    let quoted = self.c.peek_at(1) == Some(Tok::Str);
                    steps.push(if quoted {
                        self.name_accessor("a quoted name")?
                    } else {
                        self.index_accessor()?
                    });
                }
                _ => return Ok(access(base, steps)),
            }
        }
    }
}
