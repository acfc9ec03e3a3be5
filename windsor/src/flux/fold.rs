//! Same-name systems folded: a later one merged into an earlier one
//! (tiers, variants, secrets), or the items a removal lists taken out.

use crate::blueprint::merge::merge_component;
use crate::fields::FLUX_SYSTEM as FIELDS;
use crate::kind::Kind;
use bpvm_runtime::{Map, Value};

fn list(v: Option<&Value>) -> Vec<Value> {
    match v {
        Some(Value::List(l)) => l.clone(),
        _ => Vec::new(),
    }
}

/// Folds system `newer` into `older` (the `merge` strategy): dependencies
/// united and sorted, tiers merged field by field, variants matched by
/// name, secrets united; path, source, enabled and destroy stay the
/// first contributor's.
pub fn merge(older: &mut Map, newer: &Map) {
    let mut deps = list(older.get("dependsOn"));
    for d in list(newer.get("dependsOn")) {
        if !deps.contains(&d) {
            deps.push(d);
        }
    }
    if older.contains_key("dependsOn") || newer.contains_key("dependsOn") {
        deps.sort_by(|a, b| a.as_str().unwrap_or("").cmp(b.as_str().unwrap_or("")));
        older.insert("dependsOn", Value::List(deps));
    }
    let global = matches!(older.get("globalDependency"), Some(Value::Bool(true)))
        || matches!(newer.get("globalDependency"), Some(Value::Bool(true)));
    if global {
        older.insert("globalDependency", Value::Bool(true));
    }
    match (older.get_mut("install"), newer.get("install")) {
        (Some(Value::Map(a)), Some(Value::Map(b))) => merge_component(Kind::Kustomize, a, b),
        (None, Some(b)) => {
            older.insert("install", b.clone());
        }
        _ => {}
    }
    if let Some(Value::List(incoming)) = newer.get("resources") {
        let mut variants = list(older.get("resources"));
        for v in incoming {
            let name = v.as_map().and_then(|m| m.get("name")).cloned();
            let found = variants
                .iter_mut()
                .find(|x| x.as_map().and_then(|m| m.get("name")).cloned() == name);
            match (found, v) {
                (Some(Value::Map(a)), Value::Map(b)) => merge_component(Kind::Kustomize, a, b),
                _ => variants.push(v.clone()),
            }
        }
        older.insert("resources", Value::List(variants));
    }
    if let Some(Value::Map(incoming)) = newer.get("secrets") {
        let mut secrets = older
            .get("secrets")
            .and_then(Value::as_map)
            .cloned()
            .unwrap_or_default();
        for (name, entry) in incoming.iter() {
            match secrets.get_mut(name.as_str()) {
                Some(Value::Map(have)) => merge_secret(have, entry),
                _ => {
                    secrets.insert(name.clone(), entry.clone());
                }
            }
        }
        older.insert("secrets", Value::Map(secrets));
    }
    // A newer Windsor's fields: the later system's win, as a component's.
    for (k, v) in newer.iter().filter(|(k, _)| !FIELDS.contains(&k.as_str())) {
        older.insert(k.clone(), v.clone());
    }
    reorder(older);
}

/// Applies a `remove` descriptor to a system: the dependencies it lists
/// go, the install tier loses the components, dependencies, patches and
/// substitutions it lists, and the variants it names go.
pub fn remove(system: &mut Map, spec: &Map) {
    crate::blueprint::merge::remove_items(system, "dependsOn", spec);
    if let (Some(Value::Map(install)), Some(Value::Map(gone))) = (system.get_mut("install"), spec.get("install")) {
        crate::blueprint::merge::remove_from(install, gone);
    }
    if let Some(Value::List(gone)) = spec.get("resources") {
        let names: Vec<Option<Value>> = gone
            .iter()
            .map(|v| v.as_map().and_then(|m| m.get("name")).cloned())
            .collect();
        if let Some(Value::List(variants)) = system.get_mut("resources") {
            variants.retain(|v| !names.contains(&v.as_map().and_then(|m| m.get("name")).cloned()));
        }
    }
}

fn merge_secret(have: &mut Map, entry: &Value) {
    let Some(entry) = entry.as_map() else { return };
    let mut namespaces = list(have.get("namespaces"));
    for n in list(entry.get("namespaces")) {
        if !namespaces.contains(&n) {
            namespaces.push(n);
        }
    }
    if !namespaces.is_empty() {
        have.insert("namespaces", Value::List(namespaces));
    }
    let mut data = have.get("data").and_then(Value::as_map).cloned().unwrap_or_default();
    if let Some(d) = entry.get("data").and_then(Value::as_map) {
        for (k, v) in d.iter() {
            data.insert(k.clone(), v.clone());
        }
    }
    have.insert("data", Value::Map(data));
}

/// Puts a system's fields back in output order: a newer Windsor's
/// fields after the known ones, in their own order.
pub(crate) fn reorder(m: &mut Map) {
    let mut out = Map::new();
    for f in FIELDS {
        if let Some(v) = m.get(f) {
            out.insert(*f, v.clone());
        }
    }
    for (k, v) in m.iter().filter(|(k, _)| !FIELDS.contains(&k.as_str())) {
        out.insert(k.clone(), v.clone());
    }
    *m = out;
}
