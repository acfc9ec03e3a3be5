//! A path that names nothing: an error saying what is there instead, with
//! the name closest to the one asked for.

use super::explanation::Contribution;
use super::lookup::{component, lookup};
use super::target::Target;
use crate::kind::Kind;
use crate::load::project::Project;
use crate::render::outcome::Rendered;
use crate::template::tmpl::Tmpl;
use bpvm_runtime::suggest::closest;
use bpvm_runtime::{Map, Value};

/// ` (did you mean "x"?)` when one of `known` is close to `name`.
pub(super) fn did_you_mean(name: &str, known: &[&str]) -> String {
    closest(name, known).map_or(String::new(), |k| format!(" (did you mean {k:?}?)"))
}

/// The identities of the components of `kind`: in the blueprint, and
/// written by the template.
pub(super) fn component_ids(project: &Project, blueprint: &Value, kind: Kind) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if let Some(Value::List(items)) = blueprint.as_map().and_then(|m| m.get(kind.key())) {
        for c in items.iter().filter_map(Value::as_map) {
            let name = c.get("name").or_else(|| c.get("path")).and_then(Value::as_str);
            out.extend(name.map(str::to_string));
        }
    }
    let parts = project
        .base
        .iter()
        .chain(project.facets.iter().flat_map(|f| f.parts.iter()));
    out.extend(parts.filter(|p| p.kind == kind).map(|p| p.id.clone()));
    out.sort();
    out.dedup();
    out
}

/// `Err` when `path` names nothing: no value there and no contribution.
pub(super) fn check(
    project: &Project,
    rendered: &Rendered,
    target: &Target,
    value: Option<&Value>,
    contributions: &[Contribution],
) -> Result<(), String> {
    if value.is_some() || !contributions.is_empty() {
        return Ok(());
    }
    let (what, leaf, known) = match target {
        Target::Component(kind, id, field) => component_field(project, rendered, *kind, id, field),
        Target::Scope(steps) => return scope(project, rendered, steps),
        Target::Block(name, key) => {
            let Some((leaf, parent)) = key.split_last() else {
                return Ok(());
            };
            let steps: Vec<&str> = std::iter::once(*name).chain(parent.iter().copied()).collect();
            (
                format!("config block {name:?} has no key"),
                *leaf,
                keys_at(&rendered.scope, &steps),
            )
        }
        Target::Substitution(key, config_map) => {
            let (section, steps) = if *config_map {
                ("configMaps.values-common", &["configMaps", "values-common"][..])
            } else {
                ("substitutions", &["substitutions"][..])
            };
            let mut known = rendered
                .blueprint
                .as_map()
                .map(|b| keys_at(b, steps))
                .unwrap_or_default();
            for f in &project.facets {
                known.extend(
                    f.substitutions
                        .as_ref()
                        .map(|t| written_keys(t, &[]))
                        .unwrap_or_default(),
                );
            }
            (format!("nothing sets {section}"), *key, known)
        }
        Target::Flux(name, ..) => (format!("nothing sets it in flux system {name:?}"), "", Vec::new()),
    };
    let known: Vec<&str> = known.iter().map(String::as_str).collect();
    let leaf_text = if leaf.is_empty() {
        String::new()
    } else {
        format!(" {leaf:?}")
    };
    Err(format!("{what}{leaf_text}{}", did_you_mean(leaf, &known)))
}

/// What a component has at the parent of `field`, rendered and written.
fn component_field<'f>(
    project: &Project,
    rendered: &Rendered,
    kind: Kind,
    id: &str,
    field: &[&'f str],
) -> (String, &'f str, Vec<String>) {
    let (leaf, parent) = field.split_last().map_or(("", &[][..]), |(l, p)| (*l, p));
    let what = match kind {
        Kind::Terraform => format!("terraform component {id:?}"),
        Kind::Kustomize => format!("kustomization {id:?}"),
    };
    let label = match parent {
        ["inputs"] => "input".to_string(),
        ["substitutions"] => "substitution".to_string(),
        _ => format!("{} key", parent.join(".")),
    };
    let mut known = component(&rendered.blueprint, kind, id)
        .map(|c| keys_at(c, parent))
        .unwrap_or_default();
    let parts = project
        .base
        .iter()
        .chain(project.facets.iter().flat_map(|f| f.parts.iter()));
    for p in parts.filter(|p| p.kind == kind && p.id == id) {
        known.extend(written_keys(&p.body, parent));
    }
    (format!("{what} has no {label}"), leaf, known)
}

/// The keys of the map at `steps` in `m`.
fn keys_at(m: &Map, steps: &[&str]) -> Vec<String> {
    let at = if steps.is_empty() {
        Some(m)
    } else {
        lookup(m, steps).and_then(Value::as_map)
    };
    at.map(|m| m.keys().map(|k| k.as_str().to_string()).collect())
        .unwrap_or_default()
}

/// The keys a template writes at `steps`.
fn written_keys(t: &Tmpl, steps: &[&str]) -> Vec<String> {
    let node = steps.iter().try_fold(t, |t, step| match t {
        Tmpl::Map(fields) => fields.iter().find(|(k, _)| &**k == *step).map(|(_, v)| v),
        _ => None,
    });
    match node {
        Some(Tmpl::Map(fields)) => fields.iter().map(|(k, _)| k.to_string()).collect(),
        Some(Tmpl::Lit(Value::Map(m))) => m.keys().map(|k| k.as_str().to_string()).collect(),
        _ => Vec::new(),
    }
}

/// A scope path not set: fine when the schema declares it, else an error
/// naming the path with its first unknown step replaced by the closest
/// key the context or the schema has there.
fn scope(project: &Project, rendered: &Rendered, steps: &[&str]) -> Result<(), String> {
    let Some((leaf, parent)) = steps.split_last() else {
        return Ok(());
    };
    let (declared, any) = schema_keys(project.schema.as_ref(), parent);
    if any || declared.iter().any(|k| k == leaf) {
        return Ok(());
    }
    let mut near = String::new();
    for (i, step) in steps.iter().enumerate() {
        let mut known = schema_keys(project.schema.as_ref(), &steps[..i]).0;
        known.extend(keys_at(&rendered.scope, &steps[..i]));
        if known.iter().any(|k| k == step) {
            continue;
        }
        let known: Vec<&str> = known.iter().map(String::as_str).collect();
        if let Some(k) = closest(step, &known) {
            let mut path: Vec<&str> = steps.to_vec();
            path[i] = k;
            near = format!(" (did you mean {:?}?)", path.join("."));
        }
        break;
    }
    let context = rendered.scope.get("context").and_then(Value::as_str).unwrap_or("");
    Err(format!(
        "context {context:?} has no value {:?}: not in its values, the schema or a config block{near}",
        steps.join(".")
    ))
}

/// The property names the schema declares at `steps`, and whether it
/// admits any key there (`additionalProperties`).
fn schema_keys(schema: Option<&Value>, steps: &[&str]) -> (Vec<String>, bool) {
    let mut at = schema.and_then(Value::as_map);
    for s in steps {
        let props = at.and_then(|m| m.get("properties")).and_then(Value::as_map);
        at = props.and_then(|p| p.get(s)).and_then(Value::as_map);
    }
    let Some(m) = at else { return (Vec::new(), false) };
    let keys = m
        .get("properties")
        .and_then(Value::as_map)
        .map(|p| p.keys().map(|k| k.as_str().to_string()).collect())
        .unwrap_or_default();
    let any = matches!(m.get("additionalProperties"), Some(Value::Map(_) | Value::Bool(true)));
    (keys, any)
}
