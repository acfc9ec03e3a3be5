//! A component's identity, the component lists of a document, and the
//! normal form Windsor gives a component's list and text fields.

use crate::kind::Kind;
use bpvm_runtime::{Map, Value, text};

/// Substitution values as text (D4): nil is empty, numbers as Go prints
/// them, lists and maps as YAML.
pub(crate) fn as_texts(m: &Map) -> Map {
    m.iter()
        .map(|(k, v)| (k.clone(), Value::Str(text::to_text(v).into())))
        .collect()
}

/// dependsOn, components, cleanup: lists flattened, nil and "" dropped (W6).
pub(crate) fn string_list(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let mut push = |x: &Value| match x {
        Value::Null => {}
        Value::Str(s) if s.is_empty() => {}
        Value::Str(_) => out.push(x.clone()),
        other => {
            let t = text::to_text(other);
            if !t.is_empty() {
                out.push(Value::Str(t.into()));
            }
        }
    };
    match v {
        Value::List(items) => {
            for x in items {
                match x {
                    Value::List(inner) => inner.iter().for_each(&mut push),
                    _ => push(x),
                }
            }
        }
        other => push(other),
    }
    out
}

/// The mappings of list `key` of `m`.
pub(crate) fn list_of(m: &Map, key: &str) -> Vec<Map> {
    match m.get(key) {
        Some(Value::List(items)) => items.iter().filter_map(|v| v.as_map().cloned()).collect(),
        _ => Vec::new(),
    }
}

/// A component's identity: terraform `name`, else `path`; kustomize `name`.
pub(crate) fn identity(kind: Kind, c: &Map) -> Option<String> {
    let text = |k: &str| {
        c.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    match kind {
        Kind::Terraform => text("name").or_else(|| text("path")),
        Kind::Kustomize => text("name"),
    }
}
