//! What an operation does with values of given kinds, learnt by doing it:
//! the checker runs the dialect's own operators and builtins on a sample
//! value of each kind, so its verdicts are the VM's — no second copy of
//! the language's rules to drift from the first.

use super::ty::{Keys, Ty};
use bpvm_compiler::{Compiler, Dialect};
use bpvm_runtime::{Builtin, Ctx, Environment, Map, Val, Value};
use bpvm_vm::Vm;
use std::collections::HashMap;

/// The outcome of one operation on samples: the result's type, or the
/// VM's message.
pub type Outcome = Result<Ty, String>;

/// Runs operations on samples, remembering each answer.
pub struct Probe {
    compiler: Compiler,
    vm: Vm,
    /// By operation source and the operands' samples (as text).
    seen: HashMap<String, Outcome>,
}

/// How deep a sample is built from a type (a schema can nest deeply).
const SAMPLE_DEPTH: usize = 4;

/// A value of `ty` (a list holds one item; a map its known fields).
pub fn sample(ty: &Ty) -> Value {
    sample_at(ty, 0)
}

fn sample_at(ty: &Ty, depth: usize) -> Value {
    match ty {
        Ty::Nil | Ty::Any => Value::Null,
        Ty::Bool => Value::Bool(true),
        Ty::Int => Value::Int(2),
        Ty::Float => Value::Float(2.5),
        Ty::Str => Value::Str("a".into()),
        Ty::Enum(values) => Value::Str(values.first().map_or("a", String::as_str).into()),
        Ty::List(item) if depth < SAMPLE_DEPTH => Value::List(vec![sample_at(item, depth + 1)]),
        Ty::List(_) => Value::List(Vec::new()),
        Ty::Map(fields) => {
            let mut m = Map::new();
            if depth < SAMPLE_DEPTH {
                for (k, t) in &fields.known {
                    m.insert(k.as_str(), sample_at(t, depth + 1));
                }
            }
            Value::Map(m)
        }
        Ty::Union(ts) => ts.first().map_or(Value::Null, |t| sample_at(t, depth)),
    }
}

/// The type of a value the VM gave back (a map has at least its keys:
/// another sample could give more).
pub fn type_of(v: &Value) -> Ty {
    Ty::of(v, Keys::AtLeast)
}

/// The types of `ty` one kind at a time (a union split; nil left out:
/// it is what an unset path reads, and every check tolerates it).
pub fn variants(ty: &Ty) -> Vec<Ty> {
    match ty {
        Ty::Union(ts) => ts.iter().filter(|t| **t != Ty::Nil).cloned().collect(),
        Ty::Nil => Vec::new(),
        t => vec![t.clone()],
    }
}

impl Probe {
    /// A probe of `compiler`'s dialect.
    pub fn new(compiler: Compiler) -> Probe {
        Probe {
            compiler: compiler.optimize(false),
            vm: Vm::new(),
            seen: HashMap::new(),
        }
    }

    /// How the dialect's messages name kinds.
    pub fn vocabulary(&self) -> bpvm_runtime::Vocabulary {
        self.compiler.vocabulary()
    }

    /// The functions calls resolve against.
    pub fn functions(&self) -> &'static bpvm_runtime::Library {
        self.compiler.functions()
    }

    /// The compiler whose dialect is probed (folding off: spans as written).
    pub fn compiler(&self) -> Compiler {
        self.compiler
    }

    /// Runs `src` (an expression over `x` and `y`) with `x` and `y` bound
    /// to samples of `operands`.
    pub fn run(&mut self, src: &str, operands: &[&Ty]) -> Outcome {
        let values: Vec<Value> = operands.iter().map(|t| sample(t)).collect();
        let key = format!("{src}\u{0}{values:?}");
        if let Some(o) = self.seen.get(&key) {
            return o.clone();
        }
        let mut scope = Map::new();
        for (name, v) in ["x", "y"].into_iter().zip(values) {
            scope.insert(name, v);
        }
        // A bare name in a Bluelink substitution is a resource: there `x`
        // reads `resources.x`.
        if self.compiler.dialect() == Dialect::Bluelink {
            let mut root = Map::new();
            root.insert("resources", Value::Map(scope));
            scope = root;
        }
        let outcome = match (self.compiler.compile(src), Environment::from_value(Value::Map(scope))) {
            (Ok(prog), Ok(env)) => bpvm_vm::eval(&mut self.vm, &prog, &env)
                .map(|v| type_of(&v))
                .map_err(|d| d.message),
            (Err(d), _) => Err(d.message),
            (_, Err(e)) => Err(e),
        };
        self.seen.insert(key, outcome.clone());
        outcome
    }

    /// Calls `f` on samples of `args` (a pure builtin only: others may
    /// read files or the clock).
    pub fn call(&mut self, f: &'static Builtin, args: &[&Ty]) -> Outcome {
        let values: Vec<Value> = args.iter().map(|t| sample(t)).collect();
        let key = format!("{}()\u{0}{values:?}", f.name);
        if let Some(o) = self.seen.get(&key) {
            return o.clone();
        }
        let arena = bumpalo::Bump::new();
        let mut ctx = Ctx::new(&arena, &());
        let vals: Vec<Val<'_>> = values.iter().map(|v| ctx.import(v)).collect();
        let outcome = match (f.f)(&mut ctx, &vals) {
            // A function value (`trimprefix_g("x")`) has no type of its
            // own: whatever takes it is not judged.
            Ok(Val::Func(_)) => Ok(Ty::Any),
            Ok(v) => Ok(type_of(&v.to_value())),
            // Only a message about kinds is about types: a sample may also
            // be refused for its value (`"a"` is no CIDR), which says
            // nothing about the template.
            Err(e) if e.deferred || e.kinds.is_empty() => Ok(Ty::Any),
            Err(e) => Err(e.text(self.compiler.vocabulary())),
        };
        self.seen.insert(key, outcome.clone());
        outcome
    }
}
