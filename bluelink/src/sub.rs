//! Blueprint values with `${..}` substitutions, compiled once: a [`Tree`]
//! mirrors a value of the document, its strings with substitutions
//! replaced by compiled programs that know what they [`Ref`]er to.

use super::distinct::Distinct;
use super::error::Pos;
use bpvm_compiler::template::{Part, split};
use bpvm_runtime::{Key, Value};
use bpvm_vm::{Path, Program, Seg};
use std::sync::Arc;

/// A value as written, its substitutions compiled.
#[derive(Debug, Clone)]
pub enum Tree {
    /// A scalar without substitutions (a string's text is shared with
    /// every render).
    Lit(Value),
    /// A string with one or more `${..}` (held in place: a boxed one
    /// would be an allocation of its own for every substitution).
    Sub(Sub),
    /// A sequence.
    List(Vec<Tree>),
    /// A mapping, in document order (keys hashed once, when loaded).
    Map(Vec<(Key, Tree)>),
}

/// A compiled string-or-substitutions value.
#[derive(Debug, Clone)]
pub struct Sub {
    /// The program: the string's parts evaluated and joined, or, for a
    /// string that is one `${..}`, that substitution's value.
    pub prog: Arc<Program>,
    /// Where the string starts.
    pub at: Pos,
    /// Its path in the blueprint (`resources.fn.spec.timeout`).
    pub path: String,
    /// The definitions it reads (each once), resolved to their positions
    /// when the blueprint was loaded.
    pub defs: Arc<[Def]>,
}

impl Sub {
    /// The string as written (kept in the output when the value can only
    /// be known at deploy time): the program's source.
    pub fn text(&self) -> &str {
        &self.prog.source
    }

    /// What it reads, in order of first use (found again when asked:
    /// few substitutions are asked, and every one would hold them).
    pub fn refs(&self) -> Vec<Ref> {
        refs(&self.prog)
    }
}

/// A definition, by its position in its section of the blueprint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Def {
    /// `variables`
    Variable(usize),
    /// `values`
    Value(usize),
    /// `datasources`
    DataSource(usize),
    /// `resources`
    Resource(usize),
    /// `include`
    Child(usize),
}

/// Something a substitution reads: its names owned (`Ref`), or borrowed
/// from the program that reads them (`Ref<&str>`, while it is checked).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Ref<S = String> {
    /// `variables.name`
    Variable(S),
    /// `values.name`
    Value(S),
    /// `datasources.name.field`
    DataSource(S, S),
    /// `resources.name` or a bare `name`
    Resource(S),
    /// `children.name.export`
    Child(S, S),
    /// `elem`
    Elem,
    /// `i`
    Index,
}

impl<'p> Ref<&'p str> {
    /// The reference a program's environment path makes.
    fn of(path: &'p Path) -> Option<Ref<&'p str>> {
        let key = |i: usize| match path.segs.get(i) {
            Some(Seg::Key(k, _)) => Some(k.as_str()),
            _ => None,
        };
        Some(match key(0)? {
            "variables" => Ref::Variable(key(1)?),
            "values" => Ref::Value(key(1)?),
            "datasources" => Ref::DataSource(key(1)?, key(2)?),
            "resources" => Ref::Resource(key(1)?),
            "children" => Ref::Child(key(1)?, key(2)?),
            "elem" => Ref::Elem,
            "i" => Ref::Index,
            _ => return None,
        })
    }

    /// The reference with its names owned.
    pub fn owned(&self) -> Ref {
        match *self {
            Ref::Variable(n) => Ref::Variable(n.to_string()),
            Ref::Value(n) => Ref::Value(n.to_string()),
            Ref::DataSource(n, f) => Ref::DataSource(n.to_string(), f.to_string()),
            Ref::Resource(n) => Ref::Resource(n.to_string()),
            Ref::Child(n, e) => Ref::Child(n.to_string(), e.to_string()),
            Ref::Elem => Ref::Elem,
            Ref::Index => Ref::Index,
        }
    }
}

impl Ref {
    /// The reference with its names borrowed.
    pub fn borrowed(&self) -> Ref<&str> {
        match self {
            Ref::Variable(n) => Ref::Variable(n),
            Ref::Value(n) => Ref::Value(n),
            Ref::DataSource(n, f) => Ref::DataSource(n, f),
            Ref::Resource(n) => Ref::Resource(n),
            Ref::Child(n, e) => Ref::Child(n, e),
            Ref::Elem => Ref::Elem,
            Ref::Index => Ref::Index,
        }
    }
}

impl<S: AsRef<str>> Ref<S> {
    /// The reference as written (`values.bucketNames`).
    pub fn describe(&self) -> String {
        match self {
            Ref::Variable(n) => format!("variables.{}", n.as_ref()),
            Ref::Value(n) => format!("values.{}", n.as_ref()),
            Ref::DataSource(n, f) => format!("datasources.{}.{}", n.as_ref(), f.as_ref()),
            Ref::Resource(n) => format!("resources.{}", n.as_ref()),
            Ref::Child(n, e) => format!("children.{}.{}", n.as_ref(), e.as_ref()),
            Ref::Elem => "elem".into(),
            Ref::Index => "i".into(),
        }
    }
}

/// The distinct references of a program, in order of first use.
pub fn refs(prog: &Program) -> Vec<Ref> {
    refs_in(prog).iter().map(Ref::owned).collect()
}

/// [`refs`], borrowed from the program (no text copied).
pub fn refs_in(prog: &Program) -> Vec<Ref<&str>> {
    let mut out = Distinct::new();
    for r in prog.loads().filter_map(Ref::of) {
        out.insert(r);
    }
    out.into_vec()
}

/// True when `s` has a `${..}` (a `$${` escape is not one). A string
/// that fails to split counts: compiling it reports why.
pub fn has_substitution(s: &str) -> bool {
    if !s.contains("${") {
        return false;
    }
    // Without a `$${` escape the first `${` starts one (or fails to split,
    // which counts): no need to split the text here and again to compile it.
    if !s.contains("$${") {
        return true;
    }
    match split(s) {
        Ok(parts) => parts.iter().any(|p| matches!(p, Part::Expr(_))),
        Err(_) => true,
    }
}

impl Tree {
    /// Every substitution inside, in document order.
    pub fn subs(&self) -> Vec<&Sub> {
        let mut out = Vec::new();
        self.subs_into(&mut out);
        out
    }

    /// Every substitution inside, in document order, added to `out` (a
    /// definition's many values gather theirs in one vector).
    pub fn subs_into<'t>(&'t self, out: &mut Vec<&'t Sub>) {
        match self {
            Tree::Lit(_) => {}
            Tree::Sub(s) => out.push(s),
            Tree::List(items) => items.iter().for_each(|t| t.subs_into(out)),
            Tree::Map(entries) => entries.iter().for_each(|(_, t)| t.subs_into(out)),
        }
    }
}
