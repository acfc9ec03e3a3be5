//! `resource name: a/b/c { … }`: fields, `metadata`, `select by label`,
//! `spec` and `foreach`.

use super::ast::{Expr, ExprKind, Text};
use super::build::{Builder, Entries, text};
use super::cursor::{Cursor, Parsed, fail};
use super::decl::Reader;
use super::fields::{misspelt_keyword, unknown_field};
use super::token::TokenKind as T;
use crate::error::Pos;
use crate::node::{Kind, Node};

impl Reader<'_> {
    pub(super) fn resource(&mut self, at: Pos) -> Parsed<()> {
        self.c.advance();
        let name = self.c.element_name()?;
        self.c.expect(T::Colon, "':'")?;
        let (ty, ty_at) = self.c.element_type()?;
        let mut entries = Entries::default();
        self.b.add(&mut entries, "type", ty_at, text(ty_at, &ty), "the field")?;
        let b = &mut self.b;
        self.c.block(|c| b.resource_entry(c, &mut entries))?;
        if !entries.0.iter().any(|e| e.key.as_str() == "spec") {
            return fail(name.1, format!("resource {:?} has no 'spec {{ … }}' block", name.0));
        }
        let node = Builder::map(name.1, entries);
        self.declare("resources", at, name, node)
    }
}

impl Builder<'_> {
    fn resource_entry(&mut self, c: &mut Cursor, entries: &mut Entries) -> Parsed<()> {
        const KNOWN: &[&str] = &["description", "condition", "dependsOn", "removalPolicy"];
        let t = c.peek().clone();
        let (key, key_at, v) = match t.kind {
            T::Keyword("metadata") => {
                c.advance();
                (Text::const_new("metadata"), t.start, self.resource_metadata(c, true)?)
            }
            T::Keyword("select") => (Text::const_new("linkSelector"), t.start, self.select(c)?),
            T::Keyword("spec") => {
                c.advance();
                (Text::const_new("spec"), t.start, self.free_form(c)?)
            }
            T::Keyword("foreach") => {
                c.advance();
                let e = c.expr()?;
                (Text::const_new("each"), t.start, self.string_or_sub(e)?)
            }
            T::Ident if c.kind_at(1) != T::Assign => {
                return misspelt_keyword(
                    &t.text,
                    t.start,
                    "a resource",
                    &["metadata", "select", "spec", "foreach"],
                );
            }
            T::Ident => {
                let (key, key_at) = c.assignment()?;
                let v = match key.as_str() {
                    "description" => self.description(c)?,
                    "condition" => {
                        let e = c.expr()?;
                        self.condition(e)?
                    }
                    "dependsOn" => names(c.expr()?, "dependsOn")?,
                    "removalPolicy" => removal_policy(c)?,
                    _ => return unknown_field(&key, key_at, "a resource declaration", KNOWN),
                };
                (key, key_at, v)
            }
            _ => {
                return c.unexpected("'metadata', 'select', 'spec', 'foreach' or a field (name = value) in a resource");
            }
        };
        self.add(entries, &key, key_at, v, "the field")
    }

    /// A resource's `metadata { … }` (a data source's has no `labels`).
    pub(super) fn resource_metadata(&mut self, c: &mut Cursor, labels: bool) -> Parsed<Node> {
        let at = c.peek().start;
        let (known, place): (&[&str], _) = if labels {
            (&["displayName", "labels", "annotations", "custom"], "resource metadata")
        } else {
            (&["displayName", "annotations", "custom"], "data source metadata")
        };
        let mut entries = Entries::default();
        c.block(|c| {
            let (key, key_at) = c.assignment()?;
            let v = match key.as_str() {
                "displayName" => self.description(c)?,
                "labels" if labels => {
                    let fields = object(c.expr()?, "labels")?;
                    let mut m = Entries::default();
                    for f in fields.1 {
                        let ExprKind::Str(s) = &f.value.kind else {
                            return fail(
                                f.value.at,
                                format!("the label {:?} takes a string (without interpolation)", f.key),
                            );
                        };
                        self.add(&mut m, &f.key, f.key_at, text(f.value.at, s), "the label")?;
                    }
                    Builder::map(fields.0, m)
                }
                "annotations" => {
                    let fields = object(c.expr()?, "annotations")?;
                    let mut m = Entries::default();
                    for f in fields.1 {
                        let v = self.string_or_sub(f.value)?;
                        self.add(&mut m, &f.key, f.key_at, v, "the annotation")?;
                    }
                    Builder::map(fields.0, m)
                }
                "custom" => {
                    let e = c.expr()?;
                    self.value(e)?
                }
                _ => return unknown_field(&key, key_at, place, known),
            };
            self.add(&mut entries, &key, key_at, v, "the field")
        })?;
        Ok(Builder::map(at, entries))
    }

    /// `select by label { key = "value" … exclude = names }`.
    fn select(&mut self, c: &mut Cursor) -> Parsed<Node> {
        let select = c.advance();
        let by = c.expect(T::Keyword("by"), "'by label' after 'select'")?;
        c.expect(T::Keyword("label"), "'label' after 'select by'")?;
        let labels_at = c.peek().start;
        let (mut labels, mut exclude) = (Entries::default(), None);
        c.block(|c| {
            let (key, key_at) = c.object_key()?;
            c.expect(T::Assign, "'='")?;
            if key == "exclude" {
                exclude = Some((key_at, names(c.expr()?, "exclude")?));
                return Ok(());
            }
            if c.kind() != T::StringStart {
                let t = c.peek();
                let message = format!("the label {key:?} takes a string, found {}", t.kind.describe());
                return fail(t.start, message);
            }
            let (s, s_at) = c.plain_string()?;
            self.add(&mut labels, &key, key_at, text(s_at, &s), "the label")
        })?;
        let mut entries = Entries::default();
        self.add(
            &mut entries,
            "byLabel",
            by.start,
            Builder::map(labels_at, labels),
            "the field",
        )?;
        if let Some((at, list)) = exclude {
            self.add(&mut entries, "exclude", at, list, "the field")?;
        }
        Ok(Builder::map(select.start, entries))
    }

    /// A condition: an object `{ and = […] }`, `{ or = […] }` or
    /// `{ not = c }`, else an expression.
    fn condition(&mut self, e: Expr) -> Parsed<Node> {
        let ExprKind::Object(fields) = e.kind else {
            return self.string_or_sub(e);
        };
        let mut fields = fields.into_iter();
        let (Some(f), None) = (fields.next(), fields.next()) else {
            return fail(e.at, "a condition object has exactly one of 'and', 'or' and 'not'");
        };
        let v = match f.key.as_str() {
            "and" | "or" => {
                let ExprKind::List(items) = f.value.kind else {
                    return fail(f.value.at, "'and' and 'or' take a list of conditions");
                };
                let items = items.into_iter().map(|i| self.condition(i)).collect::<Parsed<_>>()?;
                Node {
                    at: f.value.at,
                    kind: Kind::List(items),
                }
            }
            "not" => self.condition(f.value)?,
            _ => {
                let message = format!(
                    "unknown field {:?} in a condition object; expected one of: and, or, not",
                    f.key
                );
                return fail(f.key_at, message);
            }
        };
        let mut entries = Entries::default();
        self.add(&mut entries, &f.key, f.key_at, v, "the field")?;
        Ok(Builder::map(e.at, entries))
    }
}

/// An object literal's place and fields; `field` names what must be one.
fn object(e: Expr, field: &str) -> Parsed<(Pos, Vec<super::ast::Field>)> {
    match e.kind {
        ExprKind::Object(fields) => Ok((e.at, fields)),
        _ => fail(e.at, format!("{field:?} takes an object literal ({{ key = value }})")),
    }
}

/// Resource names (`dependsOn`, `exclude`): one or a list, each a string
/// or a bare resource. One written without brackets stays one (a YAML
/// scalar), so that a blueprint converted from YAML comes back as it was.
fn names(e: Expr, field: &str) -> Parsed<Node> {
    let at = e.at;
    let items = match e.kind {
        ExprKind::List(items) => items,
        kind => return name(Expr { at, kind }, field),
    };
    let out = items.into_iter().map(|i| name(i, field)).collect::<Parsed<_>>()?;
    Ok(Node {
        at,
        kind: Kind::List(out),
    })
}

/// One resource name: a string or a bare resource.
fn name(item: Expr, field: &str) -> Parsed<Node> {
    match &item.kind {
        ExprKind::Str(s) => Ok(text(item.at, s)),
        ExprKind::Ref(r) if r.resource.is_some() => Ok(text(item.at, r.resource.as_deref().unwrap_or_default())),
        _ => fail(
            item.at,
            format!("each entry of {field} is a string or a resource's name"),
        ),
    }
}

fn removal_policy(c: &mut Cursor) -> Parsed<Node> {
    if c.kind() != T::StringStart {
        let t = c.peek();
        let message = format!("removalPolicy is a literal string, found {}", t.kind.describe());
        return fail(t.start, message);
    }
    let (s, at) = c.plain_string()?;
    if !matches!(s.as_str(), "delete" | "retain") {
        let hint = bpvm_runtime::suggest::closest(&s, &["delete", "retain"])
            .map(|k| format!(" (did you mean {k:?}?)"))
            .unwrap_or_default();
        return fail(
            at,
            format!("removalPolicy is \"delete\" or \"retain\", found {s:?}{hint}"),
        );
    }
    Ok(text(at, &s))
}
