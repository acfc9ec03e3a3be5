//! What Windsor v0.9 prunes from a composed blueprint: empty strings.

use bpvm_runtime::{Map, Value};

/// Drops the empty strings composition leaves: in terraform inputs (at
/// any depth), plain kustomizations' components and substitutions, and
/// the blueprint's substitutions. Flux tiers keep theirs.
pub fn prune(terraform: &mut [(String, Map)], kustomize: &mut [(String, Map)], substitutions: &mut Map) {
    fn deep(v: &mut Value) {
        match v {
            Value::Map(m) => {
                m.retain(|k, v| !k.as_str().is_empty() && !matches!(v, Value::Str(s) if s.is_empty()));
                for (_, v) in m.iter_mut() {
                    deep(v);
                }
            }
            Value::List(l) => {
                l.retain(|v| !matches!(v, Value::Str(s) if s.is_empty()));
                l.iter_mut().for_each(deep);
            }
            _ => {}
        }
    }
    for (_, c) in terraform.iter_mut() {
        if let Some(v) = c.get_mut("inputs") {
            deep(v);
        }
    }
    for (_, c) in kustomize.iter_mut() {
        if let Some(Value::List(l)) = c.get_mut("components") {
            l.retain(|v| !matches!(v, Value::Str(s) if s.is_empty()));
        }
        if let Some(Value::Map(m)) = c.get_mut("substitutions") {
            m.retain(|k, v| !k.as_str().is_empty() && !matches!(v, Value::Str(s) if s.is_empty()));
        }
    }
    substitutions.retain(|k, v| !k.as_str().is_empty() && !matches!(v, Value::Str(s) if s.is_empty()));
}
