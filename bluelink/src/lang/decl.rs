//! The file: its directives and declarations, each added to its section
//! of the document (`variables`, `values`, …) in the order written.

use super::ast::Text;
use super::build::{Builder, Entries, text};
use super::cursor::{Cursor, Parsed, fail};
use super::fields::unknown_field;
use super::token::TokenKind as T;
use crate::error::Pos;
use crate::node::{Kind, Node};

/// The declaration keywords, for a misspelt one's hint.
const DECLARATIONS: &[&str] = &[
    "version",
    "transform",
    "metadata",
    "variable",
    "value",
    "data",
    "resource",
    "include",
    "export",
];
const VALUE_TYPES: &[&str] = &["string", "integer", "float", "boolean", "array", "object"];

/// The parser: the tokens, the tree being built, and the document's top
/// level (its keys in the order they first appear).
pub(super) struct Reader<'k> {
    pub c: Cursor,
    pub b: Builder<'k>,
    top: Vec<(&'static str, Pos, Entries, Option<Node>)>,
}

impl<'k> Reader<'k> {
    pub(super) fn new(c: Cursor, b: Builder<'k>) -> Reader<'k> {
        Reader { c, b, top: Vec::new() }
    }

    /// The whole file, as the document.
    pub(super) fn file(mut self) -> Parsed<(Node, Builder<'k>)> {
        loop {
            self.c.skip_newlines();
            let t = self.c.peek().clone();
            match t.kind {
                T::Eof => break,
                T::Keyword("version") => self.version(t.start)?,
                T::Keyword("transform") => self.transform(t.start)?,
                T::Keyword("metadata") => {
                    self.once("metadata", t.start)?;
                    self.c.advance();
                    let m = self.b.free_form(&mut self.c)?;
                    self.single("metadata", t.start, m);
                }
                T::Keyword("variable") => self.variable(t.start)?,
                T::Keyword("value") => self.value(t.start)?,
                T::Keyword("export") => self.export(t.start)?,
                T::Keyword("include") => self.include(t.start)?,
                T::Keyword("resource") => self.resource(t.start)?,
                T::Keyword("data") => self.data(t.start)?,
                _ => {
                    let hint = match t.kind {
                        T::Ident => bpvm_runtime::suggest::closest(&t.text, DECLARATIONS)
                            .map(|k| format!(" (did you mean {k:?}?)"))
                            .unwrap_or_default(),
                        _ => String::new(),
                    };
                    let message = format!(
                        "expected a declaration ({}), found {}{hint}",
                        DECLARATIONS.join(", "),
                        t.kind.describe()
                    );
                    return fail(t.start, message);
                }
            }
        }
        if !self.top.iter().any(|(k, ..)| *k == "version") {
            return fail(
                Pos { line: 1, col: 1 },
                "the 'version' directive is missing (version \"2025-11-02\")",
            );
        }
        let mut doc = Vec::new();
        for (key, key_at, entries, single) in self.top {
            let value = single.unwrap_or_else(|| Builder::map(key_at, entries));
            doc.push(crate::node::Entry {
                key: crate::node::KeyText(self.b.keys.key(key)),
                key_at,
                value,
            });
        }
        let at = doc.first().map_or(Pos { line: 1, col: 1 }, |e| e.key_at);
        let root = Node {
            at,
            kind: Kind::Map(doc),
        };
        Ok((root, self.b))
    }

    /// Refuses a second `key` directive.
    fn once(&mut self, key: &str, at: Pos) -> Parsed<()> {
        match self.top.iter().find(|(k, ..)| *k == key) {
            Some((_, first, ..)) => fail(
                at,
                format!("'{key}' is given twice: first at {}:{}", first.line, first.col),
            ),
            None => Ok(()),
        }
    }

    fn single(&mut self, key: &'static str, at: Pos, node: Node) {
        self.top.push((key, at, Entries::default(), Some(node)));
    }

    /// Adds the declaration `name: node` to the section `key`.
    pub(super) fn declare(&mut self, key: &'static str, at: Pos, name: (Text, Pos), node: Node) -> Parsed<()> {
        let k = match self.top.iter().position(|(k, ..)| *k == key) {
            Some(k) => k,
            None => {
                self.top.push((key, at, Entries::default(), None));
                self.top.len() - 1
            }
        };
        let entries = &mut self.top[k].2;
        self.b.add(entries, &name.0, name.1, node, "the name")
    }

    fn version(&mut self, at: Pos) -> Parsed<()> {
        self.c.advance();
        let (v, v_at) = self.c.plain_string()?;
        if let Some((.., Some(first))) = self.top.iter().find(|(k, ..)| *k == "version") {
            let message = format!("'version' is given twice: first at {}:{}", first.at.line, first.at.col);
            return fail(v_at, message);
        }
        self.single("version", at, text(v_at, &v));
        Ok(())
    }

    fn transform(&mut self, at: Pos) -> Parsed<()> {
        self.once("transform", at)?;
        self.c.advance();
        let node = match self.c.kind() {
            T::StringStart => {
                let (s, s_at) = self.c.plain_string()?;
                text(s_at, &s)
            }
            T::LBracket => {
                let list_at = self.c.peek().start;
                let items = self.c.array(|c| c.plain_string().map(|(s, a)| text(a, &s)))?;
                if items.is_empty() {
                    return fail(self.c.last(), "a transform list names at least one transform");
                }
                Node {
                    at: list_at,
                    kind: Kind::List(items),
                }
            }
            _ => return self.c.unexpected("a string or a list of strings after 'transform'"),
        };
        self.single("transform", at, node);
        Ok(())
    }

    /// `name: type` of a declaration: the name, and the `type` entry. The
    /// type is one of `types`, or else, for a variable (`custom`), an
    /// element type (`aws/ec2/instanceType`).
    fn header(&mut self, types: &[&str], custom: bool, place: &str) -> Parsed<((Text, Pos), Entries)> {
        self.c.advance();
        let name = self.c.element_name()?;
        self.c.expect(T::Colon, "':'")?;
        let t = self.c.peek().clone();
        let (ty, ty_at) = match t.kind {
            T::Keyword(w) if types.contains(&w) => {
                self.c.advance();
                (t.text, t.start)
            }
            _ if custom => self.c.element_type()?,
            _ => {
                let hint = bpvm_runtime::suggest::closest(&t.text, types)
                    .map(|k| format!(" (did you mean {k:?}?)"))
                    .unwrap_or_default();
                let message = format!(
                    "expected the type of the {place} ({}), found {}{hint}",
                    types.join(", "),
                    t.kind.describe()
                );
                return fail(t.start, message);
            }
        };
        let mut entries = Entries::default();
        self.b.add(&mut entries, "type", ty_at, text(ty_at, &ty), "the field")?;
        Ok((name, entries))
    }

    fn variable(&mut self, at: Pos) -> Parsed<()> {
        const KNOWN: &[&str] = &["default", "description", "secret", "allowedValues"];
        let (name, mut entries) = self.header(&VALUE_TYPES[..4], true, "variable")?;
        let boolean = entries.0[0].value.as_str() == Some("boolean");
        let b = &mut self.b;
        self.c.block(|c| {
            let (key, key_at) = c.assignment()?;
            let v = match key.as_str() {
                "default" => c.scalar_literal()?,
                "description" => {
                    let (s, s_at) = c.static_string()?;
                    text(s_at, &s)
                }
                "secret" => c.boolean()?,
                "allowedValues" if boolean => return fail(key_at, "a boolean variable has no 'allowedValues'"),
                "allowedValues" => {
                    let list_at = c.peek().start;
                    let items = c.array(Cursor::scalar_literal)?;
                    Node {
                        at: list_at,
                        kind: Kind::List(items),
                    }
                }
                _ => return unknown_field(&key, key_at, "a variable declaration", KNOWN),
            };
            b.add(&mut entries, &key, key_at, v, "the field")
        })?;
        let node = Builder::map(name.1, entries);
        self.declare("variables", at, name, node)
    }

    fn value(&mut self, at: Pos) -> Parsed<()> {
        const KNOWN: &[&str] = &["value", "description", "secret"];
        let (name, mut entries) = self.header(VALUE_TYPES, false, "value")?;
        let b = &mut self.b;
        self.c.block(|c| {
            let (key, key_at) = c.assignment()?;
            let v = match key.as_str() {
                "value" => {
                    let e = c.expr()?;
                    b.value(e)?
                }
                "description" => b.description(c)?,
                "secret" => c.boolean()?,
                _ => return unknown_field(&key, key_at, "a value declaration", KNOWN),
            };
            b.add(&mut entries, &key, key_at, v, "the field")
        })?;
        let node = Builder::map(name.1, entries);
        self.declare("values", at, name, node)
    }

    fn export(&mut self, at: Pos) -> Parsed<()> {
        const KNOWN: &[&str] = &["field", "description"];
        let (name, mut entries) = self.header(VALUE_TYPES, false, "export")?;
        let b = &mut self.b;
        self.c.block(|c| {
            let (key, key_at) = c.assignment()?;
            let v = match key.as_str() {
                "field" if c.kind() == T::StringStart => {
                    let (s, s_at) = c.plain_string()?;
                    text(s_at, &s)
                }
                "field" => {
                    let e = c.reference_or_call()?;
                    match e.kind {
                        super::ast::ExprKind::Ref(r) => text(e.at, &r.text),
                        _ => {
                            let message = "an export's 'field' is a reference (resources.x.spec.y), not a call";
                            return fail(e.at, message);
                        }
                    }
                }
                "description" => b.description(c)?,
                _ => return unknown_field(&key, key_at, "an export declaration", KNOWN),
            };
            b.add(&mut entries, &key, key_at, v, "the field")
        })?;
        let node = Builder::map(name.1, entries);
        self.declare("exports", at, name, node)
    }

    fn include(&mut self, at: Pos) -> Parsed<()> {
        const KNOWN: &[&str] = &["description", "variables", "metadata"];
        self.c.advance();
        let name = self.c.element_name()?;
        let mut entries = Entries::default();
        let path_at = self.c.peek().start;
        let path = self.b.description(&mut self.c)?;
        self.b.add(&mut entries, "path", path_at, path, "the field")?;
        let b = &mut self.b;
        self.c.block(|c| {
            let (key, key_at) = c.field_key()?;
            let v = match key.as_str() {
                "description" => {
                    c.expect(T::Assign, "'='")?;
                    b.description(c)?
                }
                "variables" | "metadata" => b.free_form(c)?,
                _ => return unknown_field(&key, key_at, "an include declaration", KNOWN),
            };
            b.add(&mut entries, &key, key_at, v, "the field")
        })?;
        let node = Builder::map(name.1, entries);
        self.declare("include", at, name, node)
    }
}
