//! Values with `${…}` inside, compiled once: a tree that mirrors the YAML
//! value, whose strings with expressions hold compiled programs. A template
//! is compiled when the project loads and evaluated for every context.

use crate::blueprint::merge::merge_entry;
use crate::host::Host;
use crate::template::secrecy::Secrecy;
use bpvm_compiler::Compiler;
use bpvm_runtime::budget::Tally;
use bpvm_runtime::{Diagnostic, Key, Map};
use bpvm_runtime::{Environment, Value};
use bpvm_vm::Fault;
use bpvm_vm::{Program, Vm};
use foldhash::HashMap;
use std::collections::BTreeSet;

/// A compiled value.
#[derive(Debug, Clone)]
pub enum Tmpl {
    /// Nothing to evaluate.
    Lit(Value),
    /// A string with `${…}` parts (the source is kept for deferral).
    /// Shared: merging config blocks copies templates for every context.
    Text {
        src: std::sync::Arc<str>,
        prog: std::sync::Arc<Compiled>,
    },
    /// A list with something to evaluate inside.
    List(Vec<Tmpl>),
    /// A map with something to evaluate inside, in document order.
    Map(Vec<(Box<str>, Tmpl)>),
}

/// A rewriting of a host string before it is compiled (`None`: as written).
pub type Rewrite = fn(&str) -> Option<String>;

/// A compiled `${…}` string and the paths it reads, found once.
#[derive(Debug)]
pub struct Compiled {
    /// The program.
    pub prog: Program,
    /// The first two steps of each path it reads (`talos.disks.x` →
    /// `talos`, `disks`), in code order.
    pub reads: Vec<(Box<str>, Option<Box<str>>)>,
}

impl Compiled {
    fn new(prog: Program) -> Compiled {
        let mut reads: Vec<(Box<str>, Option<Box<str>>)> = Vec::new();
        let mut seen = foldhash::HashSet::default();
        for p in prog.loads() {
            let step = |i: usize| match p.segs.get(i) {
                Some(bpvm_vm::Seg::Key(k, _)) => Some(Box::<str>::from(k.as_str())),
                _ => None,
            };
            if let Some(first) = step(0) {
                let read = (first, step(1));
                if seen.insert(read.clone()) {
                    reads.push(read);
                }
            }
        }
        Compiled { prog, reads }
    }
}

/// A template that failed to compile or to evaluate: where inside the
/// value (`.inputs.endpoint`, `[2]`) and why.
#[derive(Debug, Clone)]
pub struct TmplError {
    /// The path inside the templated value.
    pub at: String,
    /// The expression's diagnostic.
    pub diag: Diagnostic,
}

impl Tmpl {
    /// Compiles every string of `v` that has a `${`.
    pub fn compile(v: &Value, compiler: &Compiler) -> Result<Tmpl, TmplError> {
        Tmpl::compile_rewritten(v, compiler, None)
    }

    /// [`Tmpl::compile`], each string first rewritten by `rewrite` when it
    /// gives a rewriting (the string as written stays the text kept when
    /// evaluation is deferred).
    pub fn compile_rewritten(v: &Value, compiler: &Compiler, rewrite: Option<Rewrite>) -> Result<Tmpl, TmplError> {
        let compile = |x: &Value| Tmpl::compile_rewritten(x, compiler, rewrite);
        Ok(match v {
            Value::Str(s) if s.contains("${") => {
                match compiler.compile_template(rewrite.and_then(|r| r(s)).as_deref().unwrap_or(s)) {
                    Ok(mut prog) => Tmpl::Text {
                        src: s.clone(),
                        prog: std::sync::Arc::new(Compiled::new({
                            crate::template::numbering::number(&mut prog);
                            prog
                        })),
                    },
                    Err(diag) => {
                        return Err(TmplError {
                            at: String::new(),
                            diag,
                        });
                    }
                }
            }
            Value::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    out.push(compile(x).map_err(|e| e.under(&format!("[{i}]")))?);
                }
                if out.iter().all(Tmpl::is_lit) {
                    Tmpl::Lit(v.clone())
                } else {
                    Tmpl::List(out)
                }
            }
            Value::Map(m) => {
                let mut out = Vec::with_capacity(m.len());
                for (k, x) in m.iter() {
                    let t = compile(x).map_err(|e| e.under(&format!(".{}", k.as_str())))?;
                    out.push((k.as_str().into(), t));
                }
                if out.iter().all(|(_, t)| t.is_lit()) {
                    Tmpl::Lit(v.clone())
                } else {
                    Tmpl::Map(out)
                }
            }
            other => Tmpl::Lit(other.clone()),
        })
    }

    /// Compiles the entries of `m`, except that those named in `raw` are
    /// kept as written, `${…}` and all.
    pub fn compile_except(
        m: &Map,
        raw: &[&str],
        compiler: &Compiler,
        rewrite: Option<Rewrite>,
    ) -> Result<Tmpl, TmplError> {
        let mut out = Vec::with_capacity(m.len());
        for (k, x) in m.iter() {
            let t = if raw.contains(&k.as_str()) {
                Tmpl::Lit(x.clone())
            } else {
                Tmpl::compile_rewritten(x, compiler, rewrite).map_err(|e| e.under(&format!(".{}", k.as_str())))?
            };
            out.push((k.as_str().into(), t));
        }
        Ok(if out.iter().all(|(_, t)| t.is_lit()) {
            Tmpl::Lit(Value::Map(m.clone()))
        } else {
            Tmpl::Map(out)
        })
    }

    /// True when there is nothing to evaluate.
    pub fn is_lit(&self) -> bool {
        matches!(self, Tmpl::Lit(_))
    }

    /// The top-level names the template's expressions read.
    pub fn roots(&self, out: &mut BTreeSet<String>) {
        match self {
            Tmpl::Lit(_) => {}
            Tmpl::Text { prog, .. } => out.extend(prog.reads.iter().map(|(first, _)| first.to_string())),
            Tmpl::List(items) => items.iter().for_each(|t| t.roots(out)),
            Tmpl::Map(entries) => entries.iter().for_each(|(_, t)| t.roots(out)),
        }
    }

    /// The deep merge of `layers`, each over the ones before it: maps
    /// merge key by key, anything else replaces what is below (config
    /// blocks' structural merge). Each key's layers are gathered in one
    /// pass and merged in turn, so n layers cost their size, not n times
    /// the size of what they build.
    pub fn merged(mut layers: Vec<Tmpl>) -> Tmpl {
        let from = match layers.iter().rposition(|t| !t.is_map()) {
            // A map over something else replaces it.
            Some(p) if p + 1 < layers.len() => p + 1,
            Some(_) => return layers.pop().unwrap_or(Tmpl::Lit(Value::Null)),
            None if layers.len() <= 1 => return layers.pop().unwrap_or(Tmpl::Lit(Value::Null)),
            None => 0,
        };
        let mut keys: Vec<(Box<str>, Vec<Tmpl>)> = Vec::new();
        let mut at: HashMap<Box<str>, usize> = HashMap::default();
        for layer in layers.drain(from..) {
            for (k, t) in layer.into_entries().unwrap_or_default() {
                match at.get(&k) {
                    Some(&i) => keys[i].1.push(t),
                    None => {
                        at.insert(k.clone(), keys.len());
                        keys.push((k, vec![t]));
                    }
                }
            }
        }
        Tmpl::Map(keys.into_iter().map(|(k, layers)| (k, Tmpl::merged(layers))).collect())
    }

    /// Marks the paths of this config block value, placed at `at` in the
    /// scope, that read a secret as secret in `secrecy`: each such value,
    /// or the list that holds it.
    pub(crate) fn taint(&self, secrecy: &mut Secrecy, at: &[&str]) {
        if secrecy.is_empty() {
            return;
        }
        let mut found = Vec::new();
        self.tainted(secrecy, &mut at.iter().map(|&s| s.into()).collect(), &mut found);
        secrecy.mark(found);
    }

    fn tainted(&self, secrecy: &Secrecy, at: &mut Vec<Box<str>>, found: &mut Vec<Vec<Box<str>>>) {
        match self {
            Tmpl::Lit(_) => {}
            Tmpl::Text { prog, .. } => {
                if secrecy.reads(&prog.prog) {
                    found.push(at.clone());
                }
            }
            Tmpl::List(items) => {
                let before = found.len();
                items.iter().for_each(|i| i.tainted(secrecy, at, found));
                if found.len() > before {
                    found.truncate(before);
                    found.push(at.clone());
                }
            }
            Tmpl::Map(entries) => {
                for (k, t) in entries {
                    at.push(k.clone());
                    t.tainted(secrecy, at, found);
                    at.pop();
                }
            }
        }
    }

    fn is_map(&self) -> bool {
        matches!(self, Tmpl::Map(_) | Tmpl::Lit(Value::Map(_)))
    }

    fn into_entries(self) -> Result<Vec<(Box<str>, Tmpl)>, Tmpl> {
        match self {
            Tmpl::Map(entries) => Ok(entries),
            Tmpl::Lit(Value::Map(m)) => Ok(m
                .iter()
                .map(|(k, v)| (k.as_str().into(), Tmpl::Lit(v.clone())))
                .collect()),
            other => Err(other),
        }
    }

    /// Evaluates against `ev`'s scope. A `${…}` whose value is deferred
    /// (a terraform output not known yet) keeps its text (W9).
    pub fn eval(&self, ev: &mut Evaluator) -> Result<Value, TmplError> {
        self.eval_at(ev, 0)
    }

    /// [`Tmpl::eval`] for a template `depth` lists and maps deep: a value
    /// placed there must not nest past the limit with them (D9).
    fn eval_at(&self, ev: &mut Evaluator, depth: usize) -> Result<Value, TmplError> {
        Ok(match self {
            Tmpl::Lit(v) => v.clone(),
            Tmpl::Text { src, prog } => match ev.run_at(&prog.prog, depth) {
                // Computed in full, then masked: a value from a secret
                // fails as it would unmasked.
                Ok(_) if ev.secrecy.masks(&prog.prog) => Secrecy::masked(&prog.prog),
                Ok(v) => v,
                Err(Outcome::Deferred) => Value::Str(src.clone()),
                Err(Outcome::Failed(diag)) => {
                    let diag = match ev.secrecy.hides(&prog.prog) {
                        true => Secrecy::hidden(diag),
                        false => diag,
                    };
                    return Err(TmplError {
                        at: String::new(),
                        diag,
                    });
                }
            },
            Tmpl::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, t) in items.iter().enumerate() {
                    out.push(t.eval_at(ev, depth + 1).map_err(|e| e.under(&format!("[{i}]")))?);
                }
                Value::List(out)
            }
            Tmpl::Map(entries) => {
                let mut out = Map::new();
                for (k, t) in entries {
                    out.insert(&**k, t.eval_at(ev, depth + 1).map_err(|e| e.under(&format!(".{k}")))?);
                }
                Value::Map(out)
            }
        })
    }
}

impl TmplError {
    /// The same error, one level further down.
    fn under(mut self, step: &str) -> TmplError {
        self.at.insert_str(0, step);
        self
    }
}

/// Why a program gave no value.
pub enum Outcome {
    /// A function's value is not known yet.
    Deferred,
    /// An error.
    Failed(Diagnostic),
}

/// Runs programs against one scope, with the renderer's functions.
pub struct Evaluator {
    vm: Vm,
    /// What the renderer's functions need (files, terraform outputs),
    /// and the scope expressions read.
    pub host: Host,
    /// What the render's results hold so far (D9).
    tally: Tally,
    /// Which values are computed from secrets, and how they show.
    pub secrecy: Secrecy,
}

impl Evaluator {
    /// An evaluator over `scope`.
    pub fn new(scope: Value, host: Host) -> Evaluator {
        let mut ev = Evaluator {
            vm: Vm::new(),
            host,
            tally: Tally::default(),
            secrecy: Secrecy::default(),
        };
        ev.set_scope(scope);
        ev
    }

    /// Makes `scope` what expressions read (a mapping; anything else is
    /// an empty scope).
    pub fn set_scope(&mut self, scope: Value) {
        self.host.env = Environment::from_value(scope).unwrap_or_default();
        if let Some(table) = &self.host.paths {
            self.host.env.bind(table);
        }
    }

    /// Deep-merges `value` into the scope under `name`, in place: an
    /// evaluated config block joins what later expressions read without
    /// the rest of the scope being copied.
    pub fn merge_into_scope(&mut self, name: &str, value: Value) {
        merge_entry(self.host.env.root_mut(), &Key::new(name), value);
    }

    /// Sets (or, with `None`, removes) the top-level scope entry `name`.
    pub fn put(&mut self, name: &str, value: Option<Value>) {
        let root = self.host.env.root_mut();
        match value {
            Some(v) => {
                root.insert(name, v);
            }
            None => {
                root.remove(name);
            }
        }
    }

    /// The top-level scope entry `name`, to change in place.
    pub fn scope_get_mut(&mut self, name: &str) -> Option<&mut Value> {
        self.host.env.root_mut().get_mut(name)
    }

    /// The top-level scope entry `name`.
    pub fn scope_get(&self, name: &str) -> Option<&Value> {
        self.host.env.root().get(name)
    }

    /// The whole scope.
    pub fn scope(&self) -> &Map {
        self.host.env.root()
    }

    /// Takes the scope out, leaving it empty.
    pub fn take_scope(&mut self) -> Map {
        std::mem::take(self.host.env.root_mut())
    }

    /// Takes the scope out as it may be shown: values computed from
    /// secrets masked unless they are shown.
    pub fn take_shown_scope(&mut self) -> Map {
        let mut scope = self.take_scope();
        self.secrecy.mask_values(&mut scope);
        scope
    }

    /// Runs one program (a condition): one that reads a secret and fails
    /// hides its details unless secrets are shown.
    pub fn run(&mut self, prog: &Program) -> Result<Value, Outcome> {
        match self.run_at(prog, 0) {
            Err(Outcome::Failed(d)) if self.secrecy.hides(prog) => Err(Outcome::Failed(Secrecy::hidden(d))),
            other => other,
        }
    }

    /// Runs one program whose value is placed `depth` lists and maps deep.
    fn run_at(&mut self, prog: &Program, depth: usize) -> Result<Value, Outcome> {
        if let Err(m) = bpvm_runtime::govern::tick() {
            return Err(Outcome::Failed(Diagnostic::new(m, &prog.source, 0, prog.source.len())));
        }
        match self.vm.run_with(prog, &self.host.env, &self.host) {
            Ok(v) => {
                let v = v.to_value();
                let len = prog.source.len();
                self.tally
                    .add_at(&v, depth)
                    .map_err(|m| Outcome::Failed(Diagnostic::new(m, &prog.source, 0, len)))?;
                Ok(v)
            }
            Err(e) => match &e.fault {
                Fault::Call(f) if f.deferred => Err(Outcome::Deferred),
                _ => Err(Outcome::Failed(prog.diagnose(&e))),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A template of literals and maps as the value it stands for.
    fn plain(t: &Tmpl) -> Value {
        match t {
            Tmpl::Lit(v) => v.clone(),
            Tmpl::Map(entries) => Value::Map(entries.iter().map(|(k, t)| (Key::new(k), plain(t))).collect()),
            other => panic!("not plain: {other:?}"),
        }
    }

    fn layer(yaml: &str) -> Tmpl {
        Tmpl::Lit(Value::from_yaml(yaml).unwrap())
    }

    #[test]
    fn later_layers_merge_over_earlier_ones() {
        let m = Tmpl::merged(vec![
            layer("{a: 1, b: {x: 1, y: 1}}"),
            layer("{b: {y: 2}, c: 3}"),
            layer("{a: [1], b: {z: 3}}"),
        ]);
        assert_eq!(plain(&m).to_json(), r#"{"a":[1],"b":{"x":1,"y":2,"z":3},"c":3}"#);
        // What is not a map replaces everything below it.
        let m = Tmpl::merged(vec![layer("{a: 1}"), layer("5"), layer("{b: 2}")]);
        assert_eq!(plain(&m).to_json(), r#"{"b":2}"#);
    }
}
