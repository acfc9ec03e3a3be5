//! The composed blueprint as a document: fields in Windsor's order,
//! facet-only fields gone, and its YAML and JSON text (D1: same input,
//! same bytes).

pub use super::duration::go_duration;
use crate::fields::{KUSTOMIZATION, TERRAFORM};
use bpvm_runtime::Map;
use bpvm_runtime::Value;

/// A kustomization's fields in the order the seed-era Windsor printed
/// them (v0.9's are `fields::KUSTOMIZATION`).
const KUSTOMIZE: &[&str] = crate::fields::SEED_KUSTOMIZATION;

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

/// A blueprint's `kind`, `apiVersion` and `metadata` for context `name`
/// (`pick` reads a top-level field of the user's blueprint, else the
/// template's).
fn head(name: &str, pick: &dyn Fn(&str) -> Option<Value>) -> Map {
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
    out
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
    let mut out = head(name, &pick);
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
    newer_fields(&mut out, base, crate::fields::SEED_BLUEPRINT);
    Value::Map(out)
}

/// Adds the base blueprint's fields of a newer Windsor (W13: not in
/// `known`; loading warned about each) as written, after the known
/// fields, in document order.
fn newer_fields(out: &mut Map, base: &Map, known: &[&str]) {
    for (k, v) in base.iter().filter(|(k, _)| !known.contains(&k.as_str())) {
        out.insert(k.clone(), v.clone());
    }
}

/// The blueprint Windsor v0.9 composes for context `name` (R-11.2's
/// order: each list or map left out when empty).
pub(crate) fn composed(
    name: &str,
    base: &Map,
    user: Option<&Map>,
    backend: Option<String>,
    bp: crate::render::v09::barriers::Composed,
    substitutions: Map,
    config_maps: Map,
) -> Value {
    let pick = |k: &str| user.and_then(|u| u.get(k)).or_else(|| base.get(k)).cloned();
    let mut out = head(name, &pick);
    if let Some(b) = backend {
        out.insert("backend", Value::Str(b.into()));
    }
    if let Some(repo) = pick("repository").filter(|r| !matches!(r, Value::Null)) {
        out.insert("repository", repo);
    }
    let mut sources = match pick("sources") {
        Some(Value::List(l)) => l,
        _ => Vec::new(),
    };
    let named = |s: &Value, n: &str| s.as_map().and_then(|m| m.get("name")).and_then(Value::as_str) == Some(n);
    if !sources.iter().any(|s| named(s, "template")) {
        // The local template is a source; its CRDs moved to `crds`.
        let mut t = Map::new();
        t.insert("name", Value::Str("template".into()));
        if bp.crds.is_empty() {
            t.insert("install", Value::Bool(true));
        }
        sources.push(Value::Map(t));
    }
    out.insert("sources", Value::List(sources));
    // Every field of Windsor v0.9's blueprint types is `omitempty` but a
    // terraform component's `path`: an empty one is not printed.
    let list = |items: Vec<(String, Map)>, fields: &[&str], keep: &[&str]| {
        Value::List(
            items
                .iter()
                .map(|(_, c)| omit_empty(ordered(c, fields), fields, keep))
                .collect(),
        )
    };
    if !bp.terraform.is_empty() {
        out.insert("terraform", list(bp.terraform, TERRAFORM, &["path"]));
    }
    if !bp.crds.is_empty() {
        out.insert(
            "crds",
            Value::List(bp.crds.into_iter().map(|c| Value::Str(c.into())).collect()),
        );
    }
    if !bp.kustomize.is_empty() {
        out.insert("kustomize", list(bp.kustomize, KUSTOMIZATION, &[]));
    }
    if !bp.flux.is_empty() {
        out.insert("flux", Value::List(bp.flux.iter().map(flux_system).collect()));
    }
    if !substitutions.is_empty() {
        out.insert("substitutions", Value::Map(substitutions));
    }
    if !config_maps.is_empty() {
        out.insert("configMaps", Value::Map(config_maps));
    }
    newer_fields(&mut out, base, crate::fields::BLUEPRINT);
    Value::Map(out)
}

/// `v`'s fields but those of `known` not in `keep` that are empty
/// (`null`, `""`, `[]`, `{}`), as Go's YAML writer leaves out an
/// `omitempty` field. A field a newer Windsor has stays as written.
fn omit_empty(v: Value, known: &[&str], keep: &[&str]) -> Value {
    let Value::Map(mut m) = v else { return v };
    let empty = |v: &Value| match v {
        Value::Null => true,
        Value::Str(s) => s.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        _ => false,
    };
    m.retain(|k, v| !known.contains(&k.as_str()) || keep.contains(&k.as_str()) || !empty(v));
    Value::Map(m)
}

/// A flux system as Windsor v0.9 prints it: empty fields left out, of
/// the system and of its tiers.
fn flux_system(system: &Map) -> Value {
    let mut out = system.clone();
    if let Some(install) = out.get_mut("install") {
        *install = omit_empty(std::mem::take(install), KUSTOMIZATION, &[]);
    }
    if let Some(Value::List(variants)) = out.get_mut("resources") {
        let taken = std::mem::take(variants);
        *variants = taken.into_iter().map(|v| omit_empty(v, KUSTOMIZATION, &[])).collect();
    }
    omit_empty(Value::Map(out), crate::fields::FLUX_SYSTEM, &["name"])
}

/// The blueprint with its flux systems compiled to the kustomizations
/// Windsor applies (R-5.5.1): `kustomize` lists the plain ones, then each
/// system's install tier and resources variants; `flux` is gone. Other
/// blueprints are returned as they are.
///
/// ```
/// use bpvm_runtime::Value;
/// let bp = Value::from_yaml("kind: Blueprint\nflux: [{name: pki, install: {components: [cert-manager]}, resources: [{components: [issuers]}]}]").unwrap();
/// let out = bpvm_windsor::output::compile_flux(&bp);
/// assert_eq!(
///     out.to_json(),
///     r#"{"kind":"Blueprint","kustomize":[{"name":"pki-install","path":"pki/install","timeout":"10m","components":["cert-manager"]},{"name":"pki-resources","path":"pki/resources","dependsOn":["pki-install"],"components":["issuers"]}]}"#
/// );
/// ```
pub fn compile_flux(bp: &Value) -> Value {
    let Some(m) = bp.as_map() else { return bp.clone() };
    if !m.contains_key("flux") {
        return bp.clone();
    }
    let compiled = Value::List(crate::flux::tiers::all(bp).into_iter().map(Value::Map).collect());
    let mut out = Map::new();
    for (k, v) in m.iter() {
        match k.as_str() {
            "flux" => {}
            "kustomize" => {
                out.insert("kustomize", compiled.clone());
            }
            _ => {
                out.insert(k.clone(), v.clone());
            }
        }
        // `kustomize` goes where Windsor prints it, after `crds`.
        if !m.contains_key("kustomize")
            && (k.as_str() == "crds" || (k.as_str() == "terraform" && !m.contains_key("crds")))
        {
            out.insert("kustomize", compiled.clone());
        }
    }
    if !out.contains_key("kustomize") {
        out.insert("kustomize", compiled);
    }
    Value::Map(out)
}

/// The blueprint as YAML, its fields as Windsor prints them (durations
/// as `5m0s`, see [`go_duration`]).
pub fn to_yaml(v: &Value) -> String {
    bpvm_runtime::text::to_yaml(&super::display::windsor_types(v))
}

/// The blueprint as indented JSON, with the YAML's keys and text.
pub fn to_json(v: &Value) -> String {
    bpvm_runtime::text::to_json(&super::display::windsor_types(v))
}
