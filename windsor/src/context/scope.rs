//! The context a render evaluates against (W7): schema defaults, then
//! `windsor.yaml`'s `contexts.<name>`, then the context's `values.yaml`
//! (later wins, maps deep-merge), plus `context`, `context_path`,
//! `project_root` and `projectName`.

use crate::blueprint::merge::deep_merge;
use crate::error::Error;
use crate::load::project::{Project, read_yaml};
use bpvm_runtime::Map;
use bpvm_runtime::Value;

/// The defaults a JSON schema declares, recursively: a property's
/// `default`, with the defaults of its own properties merged over it.
///
/// ```
/// use bpvm_runtime::Value;
/// use bpvm_windsor::schema_defaults;
/// let schema = Value::from_yaml("properties: {dev: {default: false}, vm: {type: object, properties: {cpu: {default: 2}}}}").unwrap();
/// assert_eq!(schema_defaults(&schema).to_json(), r#"{"dev":false,"vm":{"cpu":2}}"#);
/// ```
pub fn schema_defaults(schema: &Value) -> Value {
    let mut out = Map::new();
    let props = schema
        .as_map()
        .and_then(|m| m.get("properties"))
        .and_then(Value::as_map);
    for (name, prop) in props.into_iter().flat_map(|p| p.iter()) {
        let Some(p) = prop.as_map() else { continue };
        let mut value = p.get("default").cloned();
        if p.contains_key("properties") {
            let nested = schema_defaults(prop);
            if nested.as_map().is_some_and(|m| !m.is_empty()) {
                match &mut value {
                    Some(v @ Value::Map(_)) => deep_merge(v, nested),
                    _ => value = Some(nested),
                }
            }
        }
        if let Some(v) = value {
            out.insert(name.clone(), v);
        }
    }
    Value::Map(out)
}

/// Where a context's values come from.
pub enum Values {
    /// `contexts/<name>/values.yaml` (and `contexts/<name>/windsor.yaml`).
    Files,
    /// Given directly (a test case's `values`).
    Given(Value),
}

/// The context values of context `name`.
pub fn context(project: &Project, name: &str, values: Values, defaults: bool) -> Result<Value, Error> {
    check_name(name)?;
    if let Values::Files = values {
        project.check_context(name)?;
    }
    let mut ctx = Value::Map(Map::new());
    if defaults && let Some(schema) = &project.schema {
        deep_merge(&mut ctx, schema_defaults(schema));
    }
    // Windsor v0.9 resolves a context it renders from its files (W11).
    let v09 = matches!(project.format, crate::format::Format::V09(_)) && matches!(values, Values::Files);
    let mut files = Value::Map(Map::new());
    if v09 {
        deep_merge(&mut ctx, Value::Map(crate::context::resolve::before_files(name)));
    }
    let from_windsor = project
        .windsor
        .as_map()
        .and_then(|m| m.get("contexts"))
        .and_then(Value::as_map)
        .and_then(|m| m.get(name));
    if let Some(v @ Value::Map(_)) = from_windsor {
        deep_merge(&mut ctx, v.clone());
    }
    match values {
        Values::Files => {
            for file in ["windsor.yaml", "values.yaml"] {
                let rel = format!("contexts/{name}/{file}");
                match read_yaml(&project.root, &rel)? {
                    Some(v @ Value::Map(_)) => {
                        deep_merge(&mut files, v.clone());
                        deep_merge(&mut ctx, v);
                    }
                    Some(Value::Null) | None => {}
                    Some(other) => {
                        return Err(Error::new(
                            Some(&rel),
                            "",
                            format!("must be a mapping, got {}", other.type_name()),
                        ));
                    }
                }
            }
        }
        // No values (null) is no values; anything else must be a mapping.
        Values::Given(Value::Null) => {}
        Values::Given(v @ Value::Map(_)) => deep_merge(&mut ctx, v),
        Values::Given(other) => {
            return Err(Error::new(
                None,
                "values",
                format!("must be a mapping, got {}", other.type_name()),
            ));
        }
    }
    let Value::Map(mut m) = ctx else {
        unreachable!("the context starts as a map")
    };
    if v09 && let Some(v @ Value::Map(_)) = from_windsor {
        deep_merge(&mut files, v.clone());
    }
    if v09 && let Value::Map(files) = &files {
        crate::context::resolve::after_files(files, &mut m);
    }
    // `cluster` is always a map, so `cluster.enabled ?? true` works.
    if !matches!(m.get("cluster"), Some(Value::Map(_))) {
        m.insert("cluster", Value::Map(Map::new()));
    }
    let root = project.root.dir().to_string_lossy().replace('\\', "/");
    let project_name = project
        .root
        .dir()
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    m.insert("context", Value::Str(name.into()));
    m.insert("context_path", Value::Str(format!("{root}/contexts/{name}").into()));
    m.insert("project_root", Value::Str(root.into()));
    m.insert("projectName", Value::Str(project_name.into()));
    Ok(Value::Map(m))
}

/// A context name is one folder name under `contexts/`: a name that
/// climbs out (`../other`) or descends (`a/b`) would read another
/// folder's values.
fn check_name(name: &str) -> Result<(), Error> {
    let why = if name.is_empty() {
        "is empty"
    } else if name == "." || name == ".." || name.contains(['/', '\\', '\0']) {
        "is not a folder name (no '/', '\\', '.' or '..')"
    } else if name == "_template" {
        "is the template, not a context"
    } else {
        return Ok(());
    };
    Err(Error::new(None, "", format!("context name {name:?} {why}")))
}
