//! Conditions tried on every combination of the values they read, when
//! each value they read has a short list of possibilities in the schema
//! (an `enum`, a bool, unset): a condition that is always the same, or
//! two that can never hold together, is then known for every context.

use super::schema::domain;
use super::scope::is_set_by_windsor;
use bpvm_compiler::Compiler;
use bpvm_runtime::{Environment, Map, Value};
use bpvm_vm::{Program, Seg, Vm};
use std::collections::HashMap;

/// At most this many combinations are tried for one question.
const MAX_COMBINATIONS: usize = 4096;

/// Tries conditions against a schema.
pub struct Reach<'s> {
    schema: &'s Value,
    compiler: Compiler,
    v09: bool,
    vm: Vm,
    /// Each condition compiled once (a facet's is tried with each of its
    /// components'); `None` when it cannot be decided at all.
    compiled: HashMap<String, Option<Program>>,
}

/// What each condition gave, for every combination tried.
pub struct Table {
    /// One row per combination, one truth per condition.
    pub rows: Vec<Vec<bool>>,
}

impl<'s> Reach<'s> {
    /// Tries conditions compiled by `compiler` against `schema`.
    pub fn new(schema: &'s Value, compiler: Compiler, v09: bool) -> Reach<'s> {
        Reach {
            schema,
            compiler,
            v09,
            vm: Vm::new(),
            compiled: HashMap::new(),
        }
    }

    /// Every combination's truths of `conditions`; `None` when that is
    /// not decidable (a value with no short list of possibilities, a
    /// function that reads the world, too many combinations).
    pub fn table(&mut self, conditions: &[&str]) -> Option<Table> {
        for src in conditions {
            if !self.compiled.contains_key(*src) {
                let prog = if src.contains("${") {
                    self.compiler.compile_template(src)
                } else {
                    self.compiler.compile(src)
                };
                // A function that reads the world decides nothing.
                let prog = prog.ok().filter(|p| p.funcs.iter().all(|f| f.pure));
                self.compiled.insert(src.to_string(), prog);
            }
        }
        let progs: Vec<&Program> = conditions
            .iter()
            .map(|src| self.compiled.get(*src).and_then(Option::as_ref))
            .collect::<Option<_>>()?;
        let paths = read(&progs)?;
        let mut domains = Vec::with_capacity(paths.len());
        let mut combinations = 1usize;
        for p in &paths {
            let names: Vec<&str> = p.iter().map(String::as_str).collect();
            if is_set_by_windsor(&names, self.v09) {
                return None;
            }
            let d = domain(self.schema, &names)?;
            combinations = combinations.saturating_mul(d.len());
            domains.push(d);
        }
        if combinations > MAX_COMBINATIONS {
            return None;
        }
        let mut rows = Vec::with_capacity(combinations);
        for i in 0..combinations {
            let mut scope = Map::new();
            let mut rest = i;
            for (p, d) in paths.iter().zip(&domains) {
                let v = &d[rest % d.len()];
                rest /= d.len();
                if *v != Value::Null {
                    set(&mut scope, p, v.clone());
                }
            }
            let env = Environment::from_value(Value::Map(scope)).ok()?;
            let mut row = Vec::with_capacity(progs.len());
            for prog in &progs {
                row.push(truth(bpvm_vm::eval(&mut self.vm, prog, &env).ok()?)?);
            }
            rows.push(row);
        }
        Some(Table { rows })
    }
}

/// A condition's value as Windsor reads it; `None` for a value that is
/// not one (the render fails; the type check reports it).
fn truth(v: Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(b),
        Value::Null => Some(false),
        Value::Str(s) => Some(&*s == "true"),
        _ => None,
    }
}

/// The paths `progs` read, each once; `None` when one is not all names.
fn read(progs: &[&Program]) -> Option<Vec<Vec<String>>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for prog in progs {
        for p in &prog.paths {
            let mut names = Vec::with_capacity(p.segs.len());
            for s in &p.segs {
                match s {
                    Seg::Key(k, _) => names.push(k.as_str().to_string()),
                    Seg::Index(_) => return None,
                }
            }
            if !out.contains(&names) {
                out.push(names);
            }
        }
    }
    Some(out)
}

fn set(scope: &mut Map, path: &[String], v: Value) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut at = scope;
    for name in parents {
        if !matches!(at.get(name), Some(Value::Map(_))) {
            at.insert(name.as_str(), Value::Map(Map::new()));
        }
        let Some(Value::Map(next)) = at.get_mut(name) else {
            return;
        };
        at = next;
    }
    at.insert(last.as_str(), v);
}

impl Table {
    /// The one value every combination gives the condition `i`, if any.
    pub fn constant(&self, i: usize) -> Option<bool> {
        let first = self.rows.first()?[i];
        self.rows.iter().all(|r| r[i] == first).then_some(first)
    }

    /// Whether some combination makes every condition true.
    pub fn all_can_hold(&self) -> bool {
        self.rows.iter().any(|r| r.iter().all(|b| *b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm_compiler::Dialect;

    fn reach(schema: &Value) -> Reach<'_> {
        Reach::new(schema, Compiler::new(Dialect::Windsor), true)
    }

    #[test]
    fn enums_and_bools_decide_conditions() {
        let s = Value::from_yaml(
            "properties:\n  p: {type: string, enum: [aws, azure], default: aws}\n  ha: {type: boolean, default: false}\n  name: {type: string}\n",
        )
        .unwrap();
        let mut r = reach(&s);
        let t = r.table(&["p == 'aws' || p == 'azure'"]).unwrap();
        assert_eq!(t.constant(0), Some(true));
        let t = r.table(&["p == 'aws'", "p == 'azure' && ha"]).unwrap();
        assert_eq!((t.constant(0), t.all_can_hold()), (None, false));
        assert!(r.table(&["name == 'x'"]).is_none(), "a free text has no short list");
        assert!(r.table(&["context == 'x'"]).is_none(), "Windsor sets context");
        assert_eq!(r.table(&["true"]).unwrap().constant(0), Some(true));
    }
}
