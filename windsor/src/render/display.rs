//! The blueprint as Windsor prints it. Windsor reads a blueprint into Go
//! types and prints those, so a few fields print in their type's form,
//! not as written: durations in Go's form (`5m` → `5m0s`), a `destroy`,
//! `enabled` or `install` written as the text `"true"` as the bool, a
//! `parallelism` written as `"4"` as the integer. Text holding `${…}` is
//! left as it is (Windsor keeps such an expression as text too).

use super::duration::go_duration;
use bpvm_runtime::{Map, Value};

/// A kustomization's fields that hold a duration.
const DURATIONS: &[&str] = &["interval", "retryInterval", "timeout"];

/// `bp` as Windsor prints it (see the module's documentation); any other
/// value as it is.
pub fn windsor_types(bp: &Value) -> Value {
    let Some(m) = bp.as_map() else { return bp.clone() };
    let mut out = m.clone();
    let each = |key: &str, f: fn(&Value) -> Value, out: &mut Map| {
        if let Some(Value::List(items)) = m.get(key) {
            out.insert(key, Value::List(items.iter().map(f).collect()));
        }
    };
    each("sources", source, &mut out);
    each("terraform", terraform, &mut out);
    each("kustomize", kustomization, &mut out);
    each("flux", system, &mut out);
    Value::Map(out)
}

/// `m` with `fields` changed by `f` where it gives a value.
fn with(v: &Value, fields: &[&str], f: fn(&Value) -> Option<Value>) -> Value {
    let Some(m) = v.as_map() else { return v.clone() };
    let mut out = m.clone();
    for field in fields {
        if let Some(new) = m.get(field).and_then(f) {
            out.insert(*field, new);
        }
    }
    Value::Map(out)
}

/// A `BoolExpression` written as text: `"true"` is true, any other text
/// false.
fn bool_text(v: &Value) -> Option<Value> {
    match v {
        Value::Str(s) if !s.contains("${") => Some(Value::Bool(&**s == "true")),
        _ => None,
    }
}

/// An `IntExpression` written as text: its leading integer.
fn int_text(v: &Value) -> Option<Value> {
    let Value::Str(s) = v else { return None };
    let s = s.trim_start();
    let sign = usize::from(s.starts_with(['-', '+']));
    let end = s[sign..]
        .find(|c: char| !c.is_ascii_digit())
        .map_or(s.len(), |i| i + sign);
    s[..end].parse::<i64>().ok().map(Value::Int)
}

/// A duration as Go prints it; the object form `{duration: 5m}` too.
fn duration(v: &Value) -> Option<Value> {
    let text = match v {
        Value::Str(s) => s.to_string(),
        Value::Map(d) => d.get("duration").and_then(Value::as_str)?.to_string(),
        _ => return None,
    };
    go_duration(&text).map(|t| Value::Str(t.into()))
}

fn source(v: &Value) -> Value {
    with(v, &["install"], bool_text)
}

fn terraform(v: &Value) -> Value {
    let v = with(v, &["destroy", "enabled"], bool_text);
    with(&v, &["parallelism"], int_text)
}

fn kustomization(v: &Value) -> Value {
    let v = with(v, &["destroy", "enabled"], bool_text);
    with(&v, DURATIONS, duration)
}

fn system(v: &Value) -> Value {
    let v = with(v, &["destroy", "enabled"], bool_text);
    let Some(m) = v.as_map() else { return v };
    let mut out = m.clone();
    if let Some(install) = m.get("install") {
        out.insert("install", kustomization(install));
    }
    if let Some(Value::List(variants)) = m.get("resources") {
        out.insert("resources", Value::List(variants.iter().map(kustomization).collect()));
    }
    Value::Map(out)
}

#[cfg(test)]
mod tests {
    use super::windsor_types;
    use bpvm_runtime::Value;

    fn shown(yaml: &str) -> String {
        windsor_types(&Value::from_yaml(yaml).unwrap()).to_json()
    }

    #[test]
    fn fields_print_in_their_windsor_type() {
        assert_eq!(
            shown("kustomize: [{name: a, timeout: 5m, interval: {duration: 1h}, enabled: 'false', destroy: '${x}'}]"),
            r#"{"kustomize":[{"name":"a","timeout":"5m0s","interval":"1h0m0s","enabled":false,"destroy":"${x}"}]}"#
        );
        assert_eq!(
            shown("terraform: [{path: a, parallelism: '4', destroy: 'true', enabled: 'no'}]"),
            r#"{"terraform":[{"path":"a","parallelism":4,"destroy":true,"enabled":false}]}"#
        );
        assert_eq!(
            shown("sources: [{name: t, install: 'true'}]"),
            r#"{"sources":[{"name":"t","install":true}]}"#
        );
        assert_eq!(
            shown("flux: [{name: p, enabled: 'true', install: {timeout: 90s}, resources: [{retryInterval: 2m}]}]"),
            r#"{"flux":[{"name":"p","enabled":true,"install":{"timeout":"1m30s"},"resources":[{"retryInterval":"2m0s"}]}]}"#
        );
    }

    #[test]
    fn text_that_is_no_duration_stays_as_written() {
        assert_eq!(
            shown("kustomize: [{name: a, timeout: '${t}', interval: soon}]"),
            r#"{"kustomize":[{"name":"a","timeout":"${t}","interval":"soon"}]}"#
        );
    }
}
