//! Materialising a blueprint: every definition resolved in dependency
//! order (what a definition's substitutions reference is resolved first),
//! `condition` and `each` applied, children rendered, exports read.
//!
//! The resolver is one type, `Resolver`, whose rendering of each kind of
//! definition lives in a file here (variables, data sources, resources,
//! includes); `results` (what was resolved) is a leaf that `output` writes
//! out. It imports the blueprint model and the loader (to load children).
//!
//! A value that is only known at deploy time (a resource field that is in
//! neither the spec nor the resource state) keeps its `${..}` text, and so
//! does everything computed from it; the render lists each one.

mod datasource;
mod include;
mod output;
mod resource;
mod results;
mod shared;
mod variables;

pub use shared::{CHILD_RENDERS_VARIABLE, DEFAULT_CHILD_RENDERS, child_renders};

use crate::blueprint::{Blueprint, type_name};
use crate::error::{Error, Errors, Pos};
use crate::place::Lines;
use crate::resolved::{MASK, Resolved};
use crate::sub::{Def, Ref, Sub, Tree};
use bpvm_runtime::builtins::effects::Effects;
use bpvm_runtime::limits::REFERENCE_DEPTH;
use bpvm_runtime::root::Root;
use bpvm_runtime::{Environment, Key, Map, Value};
use bpvm_vm::{Fault, Path, Seg, Vm};
use results::{ResourceOut, Results};
use shared::Shared;
use std::cell::{OnceCell, RefCell};
use std::collections::HashSet;
use std::path::PathBuf;
use std::rc::Rc;

/// A variable's value as given.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// Text (`--var name=text`), parsed to the declared type (B10).
    Text(String),
    /// A typed value (`--vars FILE`, a parent's `include.variables`).
    Value(Value),
    /// Only known at deploy time (a parent passed a deferred value).
    Deferred(String),
}

/// What a render is given besides the blueprint.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Variable values by name.
    pub variables: Vec<(String, Input)>,
    /// Data source data: a mapping from data source name to its exported
    /// fields, or from data source type to a list of candidate records.
    pub datasources: Option<Value>,
    /// Deploy-time resource fields by resource name (`fn`, `buckets[1]`),
    /// read as if they were in the resource's spec.
    pub resource_state: Option<Value>,
    /// Print secrets instead of masking them.
    pub show_secrets: bool,
    /// Pins `uuid()`.
    pub seed: Option<u64>,
    /// Pins `datetime()`.
    pub now: Option<chrono::DateTime<chrono::Utc>>,
    /// What `cwd()` returns (the process's directory when unset).
    pub cwd: Option<PathBuf>,
    /// Files (`file()`, `include`) must be inside this folder (B11, D8);
    /// the blueprint's own folder when unset.
    pub root: Option<PathBuf>,
    /// Hosts `http_resource()` may fetch from.
    pub allow_http: Vec<String>,
}

/// A value left as written because it is only known at deploy time.
#[derive(Debug, Clone, PartialEq)]
pub struct Deferral {
    /// The blueprint file.
    pub file: String,
    /// The value's path in the blueprint.
    pub path: String,
    /// The reference that is not known yet.
    pub reference: String,
}

/// A rendered blueprint.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The materialised document.
    pub document: Value,
    /// Every value left as written, in document order.
    pub deferred: Vec<Deferral>,
    /// The blueprint's exports (what a parent reads as `children.<name>`).
    pub exports: Vec<(String, Resolved)>,
}

/// The text of a data file a render is given (variables, data sources,
/// resource state) as the mapping it must be; `what` says what it maps,
/// for the message. An empty file is an empty mapping.
///
/// ```
/// use bpvm_bluelink::render::mapping;
/// assert_eq!(mapping("env: prod\n", "variable names to values").unwrap().len(), 1);
/// assert_eq!(mapping("", "variable names to values").unwrap().len(), 0);
/// assert_eq!(
///     mapping("- prod\n", "variable names to values").unwrap_err(),
///     "expected a mapping of variable names to values, found list"
/// );
/// ```
pub fn mapping(text: &str, what: &str) -> Result<Map, String> {
    match Value::from_yaml(text).map_err(|e| e.to_string())? {
        Value::Map(m) => Ok(m),
        Value::Null => Ok(Map::new()),
        other => Err(format!("expected a mapping of {what}, found {}", other.type_name())),
    }
}

/// Renders `bp` (compiled once; render it again with other options).
///
/// ```
/// use bpvm_bluelink::{load::parse, render::{render, Input, Options}};
/// let text = "version: 2023-04-20
/// variables:
///   env: {type: string}
/// resources:
///   fn:
///     type: aws/lambda/function
///     spec: {role: '${role.spec.name}', roleArn: '${role.spec.arn}'}
///   role:
///     type: aws/iam/role
///     spec: {name: 'orders-${variables.env}'}
/// ";
/// let bp = parse(text, "bp.yaml", std::path::Path::new("/bp.yaml")).unwrap();
/// let opts = Options { variables: vec![("env".into(), Input::Text("prod".into()))], ..Options::default() };
/// let out = render(&bp, &opts).unwrap();
/// let resources = out.document.as_map().unwrap().get("resources").unwrap();
/// assert_eq!(
///     resources.to_json(),
///     r#"{"fn":{"type":"aws/lambda/function","spec":{"role":"orders-prod","roleArn":"${role.spec.arn}"}},"role":{"type":"aws/iam/role","spec":{"name":"orders-prod"}}}"#
/// );
/// // The role's ARN is only known once it is deployed.
/// assert_eq!(out.deferred[0].reference, "resources.role.spec.arn");
/// ```
pub fn render(bp: &Blueprint, opts: &Options) -> Result<Rendered, Errors> {
    // A blueprint parsed from text may name a folder that does not exist:
    // it renders as long as it reads no file.
    let root = match &opts.root {
        Some(dir) => Some(Root::new(dir, "blueprint root").map_err(|e| Error {
            file: bp.file.clone(),
            at: Pos::default(),
            path: String::new(),
            message: format!("cannot open the blueprint root {}: {e}", dir.display()),
            source: None,
        })?),
        None => bp.path.parent().and_then(|d| Root::new(d, "blueprint folder").ok()),
    };
    let shared = Rc::new(RefCell::new(Shared::default()));
    // Governed (D10): within its deadline, its documents within one limit.
    bpvm_runtime::govern::govern(|| Resolver::new(bp, opts, root, &opts.variables, vec![bp.path.clone()], shared).run())
}

/// Something known about each definition, by [`Def`].
struct PerDef<T> {
    /// Where each section starts: variables, values, data sources,
    /// resources, children.
    starts: [usize; 5],
    items: Vec<T>,
}

impl<T: Clone> PerDef<T> {
    fn new(bp: &Blueprint, init: T) -> PerDef<T> {
        let lens = [
            bp.variables.len(),
            bp.values.len(),
            bp.datasources.len(),
            bp.resources.len(),
            bp.includes.len(),
        ];
        let mut starts = [0; 5];
        for k in 1..5 {
            starts[k] = starts[k - 1] + lens[k - 1];
        }
        PerDef {
            starts,
            items: vec![init; starts[4] + lens[4]],
        }
    }

    fn slot(&self, d: Def) -> usize {
        match d {
            Def::Variable(i) => self.starts[0] + i,
            Def::Value(i) => self.starts[1] + i,
            Def::DataSource(i) => self.starts[2] + i,
            Def::Resource(i) => self.starts[3] + i,
            Def::Child(i) => self.starts[4] + i,
        }
    }

    fn get(&self, d: Def) -> T {
        self.items[self.slot(d)].clone()
    }

    fn set(&mut self, d: Def, v: T) {
        let i = self.slot(d);
        self.items[i] = v;
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Status {
    Active,
    Done,
    Failed,
}

/// The failure is already recorded.
struct Failed;

/// Why a reference found nothing.
enum Missing {
    /// It is only known at deploy time (the reference, for the list).
    Deferred(String),
    /// It does not exist.
    Error(String),
    /// What it names failed, and that was reported already.
    Reported,
}

/// The keys of what `resources.<name>` reads, made once per render.
struct Keys {
    spec: Key,
    metadata: Key,
    display_name: Key,
    labels: Key,
    annotations: Key,
    custom: Key,
}

struct Resolver<'b> {
    bp: &'b Blueprint,
    keys: Keys,
    opts: &'b Options,
    /// The folder files are read inside of (the top blueprint's, for
    /// every child too).
    root: Option<Root>,
    /// What the whole render shares with its children: the memory its
    /// results hold (D9, D10), the child files loaded.
    shared: Rc<RefCell<Shared>>,
    inputs: &'b [(String, Input)],
    /// The include chain down to this blueprint (for cycles).
    chain: Vec<PathBuf>,
    env: Environment,
    vm: Vm,
    effects: Effects,
    status: PerDef<Option<Status>>,
    stack: Vec<Def>,
    errors: Vec<Error>,
    deferrals: Vec<Deferral>,
    /// Definitions whose value was computed from a secret (a child: one
    /// of its exports).
    secret: PerDef<bool>,
    secret_exports: HashSet<(usize, String)>,
    /// Variables a parent passed values computed from a secret (D11).
    secret_inputs: HashSet<String>,
    /// True while the items of a secret `each` are `elem` (D11).
    elem_secret: bool,
    /// Definitions only known at deploy time.
    deferred: PerDef<bool>,
    /// Variables whose value was refused (reported once, not at each use).
    failed: PerDef<bool>,
    deferred_exports: HashSet<(usize, String)>,
    out: Results,
    /// The blueprint's lines, split when a problem is first placed.
    lines: OnceCell<Lines<'b>>,
}

impl<'b> Resolver<'b> {
    fn new(
        bp: &'b Blueprint,
        opts: &'b Options,
        root: Option<Root>,
        inputs: &'b [(String, Input)],
        chain: Vec<PathBuf>,
        shared: Rc<RefCell<Shared>>,
    ) -> Resolver<'b> {
        let mut namespaces = Map::new();
        for ns in ["variables", "values", "datasources", "resources", "children"] {
            namespaces.insert(ns, Value::Map(Map::new()));
        }
        let effects = Effects {
            seed: opts.seed,
            now: opts.now,
            cwd: opts.cwd.clone(),
            root: root.clone(),
            // Relative paths start from the blueprint's own folder, as
            // `include` paths do.
            dir: bp.path.parent().map(PathBuf::from),
            allow_http: opts.allow_http.clone(),
            ..Effects::default()
        };
        Resolver {
            bp,
            keys: Keys {
                spec: Key::new("spec"),
                metadata: Key::new("metadata"),
                display_name: Key::new("displayName"),
                labels: Key::new("labels"),
                annotations: Key::new("annotations"),
                custom: Key::new("custom"),
            },
            opts,
            root,
            shared,
            inputs,
            chain,
            env: Environment::from_value(Value::Map(namespaces)).unwrap_or_default(),
            vm: Vm::new(),
            effects,
            status: PerDef::new(bp, None),
            stack: Vec::new(),
            errors: Vec::new(),
            deferrals: Vec::new(),
            secret: PerDef::new(bp, false),
            secret_exports: HashSet::new(),
            secret_inputs: HashSet::new(),
            elem_secret: false,
            deferred: PerDef::new(bp, false),
            failed: PerDef::new(bp, false),
            deferred_exports: HashSet::new(),
            out: Results {
                variables: vec![None; bp.variables.len()],
                values: vec![None; bp.values.len()],
                value_descriptions: vec![None; bp.values.len()],
                datasources: (0..bp.datasources.len()).map(|_| None).collect(),
                resources: (0..bp.resources.len()).map(|_| None).collect(),
                children: (0..bp.includes.len()).map(|_| None).collect(),
                exports: vec![None; bp.exports.len()],
                export_descriptions: vec![None; bp.exports.len()],
                metadata: None,
            },
            lines: OnceCell::new(),
        }
    }

    /// The blueprint's text in lines (for a `.bp` file, with where its
    /// substitutions were written).
    fn lines(&self) -> &Lines<'b> {
        self.lines.get_or_init(|| Lines::of_file(&self.bp.text, &self.bp.path))
    }

    fn mask(&self) -> bool {
        !self.opts.show_secrets
    }

    /// Counts `v` as held by the render (D10): `Err` with the message
    /// once the render would hold more than its budget.
    fn tally(&self, v: &Value, depth: usize) -> Result<(), String> {
        self.shared.borrow_mut().tally.add_at(v, depth)
    }

    /// [`Resolver::tally`] for `bytes` held besides values.
    fn tally_bytes(&self, bytes: usize) -> Result<(), String> {
        self.shared.borrow_mut().tally.add_bytes(bytes)
    }

    /// `v` for a message: masked when it was computed from a secret.
    fn shown(&self, v: &Value, secret: bool) -> String {
        if secret && self.mask() {
            MASK.to_string()
        } else {
            describe_value(v)
        }
    }

    fn fail(&mut self, at: Pos, path: &str, message: impl Into<String>) -> Failed {
        self.fail_with(Error::new(&self.bp.file, at, path, message))
    }

    fn fail_with(&mut self, e: Error) -> Failed {
        self.errors.push(e);
        Failed
    }

    fn run(mut self) -> Result<Rendered, Errors> {
        self.variables();
        let entities = (0..self.bp.values.len())
            .map(Def::Value)
            .chain((0..self.bp.datasources.len()).map(Def::DataSource))
            .chain((0..self.bp.resources.len()).map(Def::Resource))
            .chain((0..self.bp.includes.len()).map(Def::Child));
        for e in entities.collect::<Vec<_>>() {
            let _ = self.ensure(e);
        }
        for i in 0..self.bp.exports.len() {
            let _ = self.export(i);
        }
        if let Some(m) = &self.bp.metadata {
            self.out.metadata = self.tree(m).ok();
        }
        self.links();
        if !self.errors.is_empty() {
            // A child's problems came with its own lines.
            let mut errors = std::mem::take(&mut self.errors);
            self.lines().excerpts(&mut errors, &self.bp.file);
            self.errors = errors;
            self.errors.sort_by(|a, b| (&a.file, a.at).cmp(&(&b.file, b.at)));
            // A child included from several places fails the same way
            // at each: its problems are reported once.
            self.errors.dedup();
            return Err(Errors::new(self.errors));
        }
        let exports = self
            .bp
            .exports
            .iter()
            .zip(&self.out.exports)
            .filter_map(|(x, r)| Some((x.name.clone(), r.clone()?)))
            .collect();
        // A parent reads only a child's exports: the document is made for
        // the blueprint that was asked for.
        if self.chain.len() > 1 {
            return Ok(Rendered {
                document: Value::Null,
                deferred: self.deferrals,
                exports,
            });
        }
        let mask = self.mask();
        let document = output::document(self.bp, &mut self.out, mask);
        // The output text takes about as much as the document (D10).
        if let Err(message) = self.tally(&document, 0) {
            let at = Pos { line: 1, col: 1 };
            return Err(Errors::new(vec![Error {
                file: self.bp.file.clone(),
                at,
                path: String::new(),
                message: format!("the rendered document: {message}"),
                source: None,
            }]));
        }
        Ok(Rendered {
            document,
            deferred: self.deferrals,
            exports,
        })
    }

    fn put(&mut self, ns: &str, name: impl Into<Key>, v: Value) {
        if let Some(Value::Map(m)) = self.env.root_mut().get_mut(ns) {
            m.insert(name, v);
        }
    }

    // ---- dependencies ----------------------------------------------

    /// True when `sub` reads something computed from a secret.
    fn reads_secret(&self, sub: &Sub) -> bool {
        if self.elem_secret && sub.refs().contains(&Ref::Elem) {
            return true;
        }
        // Whether a path reads a secret resource field: looked at once,
        // however many resources the substitution reads.
        let mut resource_field = None;
        sub.defs.iter().any(|&d| {
            if !self.secret.get(d) {
                return false;
            }
            match d {
                // Only some of a resource's fields, or a child's exports,
                // may be secret.
                Def::Resource(_) => {
                    *resource_field.get_or_insert_with(|| sub.prog.loads().any(|p| self.resource_path_secret(p)))
                }
                Def::Child(i) => sub.refs().iter().any(|r| {
                    matches!(r, Ref::Child(c, e) if *c == self.bp.includes[i].name
                        && self.secret_exports.contains(&(i, e.clone())))
                }),
                _ => true,
            }
        })
    }

    /// True when a `resources.…` path reads something computed from a
    /// secret (a resource's other fields stay readable).
    fn resource_path_secret(&self, path: &Path) -> bool {
        let segs = &path.segs;
        let (Some(Seg::Key(root, _)), Some(Seg::Key(name, _))) = (segs.first(), segs.get(1)) else {
            return false;
        };
        let Some(&i) = self.bp.index.resources.get(name.as_str()) else {
            return false;
        };
        if root.as_str() != "resources" || !self.secret.get(Def::Resource(i)) {
            return false;
        }
        let Some(ResourceOut::Present { instances, .. }) = &self.out.resources[i] else {
            return false;
        };
        let (inst, rest) = match segs.get(2) {
            Some(Seg::Index(n)) => (usize::try_from(*n).ok().and_then(|n| instances.get(n)), &segs[3..]),
            _ if instances.len() == 1 && self.bp.resources[i].each.is_none() => (instances.first(), &segs[2..]),
            _ => return true,
        };
        let Some(inst) = inst else { return false };
        let key = |k: usize| match rest.get(k) {
            Some(Seg::Key(k, _)) => k.as_str(),
            _ => "",
        };
        let part = match (key(0), key(1)) {
            ("spec", _) => Some((&inst.spec, 1)),
            ("metadata", "displayName") => inst.display_name.as_ref().map(|r| (r, 2)),
            ("metadata", "annotations") => inst.annotations.as_ref().map(|r| (r, 2)),
            ("metadata", "custom") => inst.custom.as_ref().map(|r| (r, 2)),
            ("metadata", "labels") => return false,
            _ => return true,
        };
        part.is_some_and(|(r, from)| secret_at(r, rest.get(from..).unwrap_or(&[])))
    }

    fn describe(&self, d: Def) -> String {
        match d {
            Def::Variable(i) => format!("variables.{}", self.bp.variables[i].name),
            Def::Value(i) => format!("values.{}", self.bp.values[i].name),
            Def::DataSource(i) => format!("datasources.{}", self.bp.datasources[i].name),
            Def::Resource(i) => format!("resources.{}", self.bp.resources[i].name),
            Def::Child(i) => format!("include.{}", self.bp.includes[i].name),
        }
    }

    fn at(&self, d: Def) -> Pos {
        match d {
            Def::Variable(i) => self.bp.variables[i].at,
            Def::Value(i) => self.bp.values[i].at,
            Def::DataSource(i) => self.bp.datasources[i].at,
            Def::Resource(i) => self.bp.resources[i].at,
            Def::Child(i) => self.bp.includes[i].at,
        }
    }

    /// Resolves `e` unless it is already; a reference cycle is an error.
    fn ensure(&mut self, e: Def) -> Result<(), Failed> {
        match self.status.get(e) {
            Some(Status::Done) => return Ok(()),
            Some(Status::Failed) => return Err(Failed),
            Some(Status::Active) => {
                let from = self.stack.iter().position(|x| *x == e).unwrap_or(0);
                let mut cycle: Vec<String> = self.stack[from..].iter().map(|x| self.describe(*x)).collect();
                cycle.push(self.describe(e));
                let message = format!("a reference cycle: {}", cycle.join(" → "));
                let (at, path) = (self.at(e), self.describe(e));
                return Err(self.fail(at, &path, message));
            }
            None if self.stack.len() >= REFERENCE_DEPTH => {
                self.status.set(e, Some(Status::Failed));
                let message = format!("references nested too deeply (more than {REFERENCE_DEPTH} levels)");
                let (at, path) = (self.at(e), self.describe(e));
                return Err(self.fail(at, &path, message));
            }
            None => {}
        }
        self.status.set(e, Some(Status::Active));
        self.stack.push(e);
        let r = match e {
            // Variables are all resolved first.
            Def::Variable(_) => Ok(()),
            Def::Value(i) => self.value(i),
            Def::DataSource(i) => self.datasource(i),
            Def::Resource(i) => self.resource(i),
            Def::Child(i) => self.child(i),
        };
        self.stack.pop();
        self.status
            .set(e, Some(if r.is_ok() { Status::Done } else { Status::Failed }));
        r
    }

    /// Resolves what `subs` reference.
    fn ensure_refs<'s>(&mut self, subs: impl IntoIterator<Item = &'s Sub>) -> Result<(), Failed> {
        let mut ok = true;
        for s in subs {
            ok &= self.ensure_defs(&s.defs).is_ok();
        }
        if ok { Ok(()) } else { Err(Failed) }
    }

    /// Resolves `defs`.
    fn ensure_defs(&mut self, defs: &[Def]) -> Result<(), Failed> {
        let mut ok = true;
        for &d in defs {
            if !matches!(d, Def::Variable(_)) {
                ok &= self.ensure(d).is_ok();
            }
        }
        if ok { Ok(()) } else { Err(Failed) }
    }

    // ---- evaluation ------------------------------------------------

    fn eval(&mut self, sub: &Sub) -> Result<Resolved, Failed> {
        self.eval_at(sub, 0)
    }

    /// [`Resolver::eval`] for a substitution placed `depth` lists and maps
    /// deep: its value must not nest past the limit with them (D9).
    fn eval_at(&mut self, sub: &Sub, depth: usize) -> Result<Resolved, Failed> {
        self.ensure_refs([sub])?;
        if let Err(message) = bpvm_runtime::govern::tick() {
            return Err(self.fail(sub.at, &sub.path, message));
        }
        let secret = self.reads_secret(sub);
        let result = self
            .vm
            .run_with(&sub.prog, &self.env, &self.effects)
            .map(|v| v.to_value());
        let e = match result {
            Ok(Value::Null) => return Ok(Resolved::Omitted),
            Ok(v) => {
                if let Err(message) = self.tally(&v, depth) {
                    return Err(self.fail(sub.at, &sub.path, message));
                }
                return Ok(Resolved::Known(v, secret));
            }
            Err(e) => e,
        };
        let missing = match &e.fault {
            Fault::Missing(_) => self.why_missing(sub),
            Fault::Call(f) if f.deferred => Some(Missing::Deferred(f.message.clone())),
            _ => None,
        };
        match missing {
            Some(Missing::Deferred(reference)) => {
                self.deferrals.push(Deferral {
                    file: self.bp.file.clone(),
                    path: sub.path.clone(),
                    reference,
                });
                Ok(Resolved::Deferred(sub.text().into()))
            }
            Some(Missing::Reported) => Err(Failed),
            Some(Missing::Error(message)) => Err(self.fail(sub.at, &sub.path, message)),
            None if secret && self.mask() => Err(self.fail(
                sub.at,
                &sub.path,
                "the substitution failed; it reads a secret, so the details are hidden (--show-secrets shows them)",
            )),
            None => {
                let d = sub.prog.diagnose(&e);
                let span = (d.start as u32, d.end as u32);
                match self.lines().placed(sub.at, sub.text(), span) {
                    Some(p) => {
                        let at = Pos {
                            line: p.line as u32,
                            col: p.column as u32,
                        };
                        let line = p.source.map(|l| Box::new((l, p.width)));
                        Err(self.fail_with(Error {
                            source: line,
                            ..Error::new(&self.bp.file, at, &sub.path, d.message)
                        }))
                    }
                    None => Err(self.fail(sub.at, &sub.path, d.to_string().trim_end())),
                }
            }
        }
    }

    /// Why a strict path of `sub` found nothing.
    fn why_missing(&self, sub: &Sub) -> Option<Missing> {
        for path in sub.prog.loads() {
            let Some(k) = first_missing(self.env.root(), path) else {
                continue;
            };
            let key = |i: usize| match path.segs.get(i) {
                Some(Seg::Key(k, _)) => k.as_str(),
                _ => "",
            };
            let ix = &self.bp.index;
            let text = path.prefix(path.segs.len());
            if key(0) == "variables"
                && ix
                    .variables
                    .get(key(1))
                    .copied()
                    .is_some_and(|i| self.failed.get(Def::Variable(i)))
            {
                return Some(Missing::Reported);
            }
            let deferred = match key(0) {
                "variables" => ix
                    .variables
                    .get(key(1))
                    .copied()
                    .is_some_and(|i| self.deferred.get(Def::Variable(i))),
                "values" => {
                    k == 1
                        && ix
                            .values
                            .get(key(1))
                            .copied()
                            .is_some_and(|i| self.deferred.get(Def::Value(i)))
                }
                "datasources" => {
                    k == 1
                        && ix
                            .datasources
                            .get(key(1))
                            .map(|&(i, _)| i)
                            .is_some_and(|i| self.deferred.get(Def::DataSource(i)))
                }
                "children" => {
                    k == 2
                        && ix
                            .includes
                            .get(key(1))
                            .copied()
                            .is_some_and(|i| self.deferred_exports.contains(&(i, key(2).to_string())))
                }
                "resources" => {
                    let name = key(1);
                    if k == 1 {
                        if let Some(i) = ix.resources.get(name).copied()
                            && matches!(self.out.resources[i], Some(ResourceOut::Absent))
                        {
                            return Some(Missing::Error(format!(
                                "{text}: resources.{name} is not created (its condition is false)"
                            )));
                        }
                        false
                    } else {
                        let spec = (2..=3).find(|&i| key(i) == "spec");
                        spec.is_some_and(|s| k > s)
                    }
                }
                _ => false,
            };
            return Some(if deferred {
                Missing::Deferred(text)
            } else {
                Missing::Error(format!("{} does not exist", path.prefix(k + 1)))
            });
        }
        None
    }

    /// Resolves a value with substitutions; every failure inside is
    /// recorded before it fails.
    fn tree(&mut self, t: &Tree) -> Result<Resolved, Failed> {
        self.tree_at(t, 0)
    }

    /// [`Resolver::tree`] for a value `depth` lists and maps deep.
    fn tree_at(&mut self, t: &Tree, depth: usize) -> Result<Resolved, Failed> {
        match t {
            Tree::Lit(v) => Ok(Resolved::Literal(v.clone())),
            Tree::Sub(s) => self.eval_at(s, depth),
            Tree::List(items) => Ok(Resolved::List(self.every(items, |me, t| me.tree_at(t, depth + 1))?)),
            Tree::Map(entries) => {
                Ok(Resolved::Map(self.every(entries, |me, (k, t)| {
                    Ok((k.clone(), me.tree_at(t, depth + 1)?))
                })?))
            }
        }
    }

    /// `f` applied to each item; after a failure it goes on, so that every
    /// problem is reported, then fails.
    fn every<T, R>(
        &mut self,
        items: &[T],
        mut f: impl FnMut(&mut Self, &T) -> Result<R, Failed>,
    ) -> Result<Vec<R>, Failed> {
        let mut out = Vec::with_capacity(items.len());
        let mut ok = true;
        for item in items {
            match f(self, item) {
                Ok(r) => out.push(r),
                Err(_) => ok = false,
            }
        }
        if ok { Ok(out) } else { Err(Failed) }
    }

    fn opt_tree(&mut self, t: &Option<Tree>) -> Result<Option<Resolved>, Failed> {
        t.as_ref().map(|t| self.tree(t)).transpose()
    }

    /// Fails when a substitution in `t` yielded (in `r`) what the field,
    /// `what`, cannot hold (`ok` says what it can: seed 002's field type).
    fn shaped(&mut self, t: &Tree, r: &Resolved, what: &str, ok: fn(&Value) -> bool) -> Result<(), Failed> {
        match (t, r) {
            (Tree::Sub(s), Resolved::Known(v, _)) if !ok(v) => {
                Err(self.fail(s.at, &s.path, crate::load::not_primitive(what, v)))
            }
            (Tree::List(ts), Resolved::List(rs)) => {
                let mut all = Ok(());
                for (t, r) in ts.iter().zip(rs) {
                    all = all.and(self.shaped(t, r, what, ok));
                }
                all
            }
            (Tree::Map(ts), Resolved::Map(rs)) => {
                let mut all = Ok(());
                for ((_, t), (_, r)) in ts.iter().zip(rs) {
                    all = all.and(self.shaped(t, r, what, ok));
                }
                all
            }
            _ => Ok(()),
        }
    }

    /// [`Resolver::shaped`] for an optional field.
    fn opt_shaped(&mut self, t: &Option<Tree>, r: &Option<Resolved>, what: &str) -> Result<(), Failed> {
        match (t, r) {
            (Some(t), Some(r)) => self.shaped(t, r, what, primitive),
            _ => Ok(()),
        }
    }

    // ---- exports ---------------------------------------------------

    fn export(&mut self, i: usize) -> Result<(), Failed> {
        let x = &self.bp.exports[i];
        self.out.export_descriptions[i] = self.opt_tree(&x.description)?;
        self.opt_shaped(
            &x.description,
            &self.out.export_descriptions[i].clone(),
            "a description",
        )?;
        let r = match self.eval(&x.field)? {
            // An export field is written without `${..}`; a deferred one
            // is shown as the substitution it stands for.
            Resolved::Deferred(text) => Resolved::Deferred(format!("${{{text}}}").into()),
            Resolved::Known(v, secret) => Resolved::Known(x.ty.text_of_bytes(v), secret),
            r => r,
        };
        if let Resolved::Known(v, _) = &r
            && !x.ty.holds(v)
        {
            // Bytes declared a string are left here only when not text.
            let not_text = if matches!(v, Value::Bytes(_)) && x.ty.name() == "string" {
                " that is not UTF-8 text"
            } else {
                ""
            };
            let message = format!(
                "the export is declared {} but {} is {}{not_text}",
                x.ty.name(),
                x.field.text(),
                article(type_name(v))
            );
            return Err(self.fail(x.at, &format!("exports.{}", x.name), message));
        }
        self.out.exports[i] = Some(r);
        Ok(())
    }
}

/// True when what `segs` reach inside `r` was computed from a secret.
fn secret_at(r: &Resolved, segs: &[Seg]) -> bool {
    match (r, segs.first()) {
        (r, None) => r.is_secret(),
        (Resolved::Known(_, secret), _) => *secret,
        (Resolved::Map(entries), Some(Seg::Key(k, _))) => entries
            .iter()
            .find(|(n, _)| n == k)
            .is_some_and(|(_, r)| secret_at(r, &segs[1..])),
        (Resolved::List(items), Some(Seg::Index(i))) => {
            let kept: Vec<&Resolved> = items.iter().filter(|r| !matches!(r, Resolved::Omitted)).collect();
            usize::try_from(*i)
                .ok()
                .and_then(|i| kept.get(i))
                .is_some_and(|r| secret_at(r, &segs[1..]))
        }
        _ => false,
    }
}

/// The index of the first key of `path` that is not in `root` (`None`
/// when every key is there, or the path fails for another reason).
fn first_missing(root: &Map, path: &Path) -> Option<usize> {
    let mut cur: Option<&Value> = None;
    for (k, seg) in path.segs.iter().enumerate() {
        let next = match (cur, seg) {
            (None, Seg::Key(key, _)) => root.get(key.as_str()),
            (Some(Value::Map(m)), Seg::Key(key, _)) => m.get(key.as_str()),
            (Some(Value::List(items)), Seg::Index(i)) => {
                let at = if *i < 0 { items.len() as i64 + i } else { *i };
                Some(usize::try_from(at).ok().and_then(|at| items.get(at))?)
            }
            _ => return None,
        };
        match next {
            Some(v) => cur = Some(v),
            None => return Some(k),
        }
    }
    None
}

fn article(kind: &str) -> String {
    if kind == "binary" {
        return "binary data".into();
    }
    if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {kind}")
    } else {
        format!("a {kind}")
    }
}

/// True for a string, a number or a boolean.
pub(super) fn primitive(v: &Value) -> bool {
    matches!(
        v,
        Value::Str(_) | Value::Int(_) | Value::Float(_) | Value::Bool(_) | Value::Null
    )
}

/// A value for messages: `"text"`, `42`, `an array`.
pub(crate) fn describe_value(v: &Value) -> String {
    match v {
        Value::Str(s) => format!("{s:?}"),
        Value::Int(_) | Value::Float(_) | Value::Bool(_) => v.to_json(),
        other => article(type_name(other)),
    }
}
