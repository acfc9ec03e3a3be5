//! The composed blueprint as a document: fields in Windsor's order,
//! facet-only fields gone, and its YAML and JSON text (D1: same input,
//! same bytes).

use bpvm_runtime::Map;
use bpvm_runtime::Value;

const TERRAFORM: &[&str] = &[
    "name",
    "source",
    "path",
    "dependsOn",
    "inputs",
    "destroy",
    "parallelism",
    "enabled",
];
const KUSTOMIZE: &[&str] = &[
    "name",
    "path",
    "source",
    "dependsOn",
    "interval",
    "retryInterval",
    "timeout",
    "patches",
    "wait",
    "force",
    "prune",
    "components",
    "cleanup",
    "destroy",
    "destroyOnly",
    "enabled",
    "substitutions",
];

/// `m`'s fields in the order `fields` gives, then any others in their
/// own order; `path` is always there for components, empty lists of
/// names are left out.
fn ordered(m: &Map, fields: &[&str]) -> Value {
    let mut out = Map::new();
    for f in fields {
        match m.get(f) {
            Some(Value::List(l))
                if l.is_empty() && matches!(*f, "dependsOn" | "components" | "cleanup" | "patches") => {}
            Some(v) => {
                out.insert(*f, v.clone());
            }
            None if *f == "path" => {
                out.insert("path", Value::Str("".into()));
            }
            None => {}
        }
    }
    for (k, v) in m.iter() {
        if !fields.contains(&k.as_str()) && !matches!(k.as_str(), "when" | "strategy" | "ordinal") {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Map(out)
}

/// The blueprint of context `name`.
pub fn blueprint(
    name: &str,
    base: &Map,
    user: Option<&Map>,
    terraform: Vec<(String, Map)>,
    kustomize: Vec<(String, Map)>,
    config_maps: Map,
) -> Value {
    let pick = |k: &str| user.and_then(|u| u.get(k)).or_else(|| base.get(k)).cloned();
    let mut out = Map::new();
    out.insert("kind", pick("kind").unwrap_or(Value::Str("Blueprint".into())));
    out.insert(
        "apiVersion",
        pick("apiVersion").unwrap_or(Value::Str("blueprints.windsorcli.dev/v1alpha1".into())),
    );
    let mut metadata = Map::new();
    metadata.insert("name", Value::Str(name.into()));
    metadata.insert(
        "description",
        Value::Str(format!("Blueprint for the {name} context").into()),
    );
    out.insert("metadata", Value::Map(metadata));
    if let Some(repo) = pick("repository").filter(|r| !matches!(r, Value::Null)) {
        out.insert("repository", repo);
    }
    out.insert(
        "sources",
        pick("sources")
            .filter(|s| !matches!(s, Value::Null))
            .unwrap_or(Value::List(Vec::new())),
    );
    out.insert(
        "terraform",
        Value::List(terraform.iter().map(|(_, c)| ordered(c, TERRAFORM)).collect()),
    );
    out.insert(
        "kustomize",
        Value::List(kustomize.iter().map(|(_, c)| ordered(c, KUSTOMIZE)).collect()),
    );
    if !config_maps.is_empty() {
        out.insert("configMaps", Value::Map(config_maps));
    }
    Value::Map(out)
}

/// The blueprint as YAML.
pub fn to_yaml(v: &Value) -> String {
    bpvm_runtime::text::to_yaml(v)
}

/// The blueprint as indented JSON, with the YAML's keys.
pub fn to_json(v: &Value) -> String {
    bpvm_runtime::text::to_json(v)
}
