//! The Jsonnet engine, jrsonnet, in this process: a file evaluated with
//! the calling scope as `std.extVar("context")` and a helper library as
//! `std.extVar("helpers")`; imports resolve from the file's folder and,
//! like every file a template reads, must stay inside the project (D8).
//! Integral numbers come back as integers. The worker process runs this;
//! so does a host without a worker.

use bpvm_runtime::root::Root;
use bpvm_runtime::{Map, Value};
use jrsonnet_evaluator::trace::PathResolver;
use jrsonnet_evaluator::{
    AsPathLike, ContextInitializer, ImportBadFileUtf8, ImportResolver, InitialContextBuilder, PreparedSnippet,
    RuntimeError, Source, SourcePath, SourceVirtual, StackTraceElement, State, Val,
};
use jrsonnet_gcmodule::{Acyclic, Trace};
use jrsonnet_ir::SourceFile;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

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

/// `scope` as Jsonnet's `context` value.
pub(crate) fn context(scope: &Map) -> Result<Val, String> {
    Val::from_serde(Numbers(&Value::Map(scope.clone()))).map_err(|e| e.to_string())
}

/// `scope` as the JSON text of Jsonnet's `context` value (integers as
/// Jsonnet numbers), for a worker to read with [`context_from_json`].
pub(crate) fn context_json(scope: &Map) -> Result<String, String> {
    serde_json::to_string(&Numbers(&Value::Map(scope.clone()))).map_err(|e| e.to_string())
}

/// The `context` value written by [`context_json`].
pub(crate) fn context_from_json(text: &[u8]) -> Result<Val, String> {
    serde_json::from_slice::<Val>(text).map_err(|e| format!("the scope cannot be read: {e}"))
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
        let file = from.downcast_ref::<SourceFile>().map(SourceFile::path);
        let dir = match file.or_else(|| prepared_path(from)) {
            Some(f) => f.parent().map(Path::to_path_buf).unwrap_or_default(),
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
pub(crate) fn evaluate(root: &Root, path: &Path, context: Val) -> Result<Value, String> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(root, path, context))) {
        Ok(result) => result,
        Err(_) => Err("the Jsonnet engine failed on this file".to_string()),
    }
}

thread_local! {
    /// Whether this thread evaluated Jsonnet since its garbage was last
    /// collected.
    static DIRTY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Files parsed and analysed on this thread, by real path, with the
    /// text they were made from: a file is parsed again only when its
    /// text changed.
    static PREPARED: RefCell<Vec<(PathBuf, String, Rc<PreparedSnippet>)>> = const { RefCell::new(Vec::new()) };
}

/// How many files a thread keeps parsed (a template has a handful; the
/// bound keeps a long-lived worker that meets many projects small).
const PREPARED_FILES: usize = 32;

/// Frees what this thread's Jsonnet evaluations left in reference cycles
/// (jrsonnet's values point at each other, and nothing else ever frees
/// them: about 10 KB per render of the corpus template). A render calls
/// it when it is done; it costs nothing when no Jsonnet ran.
pub fn collect_garbage() {
    if DIRTY.with(|d| d.replace(false)) {
        jrsonnet_gcmodule::collect_thread_cycles();
    }
}

/// The standard library, whose `std.thisFile` names a prepared file by
/// its path (a prepared file's source is virtual, named by its path).
struct Std(jrsonnet_stdlib::ContextInitializer);

impl Trace for Std {
    fn trace(&self, tracer: &mut jrsonnet_gcmodule::Tracer) {
        self.0.trace(tracer);
    }

    fn is_type_tracked() -> bool {
        jrsonnet_stdlib::ContextInitializer::is_type_tracked()
    }
}

impl ContextInitializer for Std {
    fn populate(&self, source: Source, builder: &mut InitialContextBuilder) {
        let source = match prepared_path(source.source_path()) {
            Some(p) => Source::new(SourcePath::new(SourceFile::new(p.to_path_buf())), source.0.1.clone()),
            None => source,
        };
        self.0.populate(source, builder);
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// The file a prepared source stands for: its virtual name when that is
/// an absolute path (the helper library's name is not).
fn prepared_path(source: &SourcePath) -> Option<&Path> {
    let name = source.downcast_ref::<SourceVirtual>()?;
    let path = Path::new(name.0.as_str());
    path.is_absolute().then_some(path)
}

/// The file at `path` parsed and analysed, from this thread's cache when
/// its text is the same.
fn prepare(state: &State, root: &Root, path: &Path) -> Result<Rc<PreparedSnippet>, String> {
    let text = path.to_string_lossy();
    let bytes = root
        .read(root.dir(), &text)
        .map_err(|e| describe(root, &RuntimeError(format!("import path {e}").into()).into()))?;
    let code = String::from_utf8(bytes).map_err(|_| {
        describe(
            root,
            &ImportBadFileUtf8(SourcePath::new(SourceFile::new(path.to_path_buf()))).into(),
        )
    })?;
    let cached = PREPARED.with_borrow(|files| {
        files
            .iter()
            .find(|(p, c, _)| p == path && *c == code)
            .map(|(_, _, s)| s.clone())
    });
    if let Some(snippet) = cached {
        return Ok(snippet);
    }
    let snippet = match state.prepare_snippet(text.as_ref(), code.as_str()) {
        Ok(s) => Rc::new(s),
        Err(mut e) => {
            // Place a syntax error in the file, as an import would.
            if let jrsonnet_evaluator::error::ErrorKind::ImportSyntaxError { error, .. } = e.error() {
                let location = Some(error.location.clone());
                e.trace_mut().0.push(StackTraceElement {
                    location,
                    desc: "parse".to_string(),
                });
            }
            return Err(describe(root, &e));
        }
    };
    PREPARED.with_borrow_mut(|files| {
        files.retain(|(p, _, _)| p != path);
        if files.len() >= PREPARED_FILES {
            files.remove(0);
        }
        files.push((path.to_path_buf(), code, snippet.clone()));
    });
    Ok(snippet)
}

fn run(root: &Root, path: &Path, context: Val) -> Result<Value, String> {
    DIRTY.with(|d| d.set(true));
    let mut builder = State::builder();
    builder.import_resolver(Imports(root.clone()));
    // The library's settings are this thread's: the ext vars set here are
    // what `std.extVar` reads in every file evaluated below.
    let init = STDLIB.with(Clone::clone);
    init.add_ext_var("context".into(), context);
    init.add_ext_var("helpers".into(), HELPER_LIB.with(Clone::clone)?);
    builder.context_initializer(Std(init));
    let state = builder.build();
    let _entered = state
        .try_enter()
        .ok_or_else(|| "a Jsonnet evaluation is already running on this thread".to_string())?;
    // Jsonnet's own recursion limit, stated here so it cannot drift.
    let _depth = jrsonnet_evaluator::stack::limit_stack_depth(MAX_STACK);
    let snippet = prepare(&state, root, path)?;
    let val = state
        .evaluate_prepared_snippet(&snippet)
        .map_err(|e| describe(root, &e))?;
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
        let source = span.0.source_path();
        let file = source.path().or_else(|| prepared_path(source))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch project holding `main.jsonnet`.
    fn project(name: &str) -> (PathBuf, Root) {
        let dir = std::env::temp_dir().join(format!("bpvm-jsonnet-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let root = Root::new(&dir, "project").unwrap();
        (dir, root)
    }

    fn run_once(root: &Root, file: &Path, scope: &Map) -> Result<Value, String> {
        evaluate(root, file, context(scope)?)
    }

    #[test]
    fn a_changed_file_is_parsed_again() {
        let (dir, root) = project("changed");
        let file = dir.join("main.jsonnet");
        std::fs::write(&file, "{a: 1}").unwrap();
        let file = root.file(&dir, "main.jsonnet").unwrap();
        let scope = Map::new();
        assert_eq!(run_once(&root, &file, &scope).unwrap().to_json(), r#"{"a":1}"#);
        // Same length, so neither size nor a coarse clock would tell.
        std::fs::write(&file, "{a: 2}").unwrap();
        assert_eq!(run_once(&root, &file, &scope).unwrap().to_json(), r#"{"a":2}"#);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_parsed_file_sees_each_context_and_imports_from_its_folder() {
        let (dir, root) = project("context");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/lib.libsonnet"), "{k: 'lib'}").unwrap();
        std::fs::write(
            dir.join("sub/main.jsonnet"),
            "local c = std.extVar('context'); {v: c.v, lib: (import 'lib.libsonnet').k, me: std.thisFile}",
        )
        .unwrap();
        let file = root.file(&dir, "sub/main.jsonnet").unwrap();
        for n in [1, 2, 3] {
            let mut scope = Map::new();
            scope.insert("v", Value::Int(n));
            let got = run_once(&root, &file, &scope).unwrap();
            let got = got.as_map().unwrap();
            assert_eq!(got.get("v"), Some(&Value::Int(n)));
            assert_eq!(got.get("lib").and_then(Value::as_str), Some("lib"));
            assert_eq!(got.get("me").and_then(Value::as_str), Some(&*file.to_string_lossy()));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_syntax_error_says_where() {
        let (dir, root) = project("syntax");
        std::fs::write(dir.join("main.jsonnet"), "{\n  a: ,\n}").unwrap();
        let file = root.file(&dir, "main.jsonnet").unwrap();
        let e = run_once(&root, &file, &Map::new()).unwrap_err();
        assert!(e.contains("syntax error") && e.contains("(at main.jsonnet:2:"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
