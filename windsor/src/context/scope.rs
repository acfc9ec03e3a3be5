//! The context a render evaluates against (W7): schema defaults, then
//! `windsor.yaml`'s `contexts.<name>`, then the context's `values.yaml`
//! (later wins, maps deep-merge), plus `context`, `context_path`,
//! `project_root` and `projectName`.

use crate::blueprint::merge::deep_merge;
use crate::context::origins::{Layer, Layers, Origins, Step, changed, credit, yaml_path};
use crate::error::Error;
use crate::load::project::{Project, read_yaml};
use bpvm_runtime::Map;
use bpvm_runtime::Value;

pub use crate::load::schema::defaults as schema_defaults;

/// Where a context's values come from.
pub enum Values {
    /// `contexts/<name>/values.yaml` (and `contexts/<name>/windsor.yaml`).
    Files,
    /// Given directly (a test case's `values`).
    Given(Value),
}

/// The context values of context `name`.
pub fn context(project: &Project, name: &str, values: Values, defaults: bool) -> Result<Value, Error> {
    build(project, name, values, defaults, None).map_err(|e| crate::error::placed(&project.root, e))
}

/// The values a render of context `name` evaluates against (schema
/// defaults applied; by the v0.9 rules, what Windsor derives before
/// composing too), and where each leaf of them came from. Only `explain`
/// and `bpvm values` ask: recording the layers costs a copy of each.
pub fn traced(project: &Project, name: &str) -> Result<(Map, Origins), Error> {
    let mut layers = Layers::default();
    let ctx = build(project, name, Values::Files, true, Some(&mut layers))
        .map_err(|e| crate::error::placed(&project.root, e))?;
    let mut m = ctx.as_map().cloned().unwrap_or_default();
    if matches!(project.format, crate::format::Format::V09) {
        let before = m.clone();
        crate::context::resolve::derive(&mut m);
        layers.push(Layer::Derived(Step::Compose), Value::Map(changed(&before, &m)));
    }
    let origins = credit(project, name, &m, &layers);
    Ok((m, origins))
}

/// The context values, each layer recorded in `trace` when given.
fn build(
    project: &Project,
    name: &str,
    values: Values,
    defaults: bool,
    mut trace: Option<&mut Layers>,
) -> Result<Value, Error> {
    check_name(name)?;
    if let Values::Files = values {
        project.check_context(name)?;
    }
    let mut record = |layer: Layer, v: &Value| {
        if let Some(t) = trace.as_deref_mut() {
            t.push(layer, v.clone());
        }
    };
    let mut ctx = Value::Map(Map::new());
    if defaults && project.schema.is_some() {
        let d = project.schema_defaults().clone();
        record(Layer::Defaults, &d);
        deep_merge(&mut ctx, d);
    }
    // Windsor v0.9 resolves a context it renders from its files (W11).
    let v09 = matches!(project.format, crate::format::Format::V09) && matches!(values, Values::Files);
    let mut files = Value::Map(Map::new());
    if v09 {
        let before = Value::Map(crate::context::resolve::before_files(name));
        record(Layer::Derived(Step::BeforeFiles), &before);
        deep_merge(&mut ctx, before);
    }
    let from_windsor = project
        .windsor
        .as_map()
        .and_then(|m| m.get("contexts"))
        .and_then(Value::as_map)
        .and_then(|m| m.get(name));
    if let Some(v @ Value::Map(_)) = from_windsor {
        record(
            Layer::File("windsor.yaml".into(), format!("contexts.{}", yaml_path(&[name]))),
            v,
        );
        deep_merge(&mut ctx, v.clone());
    }
    match values {
        Values::Files => {
            for (rel, v) in read_files(project, name)? {
                record(Layer::File(rel, String::new()), &v);
                deep_merge(&mut files, v.clone());
                deep_merge(&mut ctx, v);
            }
        }
        // No values (null) is no values; anything else must be a mapping.
        Values::Given(Value::Null) => {}
        Values::Given(v @ Value::Map(_)) => {
            record(Layer::Given, &v);
            deep_merge(&mut ctx, v)
        }
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
        let before = trace.is_some().then(|| m.clone());
        crate::context::resolve::after_files(files, &mut m);
        if let (Some(t), Some(before)) = (trace.as_deref_mut(), before) {
            t.push(Layer::Derived(Step::AfterFiles), Value::Map(changed(&before, &m)));
        }
    }
    let before = trace.is_some().then(|| m.clone());
    fixed(project, name, &mut m);
    if let (Some(t), Some(before)) = (trace, before) {
        t.push(Layer::Derived(Step::Fixed), Value::Map(changed(&before, &m)));
    }
    Ok(Value::Map(m))
}

/// The keys bpvm sets on every context: `cluster` always a map (so
/// `cluster.enabled ?? true` works), the context's name and folder, the
/// project's folder and name.
fn fixed(project: &Project, name: &str, m: &mut Map) {
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
}

/// The context's `windsor.yaml` and `values.yaml` that are there, each a
/// mapping (an empty file is none).
fn read_files(project: &Project, name: &str) -> Result<Vec<(String, Value)>, Error> {
    let mut out = Vec::new();
    for file in ["windsor.yaml", "values.yaml"] {
        let rel = format!("contexts/{name}/{file}");
        match read_yaml(&project.root, &rel)? {
            Some(v @ Value::Map(_)) => out.push((rel, v)),
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
    Ok(out)
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
