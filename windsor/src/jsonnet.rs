//! `jsonnet(path)`: a Jsonnet file evaluated with jrsonnet. It sees the
//! scope of the expression that calls it as `std.extVar("context")`, and a
//! helper library as `std.extVar("helpers")`; imports resolve from the
//! file's folder and, like every file a template reads, must stay inside
//! the project (D8). Integral numbers come back as integers.

use bpvm_runtime::root::Root;
use bpvm_runtime::{Map, Value};
use jrsonnet_evaluator::trace::PathResolver;
use jrsonnet_evaluator::{AsPathLike, ImportResolver, RuntimeError, SourcePath, State, Val};
use jrsonnet_gcmodule::{Acyclic, Trace};
use jrsonnet_ir::SourceFile;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::path::Path;

/// The helpers Windsor's Jsonnet files use: dotted-path getters with
/// defaults and type checks, `baseUrl`, `removeEmptyKeys`.
const HELPERS: &str = r#"
{
  local root = self,
  get(obj, path, default=null)::
    local step(o, keys) =
      if std.length(keys) == 0 then o
      else if std.isObject(o) && std.objectHas(o, keys[0]) then step(o[keys[0]], keys[1:])
      else default;
    if path == "" then obj else step(obj, std.split(path, ".")),
  has(obj, path):: root.get(obj, path, null) != null,
  local typed(kind, test) = function(obj, path, default=null)
    local v = root.get(obj, path, default);
    if v == null || test(v) then v
    else error "Expected " + kind + " for '" + path + "' but got " + std.type(v),
  getString:: typed("string", std.isString),
  getNumber:: typed("number", std.isNumber),
  getInt:: typed("number", std.isNumber),
  getBool:: typed("boolean", std.isBoolean),
  getObject:: typed("object", std.isObject),
  getArray:: typed("array", std.isArray),
  baseUrl(endpoint)::
    local noScheme = local parts = std.split(endpoint, "://"); parts[std.length(parts) - 1];
    std.split(noScheme, ":")[0],
  removeEmptyKeys(obj)::
    local empty(v) = v == null || v == "" || (std.isObject(v) && std.length(v) == 0) || (std.isArray(v) && std.length(v) == 0);
    local clean(v) =
      if std.isObject(v) then { [k]: clean(v[k]) for k in std.objectFields(v) if !empty(clean(v[k])) }
      else if std.isArray(v) then [clean(x) for x in v if !empty(clean(x))]
      else v;
    clean(obj),
}
"#;

thread_local! {
    /// The standard library, built once per thread: building it parses
    /// and evaluates Jsonnet's `std`, which costs more than most files.
    static STDLIB: jrsonnet_stdlib::ContextInitializer = jrsonnet_stdlib::ContextInitializer::new(PathResolver::Absolute);
    /// The helper library, parsed once per thread.
    static HELPER_LIB: Result<Val, String> = {
        let mut builder = State::builder();
        builder.context_initializer(STDLIB.with(Clone::clone));
        let state = builder.build();
        let _entered = state.try_enter();
        state.evaluate_snippet("helpers", HELPERS).map_err(|e| e.to_string())
    };
}

/// A document as Jsonnet sees it: integers are numbers (jrsonnet's serde
/// bridge would make 64-bit integers strings, to keep their precision;
/// those beyond 2^53 still are).
struct Numbers<'v>(&'v Value);

impl Serialize for Numbers<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Int(n) if n.unsigned_abs() <= 1 << 53 => s.serialize_f64(*n as f64),
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for x in items {
                    seq.serialize_element(&Numbers(x))?;
                }
                seq.end()
            }
            Value::Map(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, x) in m.iter() {
                    map.serialize_entry(k.as_str(), &Numbers(x))?;
                }
                map.end()
            }
            other => other.serialize(s),
        }
    }
}

/// Jsonnet's `import`, `importstr` and `importbin`, read through the
/// project's [`Root`]: relative to the importing file, inside the project,
/// regular files only.
struct Imports(Root);

impl Trace for Imports {
    fn is_type_tracked() -> bool {
        false
    }
}

// SAFETY: `Imports` holds no garbage-collected pointers, so it can be part
// of no reference cycle.
unsafe impl Acyclic for Imports {}

impl ImportResolver for Imports {
    fn resolve_from(&self, from: &SourcePath, path: &dyn AsPathLike) -> jrsonnet_evaluator::Result<SourcePath> {
        let path = path.as_path();
        let path: &Path = path.as_ref();
        let dir = match from.downcast_ref::<SourceFile>() {
            Some(f) => f.path().parent().map(Path::to_path_buf).unwrap_or_default(),
            None => self.0.dir().to_path_buf(),
        };
        let text = path.to_string_lossy();
        match self.0.file(&dir, &text) {
            Ok(real) => Ok(SourcePath::new(SourceFile::new(real))),
            Err(e) => Err(RuntimeError(format!("import path {e}").into()).into()),
        }
    }

    fn load_file_contents(&self, resolved: &SourcePath) -> jrsonnet_evaluator::Result<Vec<u8>> {
        let Some(f) = resolved.downcast_ref::<SourceFile>() else {
            return Err(RuntimeError("only files inside the project can be imported".into()).into());
        };
        let text = f.path().to_string_lossy();
        self.0
            .read(self.0.dir(), &text)
            .map_err(|e| RuntimeError(format!("import path {e}").into()).into())
    }
}

/// Evaluates the Jsonnet file at `path` (inside `root`) with `context` as
/// its context. A panic inside the Jsonnet engine becomes an error, never
/// a crash.
pub fn evaluate(root: &Root, path: &Path, context: &Value) -> Result<Value, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(root, path, context))) {
        Ok(result) => result,
        Err(_) => Err("the Jsonnet engine failed on this file".to_string()),
    }
}

thread_local! {
    /// Whether this thread evaluated Jsonnet since its garbage was last
    /// collected.
    static DIRTY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Frees what this thread's Jsonnet evaluations left in reference cycles
/// (jrsonnet's values point at each other, and nothing else ever frees
/// them: about 10 KB per render of the corpus template). A render calls
/// it when it is done; it costs nothing when no Jsonnet ran.
pub fn collect_garbage() {
    if DIRTY.with(|d| d.replace(false)) {
        jrsonnet_gcmodule::collect_thread_cycles();
    }
}

fn run(root: &Root, path: &Path, context: &Value) -> Result<Value, String> {
    DIRTY.with(|d| d.set(true));
    let mut builder = State::builder();
    builder.import_resolver(Imports(root.clone()));
    let init = STDLIB.with(Clone::clone);
    init.add_ext_var(
        "context".into(),
        Val::from_serde(Numbers(context)).map_err(|e| e.to_string())?,
    );
    init.add_ext_var("helpers".into(), HELPER_LIB.with(Clone::clone)?);
    builder.context_initializer(init);
    let state = builder.build();
    // Ext vars are evaluated against the state entered on this thread.
    let _entered = state
        .try_enter()
        .ok_or_else(|| "a Jsonnet evaluation is already running on this thread".to_string())?;
    // Jsonnet's own recursion limit, stated here so it cannot drift.
    let _depth = jrsonnet_evaluator::stack::limit_stack_depth(MAX_STACK);
    let val = state.import(path).map_err(|e| describe(root, &e))?;
    let mut room = Room {
        root,
        bytes: bpvm_runtime::budget::bytes(),
    };
    to_value(val, &mut room, 0)
}

/// A Jsonnet error in bpvm's words: what went wrong and where (the
/// innermost place with a source), relative to the project, without the
/// engine's whole call trace.
fn describe(root: &Root, e: &jrsonnet_evaluator::Error) -> String {
    let what = match e.error() {
        jrsonnet_evaluator::error::ErrorKind::StackOverflow => {
            format!("Jsonnet calls nest more than {MAX_STACK} deep (a recursion that never ends?)")
        }
        other => other.to_string(),
    };
    let place = e.trace().0.iter().find_map(|el| {
        let span = el.location.as_ref()?;
        let file = span.0.source_path().path()?;
        let [at] = span.0.map_source_locations(&[span.1]);
        let file = file.strip_prefix(root.dir()).unwrap_or(file);
        Some(format!(" (at {}:{}:{})", file.display(), at.line, at.column))
    });
    format!("{what}{}", place.unwrap_or_default())
}

/// How many nested Jsonnet calls an evaluation may make.
pub const MAX_STACK: usize = 200;

/// How deeply a Jsonnet result may nest: as deep as any document.
pub const MAX_DEPTH: usize = bpvm_runtime::limits::VALUE_DEPTH;

/// What is left of the memory budget for a Jsonnet result, and the
/// project its errors are described against.
struct Room<'r> {
    root: &'r Root,
    bytes: usize,
}

impl Room<'_> {
    fn take(&mut self, n: usize, what: &str) -> Result<(), String> {
        match self.bytes.checked_sub(n) {
            Some(left) => {
                self.bytes = left;
                Ok(())
            }
            None => Err(format!(
                "the result {what}, over the memory budget of one evaluation ({} MiB; set {} to raise it)",
                bpvm_runtime::budget::bytes() >> 20,
                bpvm_runtime::budget::VARIABLE
            )),
        }
    }
}

/// A Jsonnet value as a document, converted directly (no JSON text in
/// between) so that its size is checked before anything large is built:
/// a string's length is known before it is flattened, an array's before
/// its items are evaluated. Integral numbers become integers.
fn to_value(v: Val, room: &mut Room<'_>, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("the result nests more than {MAX_DEPTH} levels deep"));
    }
    const SLOT: usize = std::mem::size_of::<Value>();
    room.take(SLOT, "has too many values")?;
    Ok(match v {
        Val::Null => Value::Null,
        Val::Bool(b) => Value::Bool(b),
        Val::Num(n) => {
            let f = n.get();
            if f.fract() == 0.0 && f.abs() < 9.2e18 {
                Value::Int(f as i64)
            } else {
                Value::Float(f)
            }
        }
        Val::Str(s) => {
            room.take(s.len(), &format!("has a string of {} bytes", s.len()))?;
            Value::Str(s.into_flat().as_str().into())
        }
        Val::Arr(a) => {
            let n = a.len() as usize;
            room.take(n.saturating_mul(SLOT), &format!("has an array of {n} items"))?;
            let mut items = Vec::with_capacity(n);
            for item in a.iter() {
                let item = item.map_err(|e| describe(room.root, &e))?;
                items.push(to_value(item, room, depth + 1)?);
            }
            Value::List(items)
        }
        Val::Obj(o) => {
            o.run_assertions().map_err(|e| describe(room.root, &e))?;
            let mut m = Map::new();
            for (k, item) in o.iter() {
                room.take(k.len(), "has too many fields")?;
                let item = item.map_err(|e| describe(room.root, &e))?;
                m.insert(k.as_str(), to_value(item, room, depth + 1)?);
            }
            Value::Map(m)
        }
        Val::Func(_) => return Err("the result is a function, which has no document form".into()),
    })
}
