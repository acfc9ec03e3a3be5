//! The keywords about a mapping: its properties (named, by pattern, the
//! rest, their names), which are required, how many, and what the
//! keywords before left unevaluated.

use super::walk::{Seen, Walk};
use bpvm_runtime::suggest::closest;
use bpvm_runtime::{Map, Value};

/// Every such keyword of `keywords`, applied to `v`, the mapping `m`; what
/// they evaluated is added to `seen`.
pub(super) fn check<'s, 'i>(walk: &mut Walk<'s>, keywords: &'s Map, v: &'i Value, m: &'i Map, seen: &mut Seen<'i>) {
    properties(walk, keywords, m, seen);
    if let Some(names) = keywords.get("propertyNames") {
        for key in m.keys() {
            walk.node(names, &Value::from(key.as_str()));
        }
    }
    required(walk, keywords.get("required"), m);
    dependencies(walk, keywords, v, m, seen);
    counts(walk, keywords, v, m.len());
    if let Some(rest) = keywords.get("unevaluatedProperties") {
        let left: Vec<&'i str> = m
            .keys()
            .map(|k| k.as_str())
            .filter(|k| !seen.props.contains(k))
            .collect();
        others(walk, keywords, rest, m, &left);
        seen.props.extend(left);
    }
}

/// `properties`, `patternProperties` and `additionalProperties`.
fn properties<'s, 'i>(walk: &mut Walk<'s>, keywords: &'s Map, m: &'i Map, seen: &mut Seen<'i>) {
    let named = keywords.get("properties").and_then(Value::as_map);
    for (key, schema) in named.into_iter().flat_map(|p| p.iter()) {
        if let Some(v) = m.get(key.as_str()) {
            walk.under(key.as_str().to_string(), schema, v);
        }
    }
    let mut matched: Vec<&'i str> = Vec::new();
    if let Some(Value::Map(patterns)) = keywords.get("patternProperties") {
        for (pattern, schema) in patterns.iter() {
            for (key, v) in m.iter() {
                if matches(walk, pattern.as_str(), key.as_str()) {
                    walk.under(key.as_str().to_string(), schema, v);
                    matched.push(key.as_str());
                }
            }
        }
    }
    let is_named = |k: &str| named.is_some_and(|p| p.contains_key(k));
    let rest: Vec<&'i str> = m
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !is_named(k) && !matched.contains(k))
        .collect();
    seen.props.extend(m.keys().map(|k| k.as_str()).filter(|k| is_named(k)));
    seen.props.extend(matched);
    if let Some(additional) = keywords.get("additionalProperties") {
        others(walk, keywords, additional, m, &rest);
        seen.props.extend(rest);
    }
}

/// Whether `key` matches `pattern` (one that is no regular expression is
/// reported, and matches nothing).
fn matches(walk: &mut Walk, pattern: &str, key: &str) -> bool {
    match &*walk.patterns.get(pattern) {
        Ok(m) => m.is_match(key),
        Err(why) => {
            walk.fail(format!(
                "the schema's pattern {pattern:?} is not a regular expression: {why}"
            ));
            false
        }
    }
}

/// `schema` (`additionalProperties`, `unevaluatedProperties`) applied to
/// the properties `keys`: where it allows none, each is a key the schema
/// does not know, with the closest one it names.
fn others<'s>(walk: &mut Walk<'s>, keywords: &'s Map, schema: &'s Value, m: &Map, keys: &[&str]) {
    if !matches!(schema, Value::Bool(false)) {
        for key in keys {
            if let Some(v) = m.get(key) {
                walk.under(key.to_string(), schema, v);
            }
        }
        return;
    }
    let known: Vec<&str> = keywords
        .get("properties")
        .and_then(Value::as_map)
        .map(|p| p.keys().map(|k| k.as_str()).collect())
        .unwrap_or_default();
    for key in keys {
        let mut steps = walk.at.clone();
        steps.push(key.to_string());
        walk.out.push(super::violation::Violation {
            steps,
            message: format!("the schema allows no property {key:?} here"),
            suggestion: closest(key, &known).map(|k| format!("{k:?}")),
            unknown_key: true,
        });
    }
}

fn required(walk: &mut Walk, names: Option<&Value>, m: &Map) {
    let Some(Value::List(names)) = names else { return };
    for name in names {
        if name.as_str().is_some_and(|n| !m.contains_key(n)) {
            walk.fail(format!("{} is a required property", name.to_json()));
        }
    }
}

/// `dependentRequired`, `dependentSchemas` and the older `dependencies`
/// (a list of names or a schema).
fn dependencies<'s, 'i>(walk: &mut Walk<'s>, keywords: &'s Map, v: &'i Value, m: &Map, seen: &mut Seen<'i>) {
    for keyword in ["dependentRequired", "dependentSchemas", "dependencies"] {
        let Some(Value::Map(each)) = keywords.get(keyword) else {
            continue;
        };
        for (key, then) in each.iter() {
            if !m.contains_key(key.as_str()) {
                continue;
            }
            match then {
                Value::List(_) => required(walk, Some(then), m),
                schema => seen.add(walk.node(schema, v)),
            }
        }
    }
}

fn counts(walk: &mut Walk, keywords: &Map, v: &Value, n: usize) {
    let plural = |n: usize| if n == 1 { "y" } else { "ies" };
    if let Some(min) = keywords.get("minProperties").and_then(super::json::count)
        && n < min
    {
        walk.fail(format!("{} has less than {min} propert{}", v.to_json(), plural(min)));
    }
    if let Some(max) = keywords.get("maxProperties").and_then(super::json::count)
        && n > max
    {
        walk.fail(format!("{} has more than {max} propert{}", v.to_json(), plural(max)));
    }
}
