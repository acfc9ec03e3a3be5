//! Reading a blueprint document into a [`Blueprint`]: the whole document
//! is validated before anything is evaluated, and every problem is
//! reported at once with its file, line:column and path.
//!
//! The loader is one type, `Loader`, whose reading of each section lives in a
//! file of its own here (variables, definitions, data sources, resources,
//! accessors), and the name an undefined reference probably meant in
//! `nearest`. It imports the document tree (`node`, and `lang`, which
//! reads a `.bp` file into the same tree), the blueprint model
//! (`blueprint`, `sub`) and `render`'s wording of a value; never the
//! renderer itself.

mod accessors;
mod datasource;
mod definitions;
mod nearest;
mod resource;
mod shape;
mod variables;

pub use shape::{SCHEMA, VERSIONS};

use super::blueprint::{Blueprint, Index, Type};
use super::distinct::Distinct;
use super::error::{Error, Errors, Pos, hinted};
use super::key_table::{ByHash, KeyTable};
use super::lang::{self, Origins};
use super::node::{Entry, Kind, Node, read_keys};
use super::place::Lines;
use super::sub::{Def, Ref, Sub, Tree, has_substitution, refs_in};
use bpvm_compiler::{Compiler, Dialect};
use bpvm_runtime::root::{Fetched, Root};
use bpvm_runtime::shape::Field;
use bpvm_runtime::{Key, Map, Value, hash_key};
use bpvm_vm::{Op, Program, Seg};
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

/// A blueprint's version, when it is one of [`VERSIONS`]: what it may
/// hold besides seed 002's fields (B12).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    /// `2023-04-20`, seed 002.
    V2023,
    /// `2025-11-02`: resource `removalPolicy`, `linkSelector.exclude`,
    /// data source `exports: "*"`, a list of filters and the `>`, `<`,
    /// `>=`, `<=` operators, and values written as mappings, lists and
    /// typed scalars.
    V2025,
}

/// A resource's fields a render always replaces, and those of its
/// `metadata` (see `output::resource`).
const RENDERED: &[&str] = &["spec", "description", "each"];
const RENDERED_METADATA: &[&str] = &["displayName", "annotations", "custom"];
const VALUE_TYPES: &[Type] = &[
    Type::String,
    Type::Integer,
    Type::Float,
    Type::Boolean,
    Type::Array,
    Type::Object,
];
const FIELD_TYPES: &[Type] = &[Type::Array, Type::String, Type::Integer, Type::Float, Type::Boolean];

/// Reads and validates the blueprint at `path`; `file` names it in messages.
/// Like every file a blueprint makes bpvm read, it must be a regular file
/// of at most 64 MiB.
pub fn load(path: &Path, file: &str) -> Result<Blueprint, Errors> {
    let refused = |message: String| Error {
        file: file.to_string(),
        at: Pos::default(),
        path: String::new(),
        message,
        source: None,
    };
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = abs.parent().unwrap_or(Path::new("/"));
    let root = Root::new(dir, "blueprint folder").map_err(|e| refused(format!("cannot read the blueprint: {e}")))?;
    // Governed (D10): the blueprint and its documents within one limit.
    bpvm_runtime::govern::govern(|| load_in(&root, &abs, file))
}

/// Reads and validates the blueprint at `path`, which must be inside
/// `root` (an included child).
pub fn load_in(root: &Root, path: &Path, file: &str) -> Result<Blueprint, Errors> {
    let refused = |message: String| Error {
        file: file.to_string(),
        at: Pos::default(),
        path: String::new(),
        message: format!("cannot read the blueprint: {message}"),
        source: None,
    };
    // One open through the root gives both the bytes and where they are.
    let fetched = root
        .fetch(root.dir(), &path.to_string_lossy())
        .map_err(|e| Errors::from(refused(e.to_string())))?;
    load_fetched(fetched, &path.to_string_lossy(), file)
}

/// Reads and validates a blueprint already read through its root (`path`
/// as it was written, for messages).
pub fn load_fetched(fetched: Fetched, path: &str, file: &str) -> Result<Blueprint, Errors> {
    let refused = |message: String| Error {
        file: file.to_string(),
        at: Pos::default(),
        path: String::new(),
        message: format!("cannot read the blueprint: {message}"),
        source: None,
    };
    let real = fetched.path;
    let text = String::from_utf8(fetched.bytes).map_err(|_| refused(format!("{path:?} is not UTF-8 text")))?;
    let text: Arc<str> = text.into();
    let (doc, keys, origins) = read_doc(&text, file, path)?;
    from_doc(doc, keys, origins, file, &real, text)
}

/// Validates blueprint text: YAML or JSON, or Bluelink's `.bp` language
/// when `path` names a `.bp` or `.blueprint` file.
///
/// ```
/// use bpvm_bluelink::load::parse;
/// let text = "version: 2023-04-20\nresources:\n  fn:\n    type: ${variables.t}\n    spec: {}\n";
/// let e = parse(text, "bp.yaml", std::path::Path::new("/bp.yaml")).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "bp.yaml:4:11: error: resources.fn.type: substitutions are not allowed here: references can not be used in the resource type property (seed 002)\n  \
///        |\n\
///      4 |     type: ${variables.t}\n  \
///        |           ^\n"
/// );
/// ```
pub fn parse(text: &str, file: &str, path: &Path) -> Result<Blueprint, Errors> {
    let (doc, keys, origins) = read_doc(text, file, &path.to_string_lossy())?;
    from_doc(doc, keys, origins, file, path, text.into())
}

/// Reads the document of the blueprint file `name`: the `.bp` language for
/// a `.bp` or `.blueprint` file, else YAML or JSON. The one place a
/// blueprint's language is chosen.
fn read_doc(text: &str, file: &str, name: &str) -> Result<(Node, KeyTable, Origins), Errors> {
    let mut keys = KeyTable::default();
    let read = if lang::is_bp(name) {
        lang::read_keys(text, &mut keys)
    } else {
        read_keys(text, &mut keys).map(|doc| (doc, Origins::default()))
    };
    let (doc, origins) = read.map_err(|e| {
        let mut errors = [Error::new(file, e.at, "", e.message)];
        Lines::new(text).excerpts(&mut errors, file);
        Errors::new(errors.into())
    })?;
    Ok((doc, keys, origins))
}

/// The blueprint of `doc`, read from `text`: the blueprint keeps the
/// text, for the line under each problem a render finds in it.
fn from_doc(
    doc: Node,
    keys: KeyTable,
    origins: Origins,
    file: &str,
    path: &Path,
    text: Arc<str>,
) -> Result<Blueprint, Errors> {
    let mut l = Loader {
        file: file.to_string(),
        errors: Vec::new(),
        inside: Vec::new(),
        compiler: Compiler::new(Dialect::Bluelink),
        names: Index::default(),
        in_each: false,
        hints: 0,
        export_all: Default::default(),
        keys,
        programs: HashMap::default(),
        origins,
        version: match doc.get("version").and_then(Node::as_str) {
            Some("2023-04-20") => Some(Version::V2023),
            Some("2025-11-02") => Some(Version::V2025),
            _ => None,
        },
    };
    let bp = l.blueprint(doc, path, text);
    if l.errors.is_empty() {
        return Ok(bp);
    }
    crate::inside::refine(&mut l.errors, &l.inside, &bp.text);
    l.errors.sort_by_key(|e| e.at);
    Lines::new(&bp.text).excerpts(&mut l.errors, file);
    Err(Errors::new(l.errors))
}

/// A substitution text compiled before: its program, and the definitions
/// it reads when they were found without a problem and do not depend on
/// where the text is written (else its references, checked at each place).
enum Compiled {
    Checked(Arc<Program>, Arc<[Def]>),
    Unchecked(Arc<Program>, Rc<[Ref]>),
}

struct Loader {
    file: String,
    errors: Vec<Error>,
    /// The errors found inside a string of a YAML or JSON file, placed on
    /// the part at fault once the loading is done.
    inside: Vec<crate::inside::Inside>,
    compiler: Compiler,
    /// The blueprint's names, for checking references.
    names: Index,
    /// True inside a resource with `each` (where `elem` and `i` exist).
    in_each: bool,
    /// Did-you-means given so far (at most [`nearest::HINTS`]).
    hints: usize,
    /// The version, when it is a supported one (else version-dependent
    /// fields are not reported: the version itself is).
    version: Option<Version>,
    /// Data sources with `exports: "*"` (every field of the data).
    export_all: std::collections::HashSet<String>,
    /// Every mapping key made so far, the document's first: a key
    /// written in many places (`spec`, `name`) shares one text.
    keys: KeyTable,
    /// Every substitution text compiled so far, with what it reads.
    programs: HashMap<u64, (Arc<str>, Compiled), ByHash>,
    /// Where the pieces of substitution text lowered from a `.bp` file
    /// were written (empty for YAML and JSON).
    origins: Origins,
}

/// Where to look for what an undefined reference probably meant.
enum Near<'n> {
    None,
    /// A section's names, and the prefix a reference writes before one.
    Name(&'static str, &'n HashMap<String, usize>, &'n str),
    /// The data sources' names.
    Source(&'n HashMap<String, (usize, Vec<String>)>, &'n str),
    /// A data source's exported fields.
    Export(&'n str, &'n [String], &'n str),
}

/// Where a value is in the document (`resources.fn.spec.timeout`), its
/// text made only when needed: by a substitution, which keeps it, or a
/// problem, which names it.
enum At<'a> {
    Root(&'a str),
    Key(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    fn text(&self) -> String {
        // Sized exactly: a substitution keeps it.
        let mut out = String::with_capacity(self.len());
        self.write(&mut out);
        out
    }

    fn len(&self) -> usize {
        match self {
            At::Root(path) => path.len(),
            At::Key(parent, key) => match parent.len() {
                0 => key.len(),
                n => n + 1 + key.len(),
            },
            At::Index(parent, i) => parent.len() + 2 + i.checked_ilog10().unwrap_or(0) as usize + 1,
        }
    }

    fn write(&self, out: &mut String) {
        match self {
            At::Root(path) => out.push_str(path),
            At::Key(parent, key) => {
                parent.write(out);
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            At::Index(parent, i) => {
                parent.write(out);
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
        }
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

impl Loader {
    fn fail(&mut self, at: Pos, path: &str, message: impl Into<String>) {
        self.errors.push(Error {
            file: self.file.clone(),
            at,
            path: path.to_string(),
            message: message.into(),
            source: None,
        });
    }

    /// The last error is at byte `offset` of the string `written` (once
    /// placed there, its message is `placed`, when given).
    fn inside(&mut self, written: &str, offset: Option<usize>, placed: Option<String>) {
        let (Some(offset), true) = (offset, self.origins.is_empty()) else {
            return;
        };
        self.inside.push(crate::inside::Inside {
            error: self.errors.len() - 1,
            written: written.to_string(),
            offset,
            placed,
        });
    }

    /// True when the blueprint's version has `what`, a field version
    /// 2025-11-02 adds; under 2023-04-20 it is an error naming the version.
    fn since_2025(&mut self, at: Pos, path: &str, what: &str) -> bool {
        if self.version == Some(Version::V2023) {
            let message = format!("{what} is new in version 2025-11-02; this blueprint is version 2023-04-20");
            self.fail(at, path, message);
            return false;
        }
        true
    }

    /// A mapping's entries; a key no field of `table` names and a missing
    /// required field are errors.
    fn fields<'n>(&mut self, node: &'n Node, path: &str, table: &[Field]) -> &'n [Entry] {
        let Some(entries) = node.entries() else {
            self.fail(node.at, path, format!("expected a mapping, found {}", node.describe()));
            return &[];
        };
        for e in entries {
            if !table.iter().any(|f| f.name == e.key.as_str()) {
                let known: Vec<&str> = table.iter().map(|f| f.name).collect();
                let hint = match bpvm_runtime::suggest::closest(&e.key, &known) {
                    Some(k) => format!(" (did you mean {k:?}?)"),
                    None => String::new(),
                };
                let message = format!("unknown field {:?}{hint}; expected one of: {}", e.key, known.join(", "));
                self.fail(e.key_at, &join(path, &e.key), message);
            }
        }
        for r in table.iter().filter(|f| f.required).map(|f| f.name) {
            if !entries.iter().any(|e| e.key.as_str() == r) {
                self.fail(node.at, path, format!("the required field {r:?} is missing"));
            }
        }
        entries
    }

    /// A mapping whose keys are names; each key must be a valid name.
    fn named<'n>(&mut self, node: &'n Node, path: &str) -> &'n [Entry] {
        let Some(entries) = node.entries() else {
            self.fail(node.at, path, format!("expected a mapping, found {}", node.describe()));
            return &[];
        };
        for e in entries {
            // Any name a reference can write: `["name"]` takes letters,
            // digits, '_', '-' and '.' (seed 002, "name in quotes").
            let ok = !e.key.is_empty()
                && e.key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
            if has_substitution(&e.key) {
                self.no_sub_key(e, path);
            } else if !ok {
                let message = format!(
                    "{:?} is not a valid name: a name has letters, digits, '_', '-' and '.' (seed 002)",
                    e.key
                );
                self.fail(e.key_at, &join(path, &e.key), message);
            }
        }
        entries
    }

    /// A section of named definitions, each read by `read` (`None` when
    /// it is invalid: the problem is recorded).
    ///
    /// Each definition's part of the document is dropped once read, so a
    /// large blueprint is never held both as written and as loaded.
    fn section<T>(&mut self, node: Node, path: &str, read: fn(&mut Loader, &Entry) -> Option<T>) -> Vec<T> {
        let n = self.named(&node, path).len();
        let Kind::Map(entries) = node.kind else {
            return Vec::new();
        };
        let mut out = Vec::with_capacity(n);
        for e in entries {
            out.extend(read(self, &e));
        }
        out
    }

    fn no_sub_key(&mut self, e: &Entry, path: &str) {
        self.fail(
            e.key_at,
            &join(path, &e.key),
            "substitutions are not allowed here: references can not be used in mapping keys (seed 002)",
        );
    }

    /// A value where substitutions are not allowed (`place` says where,
    /// in the seed's words); mapping keys are checked too.
    fn literal(&mut self, node: &Node, path: &str, place: &str) -> Value {
        match &node.kind {
            Kind::Scalar(Value::Str(s)) if has_substitution(s) => {
                self.fail(
                    node.at,
                    path,
                    format!("substitutions are not allowed here: references can not be used in {place} (seed 002)"),
                );
            }
            Kind::Scalar(_) => {}
            Kind::List(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.literal(item, &format!("{path}[{i}]"), place);
                }
            }
            Kind::Map(entries) => {
                for e in entries {
                    if has_substitution(&e.key) {
                        self.no_sub_key(e, path);
                    }
                    self.literal(&e.value, &join(path, &e.key), place);
                }
            }
        }
        node.to_value()
    }

    /// A string where substitutions are not allowed.
    fn plain_str(&mut self, node: &Node, path: &str, place: &str) -> Option<String> {
        let before = self.errors.len();
        self.literal(node, path, place);
        if self.errors.len() > before {
            return None;
        }
        match node.as_str() {
            Some(s) => Some(s.to_string()),
            None => {
                self.fail(node.at, path, format!("expected a string, found {}", node.describe()));
                None
            }
        }
    }

    /// A type name, one of `allowed`, where substitutions are not allowed;
    /// `what` names the kind of type in the message ("a value type").
    fn type_at(&mut self, v: &Node, path: &str, place: &str, what: &str, allowed: &[Type]) -> Option<Type> {
        let name = self.plain_str(v, path, place)?;
        let ty = Type::parse(&name, allowed);
        if ty.is_none() {
            let names: Vec<&str> = allowed.iter().map(|t| t.name()).collect();
            let (last, rest) = names.split_last().unwrap_or((&"", &[]));
            self.fail(v.at, path, format!("{what} is {} or {last}", rest.join(", ")));
        }
        ty
    }

    /// A field seed 002 types as a string (a description, a display
    /// name): text, where substitutions may yield any primitive; `what`
    /// names it in messages ("a description").
    fn text(&mut self, node: &Node, path: &str, what: &str) -> Tree {
        if node.as_str().is_none() {
            self.fail(node.at, path, format!("{what} is a string, found {}", node.describe()));
        }
        let t = self.tree(node, path);
        self.primitive(&t, what);
        t
    }

    /// Records an error for each substitution in `t` known, when loaded,
    /// to yield an array or an object where `what` takes a primitive.
    fn primitive(&mut self, t: &Tree, what: &str) {
        for sub in t.subs() {
            if let Some(v) = constant(&sub.prog)
                && matches!(v, Value::List(_) | Value::Map(_))
            {
                let message = not_primitive(what, &v);
                self.fail(sub.at, &sub.path, message);
            }
        }
    }

    /// A value where substitutions are allowed.
    fn tree(&mut self, node: &Node, path: &str) -> Tree {
        self.tree_at(node, &At::Root(path))
    }

    fn tree_at(&mut self, node: &Node, at: &At<'_>) -> Tree {
        match &node.kind {
            // Every text compiled before has one too (`sub` looks it up).
            Kind::Scalar(Value::Str(s)) if has_substitution(s) => match self.sub(s, node.at, at.text()) {
                Some(sub) => Tree::Sub(sub),
                None => Tree::Lit(Value::Null),
            },
            // `$${` is a literal `${` (D2).
            Kind::Scalar(Value::Str(s)) if s.contains("$${") => Tree::Lit(Value::Str(unescape(s).into())),
            Kind::Scalar(v) => Tree::Lit(v.clone()),
            Kind::List(items) => Tree::List(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.tree_at(item, &At::Index(at, i)))
                    .collect(),
            ),
            Kind::Map(entries) => Tree::Map(
                entries
                    .iter()
                    .map(|e| {
                        if has_substitution(&e.key) {
                            self.no_sub_key(e, &at.text());
                        }
                        (e.key.key().clone(), self.tree_at(&e.value, &At::Key(at, &e.key)))
                    })
                    .collect(),
            ),
        }
    }

    /// A string with substitutions, compiled and its references checked.
    /// A text written again (`${variables.region}` in many resources)
    /// shares the program compiled for it first and, when what it reads
    /// does not depend on where it is written, the definitions found.
    fn sub(&mut self, text: &Arc<str>, at: Pos, path: String) -> Option<Sub> {
        match self.compiled(text) {
            Some(Compiled::Checked(prog, defs)) => {
                return Some(Sub {
                    prog: prog.clone(),
                    at,
                    path,
                    defs: defs.clone(),
                });
            }
            Some(Compiled::Unchecked(prog, refs)) => {
                let (prog, refs) = (prog.clone(), refs.clone());
                let refs: Vec<Ref<&str>> = refs.iter().map(Ref::borrowed).collect();
                return self.checked_with(prog, &refs, at, path);
            }
            None => {}
        }
        let prog = match self.compiler.compile_template(text) {
            Ok(prog) => Arc::new(self.trim(prog)),
            // Lowered from `.bp`: at the expression in the `.bp` text (a
            // column in the lowered text would mean nothing there).
            Err(d) => {
                match self.origins.locate(at, d.start) {
                    Some(written) => self.fail(written, &path, d.message),
                    None => {
                        self.fail(at, &path, d.to_string().trim_end());
                        self.inside(text, Some(d.start), Some(d.message));
                    }
                }
                return None;
            }
        };
        let refs = refs_in(&prog);
        let sub = self.checked_with(prog.clone(), &refs, at, path);
        // `elem` and `i` exist in some places only: checked at each.
        let entry = match &sub {
            Some(s) if !refs.iter().any(|r| matches!(r, Ref::Elem | Ref::Index)) => {
                Compiled::Checked(prog.clone(), s.defs.clone())
            }
            _ => Compiled::Unchecked(prog.clone(), refs.iter().map(Ref::owned).collect()),
        };
        // Two texts of one hash (rare): the first keeps the place.
        self.programs
            .entry(hash_key(text))
            .or_insert_with(|| (text.clone(), entry));
        sub
    }

    /// What was compiled for `text` before.
    fn compiled(&self, text: &str) -> Option<&Compiled> {
        match self.programs.get(&hash_key(text)) {
            Some((t, c)) if **t == *text => Some(c),
            _ => None,
        }
    }

    /// A program as a blueprint keeps it: no spare room, and the keys of
    /// its paths shared with every other key of the same text.
    fn trim(&mut self, mut prog: Program) -> Program {
        // The compiler reserves room for a longer program than most
        // substitutions make, and a blueprint keeps every one.
        prog.code.shrink_to_fit();
        prog.sites.shrink_to_fit();
        prog.consts.shrink_to_fit();
        prog.paths.shrink_to_fit();
        for path in &mut prog.paths {
            path.segs.shrink_to_fit();
            for seg in &mut path.segs {
                if let Seg::Key(k, _) = seg {
                    *k = self.key(k.as_str());
                }
            }
        }
        prog
    }

    fn checked(&mut self, prog: Program, at: Pos, path: &str) -> Option<Sub> {
        let prog = Arc::new(self.trim(prog));
        let refs = refs_in(&prog);
        self.checked_with(prog.clone(), &refs, at, path.to_string())
    }

    fn checked_with(&mut self, prog: Arc<Program>, refs: &[Ref<&str>], at: Pos, path: String) -> Option<Sub> {
        let before = self.errors.len();
        let mut defs = Distinct::new();
        for r in refs {
            self.check_ref(r, at, &path, &prog.source);
            let n = &self.names;
            let def = match *r {
                Ref::Variable(v) => n.variables.get(v).map(|&i| Def::Variable(i)),
                Ref::Value(v) => n.values.get(v).map(|&i| Def::Value(i)),
                Ref::DataSource(d, _) => n.datasources.get(d).map(|&(i, _)| Def::DataSource(i)),
                Ref::Resource(r) => n.resources.get(r).map(|&i| Def::Resource(i)),
                Ref::Child(c, _) => n.includes.get(c).map(|&i| Def::Child(i)),
                Ref::Elem | Ref::Index => None,
            };
            if let Some(d) = def {
                defs.insert(d);
            }
        }
        (self.errors.len() == before).then(|| Sub {
            prog,
            at,
            path,
            defs: defs.into_vec().into(),
        })
    }

    fn check_ref(&mut self, r: &Ref<&str>, at: Pos, path: &str, written: &str) {
        let n = &self.names;
        let index = |&i: &usize| i;
        let (problem, near) = match *r {
            Ref::Variable(v) if !n.variables.contains_key(v) => (
                format!("variables.{v} is not defined"),
                Near::Name("variables.", &n.variables, v),
            ),
            Ref::Value(v) if !n.values.contains_key(v) => (
                format!("values.{v} is not defined"),
                Near::Name("values.", &n.values, v),
            ),
            Ref::DataSource(d, f) => match n.datasources.get(d) {
                None => (
                    format!("datasources.{d} is not defined"),
                    Near::Source(&n.datasources, d),
                ),
                Some(_) if self.export_all.contains(d) => return,
                Some((_, fields)) if fields.is_empty() => (format!("datasources.{d} exports no fields"), Near::None),
                Some((_, fields)) if !fields.iter().any(|x| x == f) => (
                    format!(
                        "datasources.{d} does not export {f:?}; its exports are: {}",
                        fields.join(", ")
                    ),
                    Near::Export(d, fields, f),
                ),
                Some(_) => return,
            },
            Ref::Resource(name) if !n.resources.contains_key(name) => (
                format!("resources.{name} is not defined"),
                Near::Name("resources.", &n.resources, name),
            ),
            Ref::Child(c, _) if !n.includes.contains_key(c) => (
                format!("children.{c} is not defined (no include of that name)"),
                Near::Name("children.", &n.includes, c),
            ),
            Ref::Elem | Ref::Index if !self.in_each => (
                format!("'{}' can only be used in a resource with `each`", r.describe()),
                Near::None,
            ),
            _ => return,
        };
        let hint = match near {
            _ if self.hints >= nearest::HINTS => None,
            Near::None => None,
            Near::Name(prefix, section, name) => {
                nearest::nearest(section, index, name, "").map(|k| format!("{prefix}{k}"))
            }
            Near::Source(section, name) => {
                nearest::nearest(section, |(i, _)| *i, name, "").map(|k| format!("datasources.{k}"))
            }
            Near::Export(d, fields, f) => {
                let fields: Vec<&str> = fields.iter().map(String::as_str).collect();
                bpvm_runtime::suggest::closest(f, &fields).map(|k| format!("datasources.{d}.{k}"))
            }
        };
        self.hints += usize::from(hint.is_some());
        self.fail(at, path, hinted(problem, hint.as_deref()));
        let name = r.describe();
        self.inside(written, name.contains('.').then(|| written.find(&name)).flatten(), None);
    }

    fn blueprint(&mut self, doc: Node, path: &Path, text: Arc<str>) -> Blueprint {
        let mut bp = Blueprint {
            file: self.file.clone(),
            path: path.to_path_buf(),
            text,
            value: self.outline(&doc),
            variables: Vec::new(),
            values: Vec::new(),
            datasources: Vec::new(),
            resources: Vec::new(),
            includes: Vec::new(),
            exports: Vec::new(),
            metadata: None,
            index: Index::default(),
        };
        self.fields(&doc, "", shape::TOP);
        // Seed 002 requires `resources`, yet its own modular examples
        // compose a blueprint from children alone: an include stands in.
        let empty = |section: &str| {
            doc.get(section)
                .is_none_or(|n| n.entries().is_some_and(<[Entry]>::is_empty))
        };
        if doc.entries().is_some() && empty("resources") && empty("include") {
            let (at, path) = match doc.get("resources") {
                Some(r) => (r.at, "resources"),
                None => (doc.at, ""),
            };
            self.fail(
                at,
                path,
                "a blueprint has at least one resource, or an include (seed 002: resources is required)",
            );
        }
        self.collect_names(&doc);
        // Read section by section, each dropped once read.
        let top = match doc.kind {
            Kind::Map(entries) => entries,
            _ => Vec::new(),
        };
        for e in top {
            let p = e.key.as_str();
            let v = e.value;
            match p {
                "version" => {
                    let ok = v.as_str().is_some_and(|s| VERSIONS.contains(&s));
                    if !ok {
                        let found = v.as_str().map_or(v.describe().to_string(), |s| format!("{s:?}"));
                        let message = format!(
                            "unsupported version {found}; supported versions: {}",
                            VERSIONS.join(", ")
                        );
                        self.fail(v.at, p, message);
                    }
                }
                "transform" => {
                    self.literal(&v, p, "any part of a transform");
                    let ok = v.as_str().is_some()
                        || matches!(&v.kind, Kind::List(items) if items.iter().all(|i| i.as_str().is_some()));
                    if !ok {
                        self.fail(v.at, p, "expected a string or an array of strings");
                    }
                }
                "variables" => bp.variables = self.section(v, p, Loader::variable),
                "values" => bp.values = self.section(v, p, Loader::value),
                "datasources" => bp.datasources = self.section(v, p, Loader::datasource),
                "resources" => bp.resources = self.section(v, p, Loader::resource),
                "include" => bp.includes = self.section(v, p, Loader::include),
                "exports" => bp.exports = self.section(v, p, Loader::export),
                "metadata" => {
                    if v.entries().is_none() {
                        self.fail(v.at, p, format!("expected a mapping, found {}", v.describe()));
                    }
                    bp.metadata = Some(self.tree(&v, p));
                }
                _ => {}
            }
        }
        reads(&mut bp);
        self.check_accessors(&bp);
        self.check_each_sources(&bp);
        bp.index = std::mem::take(&mut self.names);
        bp
    }

    /// The key `text`, shared with every other key of that text.
    fn key(&mut self, text: &str) -> Key {
        self.keys.key(text)
    }

    /// The plain value of `node`, positions dropped, its keys shared.
    fn plain(&mut self, node: &Node) -> Value {
        match &node.kind {
            Kind::Scalar(v) => v.clone(),
            Kind::List(items) => Value::List(items.iter().map(|n| self.plain(n)).collect()),
            Kind::Map(entries) => {
                let mut m = Map::with_capacity(entries.len());
                for e in entries {
                    let v = self.plain(&e.value);
                    m.insert(e.key.key().clone(), v);
                }
                Value::Map(m)
            }
        }
    }

    /// The document as a render's output starts from it: a resource's
    /// fields that every render replaces (see `output::resource`) are
    /// kept as their keys alone, so the blueprint does not hold them
    /// twice (as written here, compiled in the resource).
    fn outline(&mut self, doc: &Node) -> Value {
        let Kind::Map(top) = &doc.kind else {
            return self.plain(doc);
        };
        let mut m = Map::with_capacity(top.len());
        for e in top {
            let v = match (e.key.as_str(), &e.value.kind) {
                ("resources", Kind::Map(defs)) => {
                    let mut rs = Map::with_capacity(defs.len());
                    for d in defs {
                        let v = self.plain_without(&d.value, RENDERED, RENDERED_METADATA);
                        rs.insert(d.key.key().clone(), v);
                    }
                    Value::Map(rs)
                }
                _ => self.plain(&e.value),
            };
            m.insert(e.key.key().clone(), v);
        }
        Value::Map(m)
    }

    /// The plain value of a mapping, `rendered` fields null and those of
    /// its `metadata` in `metadata` null too.
    fn plain_without(&mut self, node: &Node, rendered: &[&str], metadata: &[&str]) -> Value {
        let Kind::Map(entries) = &node.kind else {
            return self.plain(node);
        };
        let mut m = Map::with_capacity(entries.len());
        for e in entries {
            let v = match e.key.as_str() {
                k if rendered.contains(&k) => Value::Null,
                "metadata" if !metadata.is_empty() => self.plain_without(&e.value, metadata, &[]),
                _ => self.plain(&e.value),
            };
            m.insert(e.key.key().clone(), v);
        }
        Value::Map(m)
    }

    fn collect_names(&mut self, doc: &Node) {
        let keys = |section: &str| -> &[Entry] { doc.get(section).and_then(Node::entries).unwrap_or(&[]) };
        let index = |section: &str| {
            keys(section)
                .iter()
                .enumerate()
                .map(|(i, e)| (e.key.to_string(), i))
                .collect()
        };
        self.names.variables = index("variables");
        self.names.values = index("values");
        self.names.resources = index("resources");
        self.names.includes = index("include");
        self.export_all = keys("datasources")
            .iter()
            .filter(|e| e.value.get("exports").and_then(Node::as_str) == Some("*"))
            .map(|e| e.key.to_string())
            .collect();
        self.names.datasources = keys("datasources")
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let fields = e
                    .value
                    .get("exports")
                    .and_then(Node::entries)
                    .map(|x| x.iter().map(|f| f.key.to_string()).collect())
                    .unwrap_or_default();
                (e.key.to_string(), (i, fields))
            })
            .collect();
    }
}

/// Records on each resource what the blueprint's substitutions read of
/// it: the keys of each `resources.<name>…` path, up to an index (a list
/// is read whole).
fn reads(bp: &mut Blueprint) {
    let index: HashMap<&str, usize> = bp
        .resources
        .iter()
        .enumerate()
        .map(|(i, r)| (r.name.as_str(), i))
        .collect();
    let mut found: Vec<(usize, Vec<Key>)> = Vec::new();
    for sub in bp.subs() {
        // Its definitions say whether it reads a resource, without
        // walking its program (most substitutions read none).
        if !sub.defs.iter().any(|d| matches!(d, Def::Resource(_))) {
            continue;
        }
        for path in sub.prog.loads() {
            let mut segs = path.segs.iter();
            let (Some(Seg::Key(root, _)), Some(Seg::Key(name, _))) = (segs.next(), segs.next()) else {
                continue;
            };
            if root.as_str() != "resources" {
                continue;
            }
            let Some(&i) = index.get(name.as_str()) else {
                continue;
            };
            let mut keys = Vec::new();
            let mut rest = segs.peekable();
            // `resources.name[1]…`: the index picks an element of a template.
            if let Some(Seg::Index(_)) = rest.peek() {
                rest.next();
            }
            for seg in rest {
                match seg {
                    Seg::Key(k, _) => keys.push(k.clone()),
                    Seg::Index(_) => break,
                }
            }
            found.push((i, keys));
        }
    }
    // In order, so that each key is appended to what is read (see
    // `Reads::keys`).
    found.sort_by(|(i, a), (j, b)| {
        i.cmp(j)
            .then_with(|| a.iter().map(Key::as_str).cmp(b.iter().map(Key::as_str)))
    });
    for (i, keys) in found {
        bp.resources[i].reads.add(&keys);
    }
}

/// Text without substitutions, its `$${` escapes turned into `${`.
fn unescape(s: &str) -> String {
    match bpvm_compiler::template::split(s) {
        Ok(parts) => parts
            .iter()
            .map(|p| match p {
                bpvm_compiler::template::Part::Text(t) => t.as_str(),
                bpvm_compiler::template::Part::Expr(_) => "",
            })
            .collect(),
        Err(_) => s.to_string(),
    }
}

/// The value a program always yields when it reads nothing: a literal, or
/// calls of pure functions (no clock, files or network) on literals.
/// `None` when it reads the blueprint, or fails (rendering reports why).
pub(crate) fn constant(prog: &Program) -> Option<Value> {
    match prog.code.as_slice() {
        [Op::Const(i), Op::Return] => return prog.consts.get(*i as usize).cloned(),
        [Op::True, Op::Return] => return Some(Value::Bool(true)),
        [Op::False, Op::Return] => return Some(Value::Bool(false)),
        [Op::Int(n), Op::Return] => return Some(Value::Int(i64::from(*n))),
        _ => {}
    }
    if prog.loads().next().is_some() || !prog.funcs.iter().all(|f| f.pure) {
        return None;
    }
    let env = bpvm_runtime::Environment::new();
    bpvm_vm::Vm::new().run(prog, &env).ok().map(|v| v.to_value())
}

/// The message for a field that takes a primitive but is given `v`.
pub(crate) fn not_primitive(what: &str, v: &Value) -> String {
    let kind = super::blueprint::type_name(v);
    let takes = if what.contains("search") {
        "a primitive or an array of primitives"
    } else {
        "a string, integer, float or boolean"
    };
    let kind = if kind == "binary" {
        "binary data".to_string()
    } else {
        format!("an {kind}")
    };
    format!("{what} is {takes} (seed 002); the substitution yields {kind}")
}

/// True when `text` is a bare reference (no call, no literal).
fn is_reference(text: &str) -> bool {
    !text.contains('(')
        && !text.trim_start().starts_with(['"', '[', '-'])
        && !text.trim_start().starts_with(|c: char| c.is_ascii_digit())
}

/// `{provider}/{type}` with `min` to `max` segments of letters, digits,
/// `_`, `-` and `.`.
fn namespaced(t: &str, min: usize, max: usize) -> bool {
    let segs: Vec<&str> = t.split('/').collect();
    (min..=max).contains(&segs.len())
        && segs.iter().all(|s| {
            s.starts_with(|c: char| c.is_ascii_alphabetic())
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        })
}
