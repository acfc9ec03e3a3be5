//! Reading a blueprint document into a [`Blueprint`]: the whole document
//! is validated before anything is evaluated, and every problem is
//! reported at once with its file, line:column and path.

use super::blueprint::{
    Blueprint, Condition, DataField, DataSource, Export, Filter, Include, Operator, Resource, ResourceMeta, Type,
    ValueDef, VarType, Variable,
};
use super::error::{Error, Errors, Pos};
use super::node::{Entry, Kind, Node, read};
use super::sub::{Def, Ref, Sub, Tree, has_substitution, refs};
use bpvm_compiler::{Compiler, Dialect};
use bpvm_runtime::{Key, Value};
use bpvm_vm::Seg;
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// Blueprint versions accepted (B1).
pub const VERSIONS: [&str; 2] = ["2023-04-20", "2025-11-02"];

const TOP: &[&str] = &[
    "version",
    "transform",
    "variables",
    "values",
    "datasources",
    "resources",
    "include",
    "exports",
    "metadata",
];
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
pub fn load(path: &Path, file: &str) -> Result<Blueprint, Errors> {
    let text = std::fs::read_to_string(path).map_err(|e| Error {
        file: file.to_string(),
        at: Pos::default(),
        path: String::new(),
        message: format!("cannot read the blueprint: {e}"),
    })?;
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    parse(&text, file, &abs)
}

/// Validates blueprint text (YAML or JSON).
///
/// ```
/// use bpvm::bluelink::load::parse;
/// let text = "version: 2023-04-20\nresources:\n  fn:\n    type: ${variables.t}\n    spec: {}\n";
/// let e = parse(text, "bp.yaml", std::path::Path::new("/bp.yaml")).unwrap_err();
/// assert_eq!(
///     e.to_string(),
///     "bp.yaml:4:11: resources.fn.type: substitutions are not allowed here: references can not be used in the resource type property (seed 002)"
/// );
/// ```
pub fn parse(text: &str, file: &str, path: &Path) -> Result<Blueprint, Errors> {
    let doc = read(text).map_err(|e| Error {
        file: file.to_string(),
        at: e.at,
        path: String::new(),
        message: e.message,
    })?;
    let mut l = Loader {
        file: file.to_string(),
        errors: Vec::new(),
        compiler: Compiler::new(Dialect::Bluelink),
        names: Names::default(),
        in_each: false,
    };
    let bp = l.blueprint(&doc, path);
    if l.errors.is_empty() {
        Ok(bp)
    } else {
        l.errors.sort_by_key(|e| e.at);
        Err(Errors(l.errors))
    }
}

/// The names defined in the blueprint and their positions, for checking
/// references.
#[derive(Default)]
struct Names {
    variables: HashMap<String, usize>,
    values: HashMap<String, usize>,
    datasources: HashMap<String, (usize, Vec<String>)>,
    resources: HashMap<String, usize>,
    includes: HashMap<String, usize>,
}

struct Loader {
    file: String,
    errors: Vec<Error>,
    compiler: Compiler,
    names: Names,
    /// True inside a resource with `each` (where `elem` and `i` exist).
    in_each: bool,
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
        });
    }

    /// A mapping's entries; unknown keys and missing required keys are
    /// errors.
    fn fields<'n>(&mut self, node: &'n Node, path: &str, known: &[&str], required: &[&str]) -> &'n [Entry] {
        let Some(entries) = node.entries() else {
            self.fail(node.at, path, format!("expected a mapping, found {}", node.describe()));
            return &[];
        };
        for e in entries {
            if !known.contains(&e.key.as_str()) {
                let hint = match known.iter().find(|k| edit_distance(k, &e.key) <= 2) {
                    Some(k) => format!(" (did you mean {k:?}?)"),
                    None => String::new(),
                };
                let message = format!("unknown field {:?}{hint}; expected one of: {}", e.key, known.join(", "));
                self.fail(e.key_at, &join(path, &e.key), message);
            }
        }
        for r in required {
            if !entries.iter().any(|e| e.key == *r) {
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
            let ok = e.key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && e.key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if has_substitution(&e.key) {
                self.no_sub_key(e, path);
            } else if !ok {
                let message = format!(
                    "{:?} is not a valid name: a name starts with a letter or '_' and has letters, digits, '_' and '-'",
                    e.key
                );
                self.fail(e.key_at, &join(path, &e.key), message);
            }
        }
        entries
    }

    /// A section of named definitions, each read by `read` (`None` when
    /// it is invalid: the problem is recorded).
    fn section<T>(&mut self, node: &Node, path: &str, read: fn(&mut Loader, &Entry) -> Option<T>) -> Vec<T> {
        let entries = self.named(node, path);
        entries.iter().filter_map(|e| read(self, e)).collect()
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

    /// A value where substitutions are allowed.
    fn tree(&mut self, node: &Node, path: &str) -> Tree {
        match &node.kind {
            Kind::Scalar(Value::Str(s)) if has_substitution(s) => match self.sub(s, node.at, path) {
                Some(sub) => Tree::Sub(Box::new(sub)),
                None => Tree::Lit(Arc::new(Value::Null)),
            },
            // `$${` is a literal `${` (D2).
            Kind::Scalar(Value::Str(s)) if s.contains("$${") => Tree::Lit(Arc::new(Value::Str(unescape(s).into()))),
            Kind::Scalar(v) => Tree::Lit(Arc::new(v.clone())),
            Kind::List(items) => Tree::List(
                items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.tree(item, &format!("{path}[{i}]")))
                    .collect(),
            ),
            Kind::Map(entries) => Tree::Map(
                entries
                    .iter()
                    .map(|e| {
                        if has_substitution(&e.key) {
                            self.no_sub_key(e, path);
                        }
                        (Key::new(&e.key), self.tree(&e.value, &join(path, &e.key)))
                    })
                    .collect(),
            ),
        }
    }

    /// A string with substitutions, compiled and its references checked.
    fn sub(&mut self, text: &str, at: Pos, path: &str) -> Option<Sub> {
        match self.compiler.compile_template(text) {
            Ok(prog) => self.checked(prog, text, at, path),
            Err(d) => {
                self.fail(at, path, d.to_string().trim_end());
                None
            }
        }
    }

    fn checked(&mut self, prog: bpvm_vm::Program, text: &str, at: Pos, path: &str) -> Option<Sub> {
        let refs = refs(&prog);
        let before = self.errors.len();
        let mut defs = Vec::new();
        for r in &refs {
            self.check_ref(r, at, path);
            let n = &self.names;
            let def = match r {
                Ref::Variable(v) => n.variables.get(v).map(|&i| Def::Variable(i)),
                Ref::Value(v) => n.values.get(v).map(|&i| Def::Value(i)),
                Ref::DataSource(d, _) => n.datasources.get(d).map(|&(i, _)| Def::DataSource(i)),
                Ref::Resource(r) => n.resources.get(r).map(|&i| Def::Resource(i)),
                Ref::Child(c, _) => n.includes.get(c).map(|&i| Def::Child(i)),
                Ref::Elem | Ref::Index => None,
            };
            if let Some(d) = def
                && !defs.contains(&d)
            {
                defs.push(d);
            }
        }
        (self.errors.len() == before).then(|| Sub {
            prog,
            text: Arc::from(text),
            at,
            path: path.to_string(),
            refs,
            defs,
        })
    }

    fn check_ref(&mut self, r: &Ref, at: Pos, path: &str) {
        let n = &self.names;
        let problem = match r {
            Ref::Variable(v) if !n.variables.contains_key(v) => Some(format!("variables.{v} is not defined")),
            Ref::Value(v) if !n.values.contains_key(v) => Some(format!("values.{v} is not defined")),
            Ref::DataSource(d, f) => match n.datasources.get(d) {
                None => Some(format!("datasources.{d} is not defined")),
                Some((_, fields)) if !fields.contains(f) => Some(format!(
                    "datasources.{d} does not export {f:?}; its exports are: {}",
                    fields.join(", ")
                )),
                Some(_) => None,
            },
            Ref::Resource(name) if !n.resources.contains_key(name) => Some(format!("resources.{name} is not defined")),
            Ref::Child(c, _) if !n.includes.contains_key(c) => {
                Some(format!("children.{c} is not defined (no include of that name)"))
            }
            Ref::Elem | Ref::Index if !self.in_each => {
                Some(format!("'{}' can only be used in a resource with `each`", r.describe()))
            }
            _ => None,
        };
        if let Some(p) = problem {
            self.fail(at, path, p);
        }
    }

    fn blueprint(&mut self, doc: &Node, path: &Path) -> Blueprint {
        let mut bp = Blueprint {
            file: self.file.clone(),
            path: path.to_path_buf(),
            doc: doc.clone(),
            value: doc.to_value(),
            variables: Vec::new(),
            values: Vec::new(),
            datasources: Vec::new(),
            resources: Vec::new(),
            includes: Vec::new(),
            exports: Vec::new(),
            metadata: None,
        };
        // Seed 002 requires `resources`, yet its own modular examples
        // compose a blueprint from children alone: `include` stands in.
        let required: &[&str] = if doc.get("include").is_some() {
            &["version"]
        } else {
            &["version", "resources"]
        };
        let top = self.fields(doc, "", TOP, required);
        self.collect_names(doc);
        for e in top {
            let p = e.key.as_str();
            let v = &e.value;
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
                    self.literal(v, p, "any part of a transform");
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
                    bp.metadata = Some(self.tree(v, p));
                }
                _ => {}
            }
        }
        reads(&mut bp);
        bp
    }

    fn collect_names(&mut self, doc: &Node) {
        let keys = |section: &str| -> &[Entry] { doc.get(section).and_then(Node::entries).unwrap_or(&[]) };
        let index = |section: &str| {
            keys(section)
                .iter()
                .enumerate()
                .map(|(i, e)| (e.key.clone(), i))
                .collect()
        };
        self.names.variables = index("variables");
        self.names.values = index("values");
        self.names.resources = index("resources");
        self.names.includes = index("include");
        self.names.datasources = keys("datasources")
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let fields = e
                    .value
                    .get("exports")
                    .and_then(Node::entries)
                    .map(|x| x.iter().map(|f| f.key.clone()).collect())
                    .unwrap_or_default();
                (e.key.clone(), (i, fields))
            })
            .collect();
    }

    fn variable(&mut self, e: &Entry) -> Option<Variable> {
        let path = format!("variables.{}", e.key);
        let place = "any part of a variable definition";
        let fields = self.fields(
            &e.value,
            &path,
            &["type", "description", "secret", "default", "allowedValues"],
            &["type"],
        );
        self.literal(&e.value, &path, place);
        let mut var = Variable {
            name: e.key.clone(),
            at: e.key_at,
            ty: VarType::String,
            allowed: Vec::new(),
            default: None,
            secret: false,
        };
        let mut ok = true;
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => match v.as_str() {
                    Some("string") => var.ty = VarType::String,
                    Some("integer") => var.ty = VarType::Integer,
                    Some("float") => var.ty = VarType::Float,
                    Some("boolean") => var.ty = VarType::Boolean,
                    Some(custom) if namespaced(custom, 2, 8) => var.ty = VarType::Custom(custom.to_string()),
                    _ => {
                        ok = false;
                        self.fail(
                            v.at,
                            &p,
                            "a variable type is string, integer, float, boolean or a provider type {provider}/{type}",
                        );
                    }
                },
                "description" if v.as_str().is_none() => {
                    self.fail(v.at, &p, format!("expected a string, found {}", v.describe()));
                }
                "secret" => match v.kind {
                    Kind::Scalar(Value::Bool(b)) => var.secret = b,
                    _ => self.fail(v.at, &p, format!("expected true or false, found {}", v.describe())),
                },
                _ => {}
            }
        }
        if !ok {
            return None;
        }
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "default" => match self.typed(&var.ty, v, &p) {
                    Some(d) => var.default = Some(d),
                    None => ok = false,
                },
                "allowedValues" => {
                    if var.ty == VarType::Boolean {
                        self.fail(v.at, &p, "boolean variables cannot have allowedValues");
                        ok = false;
                        continue;
                    }
                    let Kind::List(items) = &v.kind else {
                        self.fail(v.at, &p, format!("expected an array, found {}", v.describe()));
                        ok = false;
                        continue;
                    };
                    for (i, item) in items.iter().enumerate() {
                        match self.typed(&var.ty, item, &format!("{p}[{i}]")) {
                            Some(x) => var.allowed.push(x),
                            None => ok = false,
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(d) = &var.default
            && !var.allowed.is_empty()
            && !var.allowed.contains(d)
        {
            let at = e.value.get("default").map_or(e.key_at, |n| n.at);
            self.fail(at, &join(&path, "default"), "the default is not one of allowedValues");
            ok = false;
        }
        ok.then_some(var)
    }

    /// A literal of a variable's type.
    fn typed(&mut self, ty: &VarType, v: &Node, path: &str) -> Option<Value> {
        let value = v.to_value();
        let fits = match (ty, &value) {
            (VarType::String | VarType::Custom(_), Value::Str(s)) => !s.trim().is_empty(),
            (VarType::Integer, Value::Int(_)) | (VarType::Boolean, Value::Bool(_)) => true,
            (VarType::Float, Value::Float(_) | Value::Int(_)) => true,
            _ => false,
        };
        if !fits {
            let name = match ty {
                VarType::String | VarType::Custom(_) => "a non-empty string",
                VarType::Integer => "an integer",
                VarType::Float => "a float",
                VarType::Boolean => "a boolean",
            };
            self.fail(
                v.at,
                path,
                format!("expected {name} (the variable's type), found {}", v.describe()),
            );
            return None;
        }
        Some(match (ty, value) {
            (VarType::Float, Value::Int(i)) => Value::Float(i as f64),
            (_, v) => v,
        })
    }

    fn value(&mut self, e: &Entry) -> Option<ValueDef> {
        let path = format!("values.{}", e.key);
        let fields = self.fields(
            &e.value,
            &path,
            &["type", "value", "description", "secret"],
            &["type", "value"],
        );
        let mut ty = None;
        let mut value = None;
        let mut description = None;
        let mut secret = false;
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => {
                    let Some(name) = self.plain_str(v, &p, "the value type property") else {
                        continue;
                    };
                    ty = Type::parse(&name, VALUE_TYPES);
                    if ty.is_none() {
                        self.fail(
                            v.at,
                            &p,
                            "a value type is string, integer, float, boolean, array or object",
                        );
                    }
                }
                "value" => {
                    if !matches!(v.kind, Kind::Scalar(_)) {
                        let message =
                            "a value is written as a string; arrays and objects come from a ${..} substitution";
                        self.fail(v.at, &p, message);
                    }
                    value = Some(self.tree(v, &p));
                }
                "description" => description = Some(self.tree(v, &p)),
                "secret" => match v.kind {
                    Kind::Scalar(Value::Bool(b)) => secret = b,
                    _ => self.fail(v.at, &p, format!("expected true or false, found {}", v.describe())),
                },
                _ => {}
            }
        }
        Some(ValueDef {
            name: e.key.clone(),
            at: e.key_at,
            ty: ty?,
            value: value?,
            description,
            secret,
        })
    }

    fn datasource(&mut self, e: &Entry) -> Option<DataSource> {
        let path = format!("datasources.{}", e.key);
        let known = ["type", "metadata", "filter", "exports", "description"];
        let fields = self.fields(&e.value, &path, &known, &["type", "filter", "exports"]);
        let (mut ty, mut filter, mut exports, mut description, mut metadata) = (None, None, Vec::new(), None, None);
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => {
                    let Some(t) = self.plain_str(v, &p, "the data source type property") else {
                        continue;
                    };
                    if !namespaced(&t, 2, 3) {
                        self.fail(
                            v.at,
                            &p,
                            format!("{t:?} is not a data source type of the form {{provider}}/{{type}}"),
                        );
                    }
                    ty = Some(t);
                }
                "metadata" => {
                    self.fields(v, &p, &["displayName", "annotations", "custom"], &[]);
                    metadata = Some(self.tree(v, &p));
                }
                "filter" => filter = self.filter(v, &p),
                "exports" => {
                    for x in self.named(v, &p) {
                        let xp = join(&p, &x.key);
                        self.literal(&x.value, &xp, "the data source exports");
                        let xf = self.fields(&x.value, &xp, &["type", "aliasFor", "description"], &["type"]);
                        let mut field = DataField {
                            name: x.key.clone(),
                            ty: Type::String,
                            alias_for: None,
                            at: x.key_at,
                        };
                        for f in xf {
                            match (f.key.as_str(), f.value.as_str()) {
                                ("type", Some(t)) if Type::parse(t, FIELD_TYPES).is_some() => {
                                    field.ty = Type::parse(t, FIELD_TYPES)?;
                                }
                                ("type", _) => self.fail(
                                    f.value.at,
                                    &join(&xp, "type"),
                                    "a data source field type is array, string, integer, float or boolean",
                                ),
                                ("aliasFor", Some(a)) => field.alias_for = Some(a.to_string()),
                                ("aliasFor" | "description", None) => self.fail(
                                    f.value.at,
                                    &join(&xp, &f.key),
                                    format!("expected a string, found {}", f.value.describe()),
                                ),
                                _ => {}
                            }
                        }
                        exports.push(field);
                    }
                }
                "description" => description = Some(self.tree(v, &p)),
                _ => {}
            }
        }
        Some(DataSource {
            name: e.key.clone(),
            at: e.key_at,
            ty: ty?,
            filter: filter?,
            fields: exports,
            description,
            metadata,
        })
    }

    fn filter(&mut self, v: &Node, path: &str) -> Option<Filter> {
        let fields = self.fields(
            v,
            path,
            &["field", "operator", "search"],
            &["field", "operator", "search"],
        );
        let (mut field, mut operator, mut search) = (None, None, None);
        for f in fields {
            let p = join(path, &f.key);
            match f.key.as_str() {
                "field" => field = self.plain_str(&f.value, &p, "the data source filter.field property"),
                "operator" => {
                    let Some(text) = self.plain_str(&f.value, &p, "the data source filter.operator property") else {
                        continue;
                    };
                    operator = Operator::parse(&text);
                    if operator.is_none() {
                        let all: Vec<&str> = Operator::ALL.iter().map(|(t, _)| *t).collect();
                        self.fail(
                            f.value.at,
                            &p,
                            format!("unknown filter operator {text:?}; expected one of: {}", all.join(", ")),
                        );
                    }
                }
                "search" => {
                    let ok = match &f.value.kind {
                        Kind::Scalar(Value::Null) => false,
                        Kind::Scalar(_) => true,
                        Kind::List(items) => items
                            .iter()
                            .all(|i| matches!(&i.kind, Kind::Scalar(x) if !matches!(x, Value::Null))),
                        Kind::Map(_) => false,
                    };
                    if !ok {
                        self.fail(
                            f.value.at,
                            &p,
                            "a filter search is a primitive or an array of primitives",
                        );
                    }
                    search = Some(self.tree(&f.value, &p));
                }
                _ => {}
            }
        }
        Some(Filter {
            field: field?,
            operator: operator?,
            search: search?,
            at: v.at,
        })
    }

    fn resource(&mut self, e: &Entry) -> Option<Resource> {
        let path = format!("resources.{}", e.key);
        let known = [
            "type",
            "description",
            "metadata",
            "dependsOn",
            "condition",
            "each",
            "linkSelector",
            "spec",
        ];
        let fields = self.fields(&e.value, &path, &known, &["type", "spec"]);
        self.in_each = e.value.get("each").is_some();
        let mut r = Resource {
            name: e.key.clone(),
            key: Key::new(&e.key),
            labels: Value::Null,
            at: e.key_at,
            ty: String::new(),
            description: None,
            metadata: ResourceMeta::default(),
            depends_on: Vec::new(),
            condition: None,
            each: None,
            selector: Vec::new(),
            spec: Tree::Lit(Arc::new(Value::Null)),
            defs: Vec::new(),
            reads: Default::default(),
        };
        let before = self.errors.len();
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => {
                    if let Some(t) = self.plain_str(v, &p, "the resource type property") {
                        if !namespaced(&t, 2, 3) {
                            let message = format!(
                                "{t:?} is not a resource type of the form {{provider}}/{{service}}/{{resourceType}} or {{provider}}/{{resourceType}}"
                            );
                            self.fail(v.at, &p, message);
                        }
                        r.ty = t;
                    }
                }
                "description" => r.description = Some(self.tree(v, &p)),
                "metadata" => r.metadata = self.resource_meta(v, &p),
                "dependsOn" => {
                    self.literal(v, &p, "the dependencies (dependsOn) property");
                    let names: Vec<&Node> = match &v.kind {
                        Kind::List(items) => items.iter().collect(),
                        _ => vec![v],
                    };
                    for n in names {
                        match n.as_str() {
                            Some(name) if has_substitution(name) => {}
                            Some(name) if name == e.key => self.fail(n.at, &p, "a resource cannot depend on itself"),
                            Some(name) if self.names.resources.contains_key(name) => {
                                r.depends_on.push(name.to_string())
                            }
                            Some(name) => self.fail(n.at, &p, format!("resources.{name} is not defined")),
                            None => self.fail(n.at, &p, "expected a resource name or an array of resource names"),
                        }
                    }
                }
                "condition" => r.condition = self.condition(v, &p),
                "each" => {
                    let whole = v.as_str().and_then(|s| {
                        let parts = bpvm_compiler::template::split(s).ok()?;
                        bpvm_compiler::template::whole(&parts)
                    });
                    if whole.is_none() {
                        self.fail(v.at, &p, "each is one ${..} substitution that yields an array");
                        continue;
                    }
                    // `each` itself runs outside the elements.
                    self.in_each = false;
                    r.each = v.as_str().and_then(|s| self.sub(s, v.at, &p));
                    self.in_each = true;
                    if let Some(each) = &r.each
                        && let Some(bad) = each
                            .refs
                            .iter()
                            .find(|x| matches!(x, Ref::Resource(_) | Ref::Child(..)))
                    {
                        let message = format!(
                            "each cannot depend on {}: it must be known before resources are created",
                            bad.describe()
                        );
                        self.fail(v.at, &p, message);
                    }
                }
                "linkSelector" => {
                    self.literal(v, &p, "the linkSelector property");
                    for s in self.fields(v, &p, &["byLabel"], &["byLabel"]) {
                        r.selector = self.labels(&s.value, &join(&p, "byLabel"));
                    }
                }
                "spec" => {
                    if v.entries().is_none() {
                        self.fail(v.at, &p, format!("expected a mapping, found {}", v.describe()));
                    }
                    r.spec = self.tree(v, &p);
                }
                _ => {}
            }
        }
        self.in_each = false;
        let mut defs: Vec<Def> = Vec::new();
        for d in r.subs().iter().flat_map(|s| &s.defs) {
            if !defs.contains(d) {
                defs.push(*d);
            }
        }
        r.defs = defs;
        let mut labels = bpvm_runtime::Map::with_capacity(r.metadata.labels.len());
        for (k, v) in &r.metadata.labels {
            labels.insert(k.as_str(), Value::Str(v.as_str().into()));
        }
        r.labels = Value::Map(labels);
        (self.errors.len() == before).then_some(r)
    }

    fn resource_meta(&mut self, v: &Node, path: &str) -> ResourceMeta {
        let mut m = ResourceMeta::default();
        for f in self.fields(v, path, &["displayName", "annotations", "labels", "custom"], &[]) {
            let p = join(path, &f.key);
            match f.key.as_str() {
                "displayName" => m.display_name = Some(self.tree(&f.value, &p)),
                "annotations" => {
                    for a in f.value.entries().unwrap_or(&[]) {
                        if !matches!(a.value.kind, Kind::Scalar(_)) {
                            let message = format!(
                                "an annotation is a string, integer, float or boolean, found {}",
                                a.value.describe()
                            );
                            self.fail(a.value.at, &join(&p, &a.key), message);
                        }
                    }
                    m.annotations = Some(self.tree(&f.value, &p));
                }
                "labels" => {
                    self.literal(&f.value, &p, "the labels property of a resource's metadata");
                    m.labels = self.labels(&f.value, &p);
                }
                "custom" => m.custom = Some(self.tree(&f.value, &p)),
                _ => {}
            }
        }
        m
    }

    /// A mapping of strings to strings (labels, `byLabel`).
    fn labels(&mut self, v: &Node, path: &str) -> Vec<(String, String)> {
        let Some(entries) = v.entries() else {
            self.fail(
                v.at,
                path,
                format!("expected a mapping of strings, found {}", v.describe()),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for e in entries {
            match e.value.as_str() {
                Some(s) => out.push((e.key.clone(), s.to_string())),
                None => {
                    let message = format!("a label value is a string, found {}", e.value.describe());
                    self.fail(e.value.at, &join(path, &e.key), message);
                }
            }
        }
        out
    }

    fn condition(&mut self, v: &Node, path: &str) -> Option<Condition> {
        match &v.kind {
            Kind::Scalar(Value::Bool(_)) => Some(Condition::Leaf(Tree::Lit(Arc::new(v.to_value())))),
            Kind::Scalar(Value::Str(s)) if has_substitution(s) => Some(Condition::Leaf(self.tree(v, path))),
            Kind::Map(entries) => {
                if entries.len() != 1 {
                    let message = format!(
                        "a condition has exactly one of \"and\", \"or\", \"not\"; found {}",
                        if entries.is_empty() {
                            "none".to_string()
                        } else {
                            entries
                                .iter()
                                .map(|e| format!("{:?}", e.key))
                                .collect::<Vec<_>>()
                                .join(", ")
                        }
                    );
                    self.fail(v.at, path, message);
                    return None;
                }
                let e = &entries[0];
                let p = join(path, &e.key);
                match e.key.as_str() {
                    "and" | "or" => {
                        let Kind::List(items) = &e.value.kind else {
                            self.fail(
                                e.value.at,
                                &p,
                                format!("expected an array of conditions, found {}", e.value.describe()),
                            );
                            return None;
                        };
                        if items.is_empty() {
                            self.fail(e.value.at, &p, "an empty list of conditions");
                            return None;
                        }
                        let parts: Vec<Option<Condition>> = items
                            .iter()
                            .enumerate()
                            .map(|(i, item)| self.condition(item, &format!("{p}[{i}]")))
                            .collect();
                        let parts: Vec<Condition> = parts.into_iter().collect::<Option<_>>()?;
                        Some(if e.key == "and" {
                            Condition::And(parts)
                        } else {
                            Condition::Or(parts)
                        })
                    }
                    "not" => Some(Condition::Not(Box::new(self.condition(&e.value, &p)?))),
                    other => {
                        self.fail(
                            e.key_at,
                            &p,
                            format!("unknown condition {other:?}; expected \"and\", \"or\" or \"not\""),
                        );
                        None
                    }
                }
            }
            _ => {
                let message = format!(
                    "a condition is a ${{..}} substitution that yields a boolean, or a mapping with \"and\", \"or\" or \"not\"; found {}",
                    v.describe()
                );
                self.fail(v.at, path, message);
                None
            }
        }
    }

    fn include(&mut self, e: &Entry) -> Option<Include> {
        let path = format!("include.{}", e.key);
        let fields = self.fields(
            &e.value,
            &path,
            &["path", "variables", "metadata", "description"],
            &["path"],
        );
        let mut inc = Include {
            name: e.key.clone(),
            at: e.key_at,
            path: Tree::Lit(Arc::new(Value::Null)),
            variables: None,
            metadata: None,
            description: None,
        };
        let before = self.errors.len();
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "path" => {
                    if v.as_str().is_none_or(|s| s.trim().is_empty()) {
                        self.fail(v.at, &p, "the path of a child blueprint is a non-empty string");
                    }
                    inc.path = self.tree(v, &p);
                }
                "variables" => {
                    for x in v.entries().unwrap_or(&[]) {
                        if !matches!(x.value.kind, Kind::Scalar(_)) {
                            let message = format!("a child's variable is a primitive, found {}", x.value.describe());
                            self.fail(x.value.at, &join(&p, &x.key), message);
                        }
                    }
                    if v.entries().is_none() {
                        self.fail(v.at, &p, format!("expected a mapping, found {}", v.describe()));
                    }
                    inc.variables = Some(self.tree(v, &p));
                }
                "metadata" => inc.metadata = Some(self.tree(v, &p)),
                "description" => inc.description = Some(self.tree(v, &p)),
                _ => {}
            }
        }
        (self.errors.len() == before).then_some(inc)
    }

    fn export(&mut self, e: &Entry) -> Option<Export> {
        let path = format!("exports.{}", e.key);
        let fields = self.fields(&e.value, &path, &["type", "field", "description"], &["type", "field"]);
        let (mut ty, mut field, mut description) = (None, None, None);
        for f in fields {
            let p = join(&path, &f.key);
            let v = &f.value;
            match f.key.as_str() {
                "type" => {
                    let Some(name) = self.plain_str(v, &p, "the export type property") else {
                        continue;
                    };
                    ty = Type::parse(&name, VALUE_TYPES);
                    if ty.is_none() {
                        self.fail(
                            v.at,
                            &p,
                            "an export type is string, integer, float, boolean, array or object",
                        );
                    }
                }
                "field" => {
                    let Some(text) = self.plain_str(v, &p, "the export field property") else {
                        continue;
                    };
                    match self.compiler.compile(&text) {
                        Ok(prog) if prog.loads().next().is_some() && is_reference(&text) => {
                            field = self.checked(prog, &text, v.at, &p);
                        }
                        Ok(_) => self.fail(
                            v.at,
                            &p,
                            "an export field is a reference (resources.fn.spec.arn, values.x, variables.y, datasources.d.f, children.c.e), not a function call or a literal",
                        ),
                        Err(d) => self.fail(v.at, &p, d.to_string().trim_end()),
                    }
                }
                "description" => description = Some(self.tree(v, &p)),
                _ => {}
            }
        }
        Some(Export {
            name: e.key.clone(),
            at: e.key_at,
            ty: ty?,
            field: field?,
            description,
        })
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
    let mut found: Vec<(usize, Vec<String>)> = Vec::new();
    for sub in bp.subs() {
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
                    Seg::Key(k, _) => keys.push(k.as_str().to_string()),
                    Seg::Index(_) => break,
                }
            }
            found.push((i, keys));
        }
    }
    for (i, keys) in found {
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
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

/// The number of single-character edits between `a` and `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = here;
        }
    }
    row[b.len()]
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
