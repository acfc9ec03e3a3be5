//! Merging values and components: the plain deep merge of scopes, and the
//! strategic merge and removal that fold component contributions (W4).

use crate::blueprint::lists::{Held, Lists};
use crate::kind::Kind;
use bpvm_runtime::Value;
use bpvm_runtime::{Key, Map};

/// Deep merge: maps merge key by key, the overlay wins everything else.
pub fn deep_merge(base: &mut Value, overlay: Value) {
    match (base, overlay) {
        (Value::Map(b), Value::Map(o)) => {
            for (k, v) in o.iter() {
                merge_entry(b, k, v.clone());
            }
        }
        (slot, o) => *slot = o,
    }
}

/// Deep-merges `value` into `base` under `key`.
pub fn merge_entry(base: &mut Map, key: &Key, value: Value) {
    match base.get_mut(key.as_str()) {
        Some(slot) => deep_merge(slot, value),
        None => {
            base.insert(key.clone(), value);
        }
    }
}

/// An empty string, list or map (what Windsor's merges never let
/// overwrite a value that is set).
pub fn is_empty(v: &Value) -> bool {
    match v {
        Value::Str(s) => s.is_empty(),
        Value::List(l) => l.is_empty(),
        Value::Map(m) => m.is_empty(),
        _ => false,
    }
}

/// Inputs merge: like [`deep_merge`], except that an empty string, list
/// or map never overwrites a value that is there (a facet that leaves an
/// input empty does not erase what a lower ordinal set).
pub fn merge_inputs(base: &mut Value, overlay: &Value) {
    match (base, overlay) {
        (Value::Map(b), Value::Map(o)) => {
            for (k, v) in o.iter() {
                match b.get_mut(k.as_str()) {
                    Some(slot) if is_empty(v) && !matches!(slot, Value::Null) && !is_empty(slot) => {}
                    Some(slot) => merge_inputs(slot, v),
                    None => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (slot, o) => *slot = o.clone(),
    }
}

/// [`merge_inputs`] of two mappings: Windsor v0.9's merge of scopes,
/// where an empty value never hides one that is set.
pub fn merge_preserving(base: &mut Map, overlay: &Map) {
    for (k, v) in overlay.iter() {
        put_preserving(base, k, v);
    }
}

/// [`merge_preserving`] of one entry.
pub fn put_preserving(base: &mut Map, key: &Key, v: &Value) {
    match base.get_mut(key.as_str()) {
        Some(slot) if is_empty(v) && !matches!(slot, Value::Null) && !is_empty(slot) => {}
        Some(slot) => merge_inputs(slot, v),
        None => {
            base.insert(key.clone(), v.clone());
        }
    }
}

/// Sets each of `texts` in `component`'s `substitutions` (a values
/// file's `substitutions.<kustomization>` over what the facets gave).
pub fn overlay_substitutions(component: &mut Map, texts: &Map) {
    let mut merged = component
        .get("substitutions")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    for (k, v) in texts.iter() {
        merged.insert(k.clone(), v.clone());
    }
    component.insert("substitutions", Value::Map(merged));
}

fn strings(v: Option<&Value>) -> Vec<Value> {
    match v {
        Some(Value::List(items)) => items.clone(),
        _ => Vec::new(),
    }
}

/// Overlays one contribution on a component (the `merge` strategy).
pub fn merge_component(kind: Kind, base: &mut Map, overlay: &Map) {
    let mut lists = Lists::default();
    merge_in_row(kind, base, overlay, &mut lists);
    lists.settle(base);
}

/// [`merge_component`] for one of several contributions merged into a
/// component in a row: `lists` carries what its lists hold from one to
/// the next, and is settled when the row ends.
pub fn merge_in_row(kind: Kind, base: &mut Map, overlay: &Map, lists: &mut Lists) {
    for (k, v) in overlay.iter() {
        let key = k.as_str();
        match key {
            "inputs" => match base.get_mut(key) {
                Some(slot) => merge_inputs(slot, v),
                None => {
                    base.insert(key, v.clone());
                }
            },
            "dependsOn" | "cleanup" | "components" => lists.append(base, key, v),
            "patches" => {
                let extra = strings(Some(v));
                match base.get_mut(key) {
                    Some(Value::List(items)) => items.extend(extra),
                    _ => {
                        base.insert(key, Value::List(extra));
                    }
                }
            }
            "substitutions" => {
                if !matches!(base.get(key), Some(Value::Map(_))) {
                    base.insert(key, Value::Map(Map::new()));
                }
                if let (Some(Value::Map(subs)), Some(o)) = (base.get_mut(key), v.as_map()) {
                    for (sk, sv) in o.iter() {
                        subs.insert(sk.clone(), sv.clone());
                    }
                }
            }
            // A terraform component keeps its module: its identity and
            // where it comes from are not overlaid.
            "path" | "source" if kind == Kind::Terraform && base.contains_key(key) => {}
            _ if matches!(v, Value::Null) => {}
            _ => {
                base.insert(key, v.clone());
            }
        }
    }
}

/// True when a `remove` contribution lists nothing but the component's
/// identity: it removes the whole component (W4).
pub fn removes_whole(kind: Kind, spec: &Map) -> bool {
    spec.keys().all(|k| match kind {
        Kind::Terraform => matches!(k.as_str(), "name" | "path" | "source"),
        Kind::Kustomize => matches!(k.as_str(), "name" | "path" | "source"),
    })
}

pub fn remove_items(base: &mut Map, key: &str, spec: &Map) {
    let gone = strings(spec.get(key));
    if gone.is_empty() {
        return;
    }
    if let Some(Value::List(items)) = base.get_mut(key) {
        let gone = Held::of(&gone);
        items.retain(|x| !gone.holds(x));
    }
}

fn remove_keys(base: &mut Map, key: &str, spec: &Map) {
    let Some(gone) = spec.get(key).and_then(Value::as_map) else {
        return;
    };
    if let Some(Value::Map(m)) = base.get_mut(key) {
        m.retain(|k, _| !gone.contains_key(k.as_str()));
    }
}

/// Applies a `remove` contribution: deletes the listed input and
/// substitution keys, and the listed dependsOn, components, cleanup and
/// patches items.
pub fn remove_from(base: &mut Map, spec: &Map) {
    remove_keys(base, "inputs", spec);
    remove_keys(base, "substitutions", spec);
    for key in ["dependsOn", "components", "cleanup"] {
        remove_items(base, key, spec);
    }
    let gone = strings(spec.get("patches"));
    if !gone.is_empty()
        && let Some(Value::List(items)) = base.get_mut("patches")
    {
        let same = |a: &Value, b: &Value| {
            let field = |v: &Value, k: &str| v.as_map().and_then(|m| m.get(k)).cloned();
            match (field(a, "path"), field(b, "path")) {
                (Some(x), Some(y)) => x == y,
                _ => field(a, "patch").is_some() && field(a, "patch") == field(b, "patch"),
            }
        };
        items.retain(|p| !gone.iter().any(|g| same(g, p)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(y: &str) -> Value {
        Value::from_yaml(y).unwrap()
    }

    #[test]
    fn empty_overlays_keep_what_is_there() {
        let mut base = v("{key: populated, patches: [a, b], gone: 1}");
        merge_inputs(
            &mut base,
            &v("{key: '', patches: [], gone: null, new_empty: '', new_map: {}}"),
        );
        assert_eq!(
            base.to_json(),
            r#"{"key":"populated","patches":["a","b"],"gone":null,"new_empty":"","new_map":{}}"#
        );
    }

    #[test]
    fn merge_appends_unique_items_and_sorts_components() {
        let mut base = v("{name: ingress, components: [nginx, nginx/web], dependsOn: [pki]}");
        let overlay = v("{name: ingress, components: [nginx/coredns, nginx], dependsOn: [dns, pki]}");
        let Value::Map(mut b) = base.clone() else {
            unreachable!()
        };
        merge_component(Kind::Kustomize, &mut b, overlay.as_map().unwrap());
        base = Value::Map(b);
        assert_eq!(
            base.to_json(),
            r#"{"name":"ingress","components":["nginx","nginx/coredns","nginx/web"],"dependsOn":["pki","dns"]}"#
        );
    }

    #[test]
    fn remove_deletes_only_what_it_lists() {
        let Value::Map(mut base) = v("{path: vpc, inputs: {keep: 1, drop: 2}, dependsOn: [a, b]}") else {
            unreachable!()
        };
        remove_from(
            &mut base,
            v("{path: vpc, inputs: {drop: null}, dependsOn: [b]}").as_map().unwrap(),
        );
        assert_eq!(
            Value::Map(base).to_json(),
            r#"{"path":"vpc","inputs":{"keep":1},"dependsOn":["a"]}"#
        );
        assert!(removes_whole(Kind::Terraform, v("{path: vpc}").as_map().unwrap()));
    }
}
