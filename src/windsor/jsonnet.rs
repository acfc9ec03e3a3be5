//! `jsonnet(path)`: a Jsonnet file evaluated with jrsonnet. It sees the
//! scope of the expression that calls it as `std.extVar("context")`, and a
//! helper library as `std.extVar("helpers")`; imports resolve from the
//! file's folder. Integral numbers come back as integers.

use crate::Value;
use jrsonnet_evaluator::manifest::JsonFormat;
use jrsonnet_evaluator::trace::PathResolver;
use jrsonnet_evaluator::{FileImportResolver, State};
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

/// Evaluates the Jsonnet file at `path` with `context` as its context.
pub fn evaluate(path: &Path, context: &Value) -> Result<Value, String> {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut builder = State::builder();
    builder.import_resolver(FileImportResolver::new(vec![dir]));
    let init = jrsonnet_stdlib::ContextInitializer::new(PathResolver::Absolute);
    init.add_ext_code("context", context.to_json())
        .map_err(|e| e.to_string())?;
    init.add_ext_code("helpers", HELPERS).map_err(|e| e.to_string())?;
    builder.context_initializer(init);
    let state = builder.build();
    // Ext vars are evaluated against the state entered on this thread.
    let _entered = state
        .try_enter()
        .ok_or_else(|| "a Jsonnet evaluation is already running on this thread".to_string())?;
    let val = state.import(path).map_err(|e| e.to_string())?;
    let json = val.manifest(JsonFormat::minify()).map_err(|e| e.to_string())?;
    Value::from_json(&json)
}
