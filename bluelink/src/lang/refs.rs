//! References (`variables.x`, `values.x…`, `resources.x…` or a bare `x…`,
//! `datasources.d.f[n]`, `children.c.out…`, `elem…`, `i`) and calls, read
//! straight into the substitution text they lower to.

use super::ast::{Call, Expr, ExprKind, Reference, Text, push_name};
use super::cursor::{Cursor, Parsed, fail};
use super::token::TokenKind as T;
use crate::error::Pos;

impl Cursor {
    pub(super) fn reference_or_call(&mut self) -> Parsed<Expr> {
        let first = self.peek();
        let (at, kind) = (first.start, first.kind);
        let reference = |text: String, resource: Option<Text>| Expr {
            at,
            kind: ExprKind::Ref(Reference { text, resource }),
        };
        match kind {
            T::Keyword("variables") => {
                self.advance();
                let mut text = text_of("variables");
                push_name(&mut text, &self.name_accessor()?.0);
                if matches!(self.kind(), T::Dot | T::LBracket) {
                    let at = self.peek().start;
                    return fail(at, "a variable is a scalar: it has no fields or items");
                }
                Ok(reference(text, None))
            }
            T::Keyword("values") => {
                self.advance();
                let mut text = text_of("values");
                push_name(&mut text, &self.name_accessor()?.0);
                self.accessors(&mut text)?;
                Ok(reference(text, None))
            }
            T::Keyword("resources") => {
                self.advance();
                let name = self.name_accessor()?.0;
                let (text, resource) = self.resource(name)?;
                Ok(reference(text, resource))
            }
            T::Keyword("datasources") => self.datasource().map(|text| reference(text, None)),
            T::Keyword("children") => {
                self.advance();
                let (name, name_at) = self.name_accessor()?;
                let mut text = text_of("children");
                push_name(&mut text, &name);
                if !matches!(self.kind(), T::Dot | T::LBracket) {
                    let message = format!("a child reference names an export of the child: 'children.{name}.<export>'");
                    return fail(name_at, message);
                }
                self.accessors(&mut text)?;
                Ok(reference(text, None))
            }
            T::Keyword("elem") => {
                self.advance();
                let mut text = text_of("elem");
                self.accessors(&mut text)?;
                Ok(reference(text, None))
            }
            T::Keyword("i") => {
                self.advance();
                if matches!(self.kind(), T::Dot | T::LBracket) {
                    let t = self.peek();
                    let message = format!(
                        "'i' is the index of the element and has no fields or items; found {}",
                        t.kind.describe()
                    );
                    return fail(t.start, message);
                }
                Ok(reference("i".into(), None))
            }
            T::Ident | T::Keyword(_) if self.kind_at(1) == T::LParen => self.call(),
            T::Ident => {
                let name = self.advance().text;
                let (text, resource) = self.resource(name)?;
                Ok(reference(text, resource))
            }
            _ => self.unexpected("an expression"),
        }
    }

    /// The rest of a resource reference after its name: an optional
    /// element index, then accessors.
    fn resource(&mut self, name: Text) -> Parsed<(String, Option<Text>)> {
        let mut text = text_of("resources");
        push_name(&mut text, &name);
        let bare = text.len();
        if self.kind() == T::LBracket && self.kind_at(1) != T::StringStart {
            self.bracket(&mut text, false)?;
        }
        self.accessors(&mut text)?;
        let resource = (text.len() == bare).then_some(name);
        Ok((text, resource))
    }

    fn datasource(&mut self) -> Parsed<String> {
        self.advance();
        let mut text = text_of("datasources");
        push_name(&mut text, &self.name_accessor()?.0);
        push_name(&mut text, &self.name_accessor()?.0);
        if self.kind() == T::LBracket {
            self.bracket(&mut text, false)?;
        }
        if matches!(self.kind(), T::Dot | T::LBracket) {
            let t = self.peek();
            let message = format!(
                "a data source reference ends after its field (and an optional index); found {}",
                t.kind.describe()
            );
            return fail(t.start, message);
        }
        Ok(text)
    }

    /// `.name` or `["name"]` after a namespace: a keyword is not a name here.
    fn name_accessor(&mut self) -> Parsed<(Text, Pos)> {
        match self.kind() {
            T::Dot => {
                let dot = self.advance();
                let name = self.expect(T::Ident, "a name after '.'")?;
                Ok((name.text, dot.start))
            }
            T::LBracket => {
                let open = self.advance();
                let (name, _) = self.quoted_name()?;
                self.expect(T::RBracket, "']'")?;
                Ok((name, open.start))
            }
            _ => self.unexpected("'.<name>' or '[\"<name>\"]'"),
        }
    }

    /// Any number of `.field`, `["name"]`, `[n]` and `[]` (the first item).
    pub(super) fn accessors(&mut self, text: &mut String) -> Parsed<()> {
        loop {
            match self.kind() {
                T::Dot => {
                    self.advance();
                    if !matches!(self.kind(), T::Ident | T::Keyword(_)) {
                        return self.unexpected("a field name after '.'");
                    }
                    push_name(text, &self.advance().text);
                }
                T::LBracket => self.bracket(text, true)?,
                _ => return Ok(()),
            }
        }
    }

    /// `[n]`, `[]` or, when `named`, `["name"]`.
    fn bracket(&mut self, text: &mut String, named: bool) -> Parsed<()> {
        self.advance();
        match self.kind() {
            T::StringStart if named => {
                // Kept as written: a value known only at deploy time is
                // output as its text, so `a["k"]` must not become `a.k`.
                let (name, _) = self.quoted_name()?;
                text.push_str(&format!("[\"{name}\"]"));
            }
            T::StringStart => {
                let message = "a data source reference takes an index here, not a quoted name";
                return fail(self.peek().start, message);
            }
            T::Int => {
                let t = self.advance();
                match t.text.parse::<u64>() {
                    Ok(n) if n <= i64::MAX as u64 => text.push_str(&format!("[{n}]")),
                    _ if t.text.starts_with('-') => {
                        return fail(t.start, format!("an index is a natural number; found {}", t.text));
                    }
                    _ => return fail(t.start, format!("the index {} does not fit in 64 bits", t.text)),
                }
            }
            T::RBracket => text.push_str("[0]"),
            _ => return self.unexpected("a quoted name, an index or ']'"),
        }
        self.expect(T::RBracket, "']'")?;
        Ok(())
    }

    fn call(&mut self) -> Parsed<Expr> {
        let name = self.advance();
        self.expect(T::LParen, "'('")?;
        let mut args = Vec::new();
        while self.kind() != T::RParen {
            let arg_name = match (self.kind(), self.kind_at(1)) {
                (T::Ident, T::Assign) => {
                    let n = self.advance();
                    self.advance();
                    Some((n.text, n.start))
                }
                _ => None,
            };
            args.push((arg_name, self.expr()?));
            if self.eat(T::Comma).is_none() {
                break;
            }
        }
        self.expect(T::RParen, "')' to close the call")?;
        let mut path = String::new();
        self.accessors(&mut path)?;
        Ok(Expr {
            at: name.start,
            kind: ExprKind::Call(Box::new(Call {
                name: name.text,
                args,
                path,
            })),
        })
    }
}

/// A reference's text, begun with `head`, with room for the rest.
fn text_of(head: &str) -> String {
    let mut text = String::with_capacity(48);
    text.push_str(head);
    text
}
