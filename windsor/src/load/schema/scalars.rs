//! The keywords about one value itself: `type`, `enum`, `const`, the
//! bounds of a number and the length and `pattern` of a string. Messages
//! read as the JSON Schema crate worded them before this validator
//! replaced it.

use super::json::{compare, count, is_multiple, is_type, length, options, text};
use super::walk::Walk;
use bpvm_runtime::suggest::closest;
use bpvm_runtime::{Map, Value};
use std::cmp::Ordering;

/// Every such keyword of `keywords`, applied to `v`.
pub(super) fn check(walk: &mut Walk, keywords: &Map, v: &Value) {
    if let Some(t) = keywords.get("type") {
        types(walk, t, v);
    }
    if let Some(Value::List(allowed)) = keywords.get("enum")
        && !allowed.contains(v)
    {
        let suggestion = one_of(v, allowed);
        walk.report(
            format!("{} is not one of {}", v.to_json(), options(allowed)),
            suggestion,
        );
    }
    if let Some(c) = keywords.get("const")
        && c != v
    {
        walk.fail(format!("{} was expected", c.to_json()));
    }
    if matches!(v, Value::Int(_) | Value::Float(_)) {
        bounds(walk, keywords, v);
    }
    if let Some(n) = length(v) {
        lengths(walk, keywords, v, n);
    }
    if let (Some(Value::Str(p)), Some(s)) = (keywords.get("pattern"), text(v)) {
        pattern(walk, p, v, &s);
    }
}

fn types(walk: &mut Walk, t: &Value, v: &Value) {
    match t {
        Value::Str(name) if !is_type(name, v) => walk.fail(format!("{} is not of type {:?}", v.to_json(), &**name)),
        Value::List(names) if !names.iter().any(|n| n.as_str().is_some_and(|n| is_type(n, v))) => {
            let names: Vec<String> = names.iter().map(Value::to_json).collect();
            walk.fail(format!("{} is not of types {}", v.to_json(), names.join(", ")));
        }
        _ => {}
    }
}

/// The option of an `enum` closest to the text `v`, quoted.
fn one_of(v: &Value, allowed: &[Value]) -> Option<String> {
    let given = v.as_str()?;
    let texts: Vec<&str> = allowed.iter().filter_map(Value::as_str).collect();
    closest(given, &texts).map(|o| format!("{o:?}"))
}

/// A bound: its keyword, whether a value that compares so is refused,
/// and how the message says so.
type Bound = (&'static str, fn(Ordering) -> bool, &'static str);

fn bounds(walk: &mut Walk, keywords: &Map, v: &Value) {
    let limits: [Bound; 4] = [
        ("minimum", |o| o == Ordering::Less, "is less than the minimum of"),
        ("maximum", |o| o == Ordering::Greater, "is greater than the maximum of"),
        (
            "exclusiveMinimum",
            |o| o != Ordering::Greater,
            "is less than or equal to the minimum of",
        ),
        (
            "exclusiveMaximum",
            |o| o != Ordering::Less,
            "is greater than or equal to the maximum of",
        ),
    ];
    for (name, refused, words) in limits {
        let Some(limit) = keywords.get(name) else { continue };
        if compare(v, limit).is_some_and(refused) {
            walk.fail(format!("{} {words} {}", v.to_json(), limit.to_json()));
        }
    }
    if let Some(of) = keywords.get("multipleOf")
        && !is_multiple(v, of)
    {
        walk.fail(format!("{} is not a multiple of {}", v.to_json(), of.to_json()));
    }
}

fn lengths(walk: &mut Walk, keywords: &Map, v: &Value, n: usize) {
    let plural = |limit: usize| if limit == 1 { "" } else { "s" };
    if let Some(min) = keywords.get("minLength").and_then(count)
        && n < min
    {
        walk.fail(format!(
            "{} is shorter than {min} character{}",
            v.to_json(),
            plural(min)
        ));
    }
    if let Some(max) = keywords.get("maxLength").and_then(count)
        && n > max
    {
        walk.fail(format!("{} is longer than {max} character{}", v.to_json(), plural(max)));
    }
}

fn pattern(walk: &mut Walk, p: &str, v: &Value, s: &str) {
    match &*walk.patterns.get(p) {
        Ok(m) if m.is_match(s) => {}
        Ok(_) => walk.fail(format!("{} does not match \"{p}\"", v.to_json())),
        Err(why) => walk.fail(format!("the schema's pattern {p:?} is not a regular expression: {why}")),
    }
}
