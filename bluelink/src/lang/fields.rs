//! What the blocks of declarations share: an unknown field's message,
//! free-form blocks, descriptions, booleans and scalar literals.

use super::build::{Builder, Entries, scalar};
use super::cursor::{Cursor, Parsed, fail};
use super::token::TokenKind as T;
use crate::error::Pos;
use crate::node::Node;
use bpvm_runtime::Value;

/// The message for the field `key`, unknown in `place`, with the fields
/// `known` there.
pub(super) fn unknown_field<X>(key: &str, at: Pos, place: &str, known: &[&str]) -> Parsed<X> {
    let hint = match bpvm_runtime::suggest::closest(key, known) {
        Some(k) => format!(" (did you mean {k:?}?)"),
        None => String::new(),
    };
    fail(
        at,
        format!(
            "unknown field {key:?} in {place}{hint}; expected one of: {}",
            known.join(", ")
        ),
    )
}

/// The message for a name where an entry of `place` starts, which is not
/// followed by `=` (so not a field): a misspelt keyword among `keywords`.
pub(super) fn misspelt_keyword<X>(word: &str, at: Pos, place: &str, keywords: &[&str]) -> Parsed<X> {
    let hint = match bpvm_runtime::suggest::closest(word, keywords) {
        Some(k) => format!(" (did you mean {k:?}?)"),
        None => String::new(),
    };
    fail(
        at,
        format!(
            "{word:?} is not an entry of {place}: expected {}, or a field (name = value){hint}",
            keywords.join(", ")
        ),
    )
}

impl Builder<'_> {
    /// `{ key = expr … }`, free-form (a spec, metadata, an include's
    /// variables).
    pub(super) fn free_form(&mut self, c: &mut Cursor) -> Parsed<Node> {
        let at = c.peek().start;
        let mut entries = Entries::default();
        c.block(|c| {
            let (key, key_at) = c.object_key()?;
            c.expect(T::Assign, "'='")?;
            let e = c.expr()?;
            let v = self.value(e)?;
            self.add(&mut entries, &key, key_at, v, "the key")
        })?;
        Ok(Builder::map(at, entries))
    }

    /// A string that may interpolate (a description, a display name).
    pub(super) fn description(&mut self, c: &mut Cursor) -> Parsed<Node> {
        if c.kind() != T::StringStart {
            return c.unexpected("a string");
        }
        let e = c.string_expr()?;
        self.string_or_sub(e)
    }
}

impl Cursor {
    /// `true` or `false`.
    pub(super) fn boolean(&mut self) -> Parsed<Node> {
        let t = self.expect(T::Bool, "true or false")?;
        Ok(scalar(t.start, Value::Bool(t.text == "true")))
    }

    /// A string without interpolation (multi-line allowed), an integer, a
    /// float or a boolean.
    pub(super) fn scalar_literal(&mut self) -> Parsed<Node> {
        match self.kind() {
            T::StringStart => {
                let (s, at) = self.static_string()?;
                Ok(super::build::text(at, &s))
            }
            T::Int | T::Float | T::Bool => {
                let e = self.scalar()?;
                let v = match e.kind {
                    super::ast::ExprKind::Int(i) => Value::Int(i),
                    super::ast::ExprKind::Float(f, _) => Value::Float(f),
                    super::ast::ExprKind::Bool(b) => Value::Bool(b),
                    _ => Value::Null,
                };
                Ok(scalar(e.at, v))
            }
            _ => self.unexpected("a string, a number or a boolean"),
        }
    }
}
