//! Whether a schema is one: every keyword the validator reads has the
//! form JSON Schema (draft 2020-12) gives it, and every `$ref` names a
//! place in the schema. Checked once, when the schema is first used, so a
//! render refuses a broken schema wherever the mistake is, not only where
//! a value reaches it. Keywords the validator does not read are the
//! schema's own business (JSON Schema ignores them), as are annotations.

use super::json::{TYPES, count};
use bpvm_runtime::Value;

/// The first keyword of `schema` that does not have its form: its place
/// (steps from the root) and what is wrong.
pub(super) fn first_malformed(schema: &Value) -> Option<(Vec<String>, String)> {
    let mut steps = Vec::new();
    let why = subschema(schema, schema, &mut steps)?;
    Some((steps, why))
}

/// A subschema: `true`, `false` or a map of keywords.
fn subschema(root: &Value, v: &Value, steps: &mut Vec<String>) -> Option<String> {
    match v {
        Value::Bool(_) => None,
        Value::Map(m) => m
            .iter()
            .find_map(|(k, v)| under(steps, k.as_str(), |steps| keyword(root, k.as_str(), v, steps))),
        other => Some(format!(
            "{} is not a schema (a mapping, true or false)",
            other.to_json()
        )),
    }
}

/// The keyword `name` with the value `v`.
fn keyword(root: &Value, name: &str, v: &Value, steps: &mut Vec<String>) -> Option<String> {
    match name {
        "type" => types(v),
        "enum" => list(v).err(),
        "required" => names(v),
        "pattern" | "$anchor" | "$id" | "$schema" => text(v),
        "$ref" => reference(root, v),
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => number(v),
        "multipleOf" => positive(v),
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minContains"
        | "maxContains" => whole(v),
        "uniqueItems" => boolean(v),
        "dependentRequired" => each_of(v, steps, |v, _| names(v)),
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
            each_of(v, steps, |v, steps| subschema(root, v, steps))
        }
        "dependencies" => each_of(v, steps, |v, steps| match v {
            Value::List(_) => names(v),
            _ => subschema(root, v, steps),
        }),
        "allOf" | "anyOf" | "oneOf" => schemas(root, v, steps, false),
        "prefixItems" => schemas(root, v, steps, false),
        "items" if matches!(v, Value::List(_)) => schemas(root, v, steps, true),
        "items"
        | "additionalItems"
        | "additionalProperties"
        | "propertyNames"
        | "contains"
        | "not"
        | "if"
        | "then"
        | "else"
        | "unevaluatedItems"
        | "unevaluatedProperties" => subschema(root, v, steps),
        _ => None,
    }
}

fn types(v: &Value) -> Option<String> {
    let known = |t: &Value| t.as_str().is_some_and(|t| TYPES.contains(&t));
    let ok = match v {
        Value::List(ts) => !ts.is_empty() && ts.iter().all(known),
        _ => known(v),
    };
    (!ok).then(|| {
        let names: Vec<String> = TYPES.iter().map(|t| format!("{t:?}")).collect();
        format!(
            "{} is not a type name ({}) or a list of them",
            v.to_json(),
            names.join(", ")
        )
    })
}

fn list(v: &Value) -> Result<&[Value], String> {
    match v {
        Value::List(l) => Ok(l),
        _ => Err(format!("{} is not a list", v.to_json())),
    }
}

fn names(v: &Value) -> Option<String> {
    let l = match list(v) {
        Ok(l) => l,
        Err(e) => return Some(e),
    };
    l.iter()
        .find(|n| n.as_str().is_none())
        .map(|n| format!("{} is not a property name (text)", n.to_json()))
}

fn text(v: &Value) -> Option<String> {
    v.as_str().is_none().then(|| format!("{} is not text", v.to_json()))
}

fn number(v: &Value) -> Option<String> {
    (!matches!(v, Value::Int(_) | Value::Float(_))).then(|| format!("{} is not a number", v.to_json()))
}

fn positive(v: &Value) -> Option<String> {
    let ok = match v {
        Value::Int(i) => *i > 0,
        Value::Float(f) => *f > 0.0,
        _ => false,
    };
    (!ok).then(|| format!("{} is not a number greater than 0", v.to_json()))
}

fn whole(v: &Value) -> Option<String> {
    count(v)
        .is_none()
        .then(|| format!("{} is not a whole number of 0 or more", v.to_json()))
}

fn boolean(v: &Value) -> Option<String> {
    (!matches!(v, Value::Bool(_))).then(|| format!("{} is not true or false", v.to_json()))
}

fn reference(root: &Value, v: &Value) -> Option<String> {
    let Some(target) = v.as_str() else {
        return text(v);
    };
    super::refs::resolve(root, target)
        .is_none()
        .then(|| format!("{target:?} names nothing in the schema (a $ref is #, #/a/pointer, #anchor or a $id)"))
}

/// A list of subschemas (`allowed_empty`: `items` as older drafts write it).
fn schemas(root: &Value, v: &Value, steps: &mut Vec<String>, allowed_empty: bool) -> Option<String> {
    let l = match list(v) {
        Ok(l) => l,
        Err(e) => return Some(e),
    };
    if l.is_empty() && !allowed_empty {
        return Some("an empty list (it needs at least one schema)".into());
    }
    l.iter()
        .enumerate()
        .find_map(|(i, v)| under(steps, &i.to_string(), |steps| subschema(root, v, steps)))
}

/// A mapping whose every value `each` accepts.
fn each_of(
    v: &Value,
    steps: &mut Vec<String>,
    each: impl Fn(&Value, &mut Vec<String>) -> Option<String>,
) -> Option<String> {
    let Value::Map(m) = v else {
        return Some(format!("{} is not a mapping", v.to_json()));
    };
    m.iter()
        .find_map(|(k, v)| under(steps, k.as_str(), |steps| each(v, steps)))
}

/// What `check` finds one step down, at `step`: the step stays in `steps`
/// only when something is found there.
pub(super) fn under(
    steps: &mut Vec<String>,
    step: &str,
    check: impl FnOnce(&mut Vec<String>) -> Option<String>,
) -> Option<String> {
    steps.push(step.to_string());
    let found = check(steps);
    if found.is_none() {
        steps.pop();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn malformed(yaml: &str) -> Option<(String, String)> {
        let schema = Value::from_yaml(yaml).unwrap();
        first_malformed(&schema).map(|(steps, why)| (steps.join("."), why))
    }

    #[test]
    fn each_mistake_is_found_at_its_place() {
        assert_eq!(malformed("type: object\nproperties: {a: {type: string}}"), None);
        let (at, why) = malformed("properties: {ha: {type: 12}}").unwrap();
        assert_eq!(at, "properties.ha.type");
        assert!(why.starts_with("12 is not a type name (\"array\""), "{why}");
        assert_eq!(malformed("required: name").unwrap().0, "required");
        assert_eq!(
            malformed("allOf: []").unwrap().1,
            "an empty list (it needs at least one schema)"
        );
        assert_eq!(malformed("items: {minLength: -1}").unwrap().0, "items.minLength");
        assert_eq!(
            malformed("multipleOf: 0").unwrap().1,
            "0 is not a number greater than 0"
        );
        assert_eq!(
            malformed("properties: {a: 3}").unwrap().1,
            "3 is not a schema (a mapping, true or false)"
        );
    }

    #[test]
    fn a_reference_names_a_place_in_the_schema() {
        assert_eq!(malformed("$defs: {a: {}}\nproperties: {x: {$ref: '#/$defs/a'}}"), None);
        let (at, why) = malformed("properties: {x: {$ref: '#/$defs/b'}}").unwrap();
        assert_eq!(at, "properties.x.$ref");
        assert!(why.starts_with("\"#/$defs/b\" names nothing in the schema"), "{why}");
        assert_eq!(
            malformed("properties: {x: {$ref: 12}}").unwrap(),
            ("properties.x.$ref".into(), "12 is not text".into())
        );
    }

    #[test]
    fn what_the_validator_does_not_read_is_left_alone() {
        assert_eq!(
            malformed("x-note: 3\nformat: 12\ndescription: [1]\ndefault: {a: 1}"),
            None
        );
    }
}
