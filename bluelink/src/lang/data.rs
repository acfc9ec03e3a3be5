//! `data name: a/b { … }`: `metadata`, `filter`s, `export`s and a
//! description. The filters become one `filter` (a list when there are
//! several) and the exports one `exports`, where the first was written.

use super::ast::Text;
use super::build::{Builder, Entries, scalar, text};
use super::cursor::{Cursor, Parsed, fail};
use super::decl::Reader;
use super::fields::{misspelt_keyword, unknown_field};
use super::token::TokenKind as T;
use crate::error::Pos;
use crate::node::{Kind, Node};
use bpvm_runtime::Value;

/// A data source being read.
#[derive(Default)]
struct Data {
    entries: Entries,
    filters: Vec<Node>,
    /// The named exports, or where `export *` was written.
    exports: Entries,
    all: Option<Pos>,
}

impl Reader<'_> {
    pub(super) fn data(&mut self, at: Pos) -> Parsed<()> {
        self.c.advance();
        let name = self.c.element_name()?;
        self.c.expect(T::Colon, "':'")?;
        let (ty, ty_at) = self.c.element_type()?;
        let mut d = Data::default();
        self.b
            .add(&mut d.entries, "type", ty_at, text(ty_at, &ty), "the field")?;
        let b = &mut self.b;
        self.c.block(|c| b.data_entry(c, &mut d))?;
        let Data {
            mut entries,
            mut filters,
            mut exports,
            all,
        } = d;
        for e in &mut entries.0 {
            match e.key.as_str() {
                "filter" if filters.len() == 1 => e.value = filters.remove(0),
                "filter" => {
                    e.value = Node {
                        at: e.key_at,
                        kind: Kind::List(std::mem::take(&mut filters)),
                    };
                }
                "exports" => {
                    e.value = match all {
                        Some(star) => text(star, "*"),
                        None => Builder::map(e.key_at, std::mem::take(&mut exports)),
                    };
                }
                _ => {}
            }
        }
        let node = Builder::map(name.1, entries);
        self.declare("datasources", at, name, node)
    }
}

impl Builder<'_> {
    fn data_entry(&mut self, c: &mut Cursor, d: &mut Data) -> Parsed<()> {
        let t = c.peek().clone();
        match t.kind {
            T::Keyword("metadata") => {
                c.advance();
                let m = self.resource_metadata(c, false)?;
                self.add(&mut d.entries, "metadata", t.start, m, "the field")
            }
            T::Keyword("filter") => {
                let f = self.filter(c)?;
                if d.filters.is_empty() {
                    self.add(
                        &mut d.entries,
                        "filter",
                        t.start,
                        scalar(t.start, Value::Null),
                        "the field",
                    )?;
                }
                d.filters.push(f);
                Ok(())
            }
            T::Keyword("export") => self.data_export(c, d),
            T::Ident if c.kind_at(1) != T::Assign => {
                misspelt_keyword(&t.text, t.start, "a data source", &["metadata", "filter", "export"])
            }
            T::Ident => {
                let (key, key_at) = c.assignment()?;
                if key != "description" {
                    return unknown_field(&key, key_at, "a data declaration", &["description"]);
                }
                let v = self.description(c)?;
                self.add(&mut d.entries, &key, key_at, v, "the field")
            }
            _ => c.unexpected("'metadata', 'filter', 'export' or a field (name = value) in a data source"),
        }
    }

    /// `filter "field" op search`.
    fn filter(&mut self, c: &mut Cursor) -> Parsed<Node> {
        let open = c.advance();
        if c.kind() != T::StringStart {
            return c.unexpected("a string naming the field to filter on");
        }
        let (field, field_at) = c.plain_string()?;
        let (op, op_at) = operator(c)?;
        let search = c.expr()?;
        let search_at = search.at;
        let search = match search.kind {
            super::ast::ExprKind::List(items) => {
                let items = items
                    .into_iter()
                    .map(|i| self.string_or_sub(i))
                    .collect::<Parsed<_>>()?;
                Node {
                    at: search_at,
                    kind: Kind::List(items),
                }
            }
            kind => self.string_or_sub(super::ast::Expr { at: search_at, kind })?,
        };
        let mut entries = Entries::default();
        self.add(&mut entries, "field", field_at, text(field_at, &field), "the field")?;
        self.add(&mut entries, "operator", op_at, text(op_at, &op), "the field")?;
        self.add(&mut entries, "search", search_at, search, "the field")?;
        Ok(Builder::map(open.start, entries))
    }

    /// `export *`, or `export name [as alias]: type [{ description = … }]`.
    fn data_export(&mut self, c: &mut Cursor, d: &mut Data) -> Parsed<()> {
        const TYPES: &[&str] = &["string", "integer", "float", "boolean", "array"];
        let export = c.advance();
        let mixed = "'export *' exports every field: it is not given with named exports";
        if d.all.is_none() && d.exports.0.is_empty() {
            self.add(
                &mut d.entries,
                "exports",
                export.start,
                scalar(export.start, Value::Null),
                "the field",
            )?;
        }
        if let Some(star) = c.eat(T::Star) {
            if d.all.is_some() || !d.exports.0.is_empty() {
                return fail(export.start, mixed);
            }
            d.all = Some(star.start);
            return Ok(());
        }
        if d.all.is_some() {
            return fail(export.start, mixed);
        }
        let (source, source_at) = c.element_name()?;
        let alias = match c.eat(T::Keyword("as")) {
            Some(_) => Some(c.element_name()?),
            None => None,
        };
        c.expect(T::Colon, "':'")?;
        let t = c.peek().clone();
        let ty = match t.kind {
            T::Keyword(w) if TYPES.contains(&w) => c.advance(),
            _ => {
                let message = format!(
                    "expected the type of the data source export ({}), found {}",
                    TYPES.join(", "),
                    t.kind.describe()
                );
                return fail(t.start, message);
            }
        };
        let mut entries = Entries::default();
        self.add(&mut entries, "type", ty.start, text(ty.start, &ty.text), "the field")?;
        if alias.is_some() {
            self.add(
                &mut entries,
                "aliasFor",
                source_at,
                text(source_at, &source),
                "the field",
            )?;
        }
        if c.kind() == T::LBrace {
            c.block(|c| {
                let (key, key_at) = c.assignment()?;
                if key != "description" {
                    return unknown_field(&key, key_at, "a data source export", &["description"]);
                }
                let v = self.description(c)?;
                self.add(&mut entries, &key, key_at, v, "the field")
            })?;
        }
        let (name, name_at) = alias.unwrap_or((source, source_at));
        self.add(
            &mut d.exports,
            &name,
            name_at,
            Builder::map(name_at, entries),
            "the export",
        )
    }
}

/// A filter's operator: `==` is `=`, and `not` goes before `in`, `has
/// key`, `contains`, `starts with` and `ends with`.
fn operator(c: &mut Cursor) -> Parsed<(Text, Pos)> {
    let at = c.peek().start;
    let not = c.eat(T::Keyword("not")).is_some();
    let t = c.peek().clone();
    let word = match t.kind {
        T::Keyword("in") => "in",
        T::Keyword("contains") => "contains",
        T::Keyword("has") => {
            c.advance();
            c.expect(T::Keyword("key"), "'key' after 'has'")?;
            "has key"
        }
        T::Keyword(w @ ("starts" | "ends")) => {
            c.advance();
            c.expect(T::Keyword("with"), &format!("'with' after '{w}'"))?;
            if w == "starts" { "starts with" } else { "ends with" }
        }
        _ if not => {
            return fail(
                at,
                "'not' goes before 'in', 'has key', 'contains', 'starts with' or 'ends with' only",
            );
        }
        T::Eq => "=",
        T::Neq => "!=",
        T::Gt => ">",
        T::Lt => "<",
        T::Ge => ">=",
        T::Le => "<=",
        _ => {
            return c
                .unexpected("a filter operator (==, !=, <, <=, >, >=, in, has key, contains, starts with, ends with)");
        }
    };
    if !matches!(word, "has key" | "starts with" | "ends with") {
        c.advance();
    }
    let operator = if not {
        format!("not {word}").into()
    } else {
        Text::from(word)
    };
    Ok((operator, at))
}
