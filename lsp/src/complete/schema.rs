//! The properties a template's `schema.yaml` declares at a path of the
//! values: `properties` of the schema there, its `$ref`s followed as the
//! values' validator follows them and the alternatives of `allOf`,
//! `anyOf` and `oneOf` joined. The seed format's schemas (`properties`
//! without `type: object`) and v0.9's read the same way.

use super::expression::Step;
use bpvm::Value;
use bpvm::runtime::Map;

/// How many `$ref`s and nested alternatives are followed: schemas that
/// refer to each other end there.
const DEPTH: usize = 16;

/// How many schemas one question reads at most: alternatives that refer
/// to each other more than once would otherwise multiply without end.
const BUDGET: usize = 5_000;

/// The schemas a question may still read.
type Budget = std::cell::Cell<usize>;

/// One property: its name and its schema (its `$ref`s not yet followed).
pub type Property<'s> = (&'s str, &'s Value);

/// The properties declared at `steps` of the values `root` describes, in
/// document order, each name once.
///
/// ```
/// use bpvm::Value;
/// use bpvm_lsp::complete::{Step, properties_at};
/// let schema = Value::from_yaml(
///     "$defs: {node: {properties: {count: {type: integer}}}}\nproperties:\n  workers: {$ref: '#/$defs/node'}\n",
/// ).unwrap();
/// let found = properties_at(&schema, &[Step::Key("workers".into())]);
/// assert_eq!(found.iter().map(|(n, _)| *n).collect::<Vec<_>>(), ["count"]);
/// ```
pub fn properties_at<'s>(root: &'s Value, steps: &[Step]) -> Vec<Property<'s>> {
    let budget = Budget::new(BUDGET);
    let mut here = alternatives(root, root, 0, &budget);
    for step in steps {
        let next: Vec<&Map> = here.iter().flat_map(|m| child(root, m, step, &budget)).collect();
        here = next;
    }
    let mut out: Vec<Property<'s>> = Vec::new();
    for m in here {
        let Some(props) = m.get("properties").and_then(Value::as_map) else {
            continue;
        };
        for (name, schema) in props.iter() {
            if !out.iter().any(|(n, _)| *n == name.as_str()) {
                out.push((name.as_str(), schema));
            }
        }
    }
    out
}

/// The schemas of what `m` holds at `step`: a property's, else the
/// schema of other properties, or a list's items'.
fn child<'s>(root: &'s Value, m: &'s Map, step: &Step, budget: &Budget) -> Vec<&'s Map> {
    let held = match step {
        Step::Key(name) => m
            .get("properties")
            .and_then(Value::as_map)
            .and_then(|p| p.get(name.as_str()))
            .or_else(|| m.get("additionalProperties").filter(|v| v.as_map().is_some())),
        Step::Item => m.get("items"),
    };
    held.map_or_else(Vec::new, |v| alternatives(root, v, 0, budget))
}

/// `schema` and the schemas its `allOf`, `anyOf` and `oneOf` hold, each
/// with its `$ref` followed, while `budget` lasts.
fn alternatives<'s>(root: &'s Value, schema: &'s Value, depth: usize, budget: &Budget) -> Vec<&'s Map> {
    if budget.get() == 0 {
        return Vec::new();
    }
    budget.set(budget.get() - 1);
    let Some(m) = followed(root, schema, depth) else {
        return Vec::new();
    };
    let mut out = vec![m];
    for key in ["allOf", "anyOf", "oneOf"] {
        if let Some(Value::List(parts)) = m.get(key) {
            if depth < DEPTH {
                out.extend(parts.iter().flat_map(|p| alternatives(root, p, depth + 1, budget)));
            }
        }
    }
    out
}

/// The schema `schema` is, its `$ref`s followed.
fn followed<'s>(root: &'s Value, schema: &'s Value, depth: usize) -> Option<&'s Map> {
    let mut m = schema.as_map()?;
    for _ in depth..DEPTH {
        let Some(target) = m
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| bpvm::windsor::resolve_reference(root, r))
        else {
            break;
        };
        m = target.as_map()?;
    }
    Some(m)
}

/// A property's type as its schema says it (`string`, `object`,
/// `integer | null`), its `$ref` followed; `None` when it says none.
pub fn type_of(root: &Value, schema: &Value) -> Option<String> {
    let m = followed(root, schema, 0)?;
    match m.get("type") {
        Some(Value::Str(t)) => Some(t.to_string()),
        Some(Value::List(ts)) => Some(ts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" | ")),
        _ if m.contains_key("properties") => Some("object".into()),
        _ => None,
    }
}

/// A property's `description`, its `$ref` followed.
pub fn description_of<'s>(root: &'s Value, schema: &'s Value) -> Option<&'s str> {
    let own = schema.as_map()?.get("description").and_then(Value::as_str);
    own.or_else(|| followed(root, schema, 0)?.get("description").and_then(Value::as_str))
}

/// A property's `default`, its `$ref` followed when it gives none itself.
pub fn default_of<'s>(root: &'s Value, schema: &'s Value) -> Option<&'s Value> {
    let own = schema.as_map()?.get("default");
    own.or_else(|| followed(root, schema, 0)?.get("default"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(schema: &str, steps: &[Step]) -> Vec<String> {
        let root = Value::from_yaml(schema).unwrap();
        properties_at(&root, steps).iter().map(|(n, _)| n.to_string()).collect()
    }

    fn key(k: &str) -> Step {
        Step::Key(k.to_string())
    }

    #[test]
    fn nested_referenced_and_combined_properties_are_found() {
        let schema = "$defs:\n  \
                        a: {properties: {x: {type: string}}}\n  \
                        loop: {$ref: '#/$defs/loop'}\n\
                      type: object\n\
                      properties:\n  \
                        cluster:\n    \
                          allOf: [{$ref: '#/$defs/a'}, {properties: {y: {}}}]\n    \
                          anyOf: [{properties: {z: {}, x: {}}}]\n  \
                        nodes: {type: array, items: {properties: {host: {}}}}\n  \
                        labels: {additionalProperties: {properties: {v: {}}}}\n  \
                        cycle: {$ref: '#/$defs/loop'}\n";
        assert_eq!(names(schema, &[]), ["cluster", "nodes", "labels", "cycle"]);
        assert_eq!(names(schema, &[key("cluster")]), ["x", "y", "z"]);
        assert_eq!(names(schema, &[key("nodes"), Step::Item]), ["host"]);
        assert_eq!(names(schema, &[key("labels"), key("any")]), ["v"]);
        assert!(names(schema, &[key("cycle")]).is_empty());
        // Alternatives that refer to each other end within the budget.
        let tangle = "$defs: {t: {properties: {p: {}}, anyOf: [{$ref: '#/$defs/t'}, {$ref: '#/$defs/t'}, {$ref: '#/$defs/t'}]}}\n\
                      $ref: '#/$defs/t'\n";
        assert_eq!(names(tangle, &[]), ["p"]);
        assert_eq!(names(tangle, &[key("p")]), Vec::<String>::new());
        assert!(names(schema, &[key("missing")]).is_empty());
        // The seed format's schema: properties without a type.
        assert_eq!(names("properties: {a: {properties: {b: {}}}}", &[key("a")]), ["b"]);
    }

    #[test]
    fn types_and_descriptions_are_read_through_refs() {
        let root = Value::from_yaml(
            "$defs: {n: {type: [integer, 'null'], description: A count.}}\nproperties: {c: {$ref: '#/$defs/n'}}",
        )
        .unwrap();
        let (_, c) = properties_at(&root, &[])[0];
        assert_eq!(type_of(&root, c).as_deref(), Some("integer | null"));
        assert_eq!(description_of(&root, c), Some("A count."));
        assert_eq!(default_of(&root, c), None);
        let with = Value::from_yaml("$defs: {n: {default: 2}}\nproperties: {c: {$ref: '#/$defs/n'}, d: {default: x}}")
            .unwrap();
        let found = properties_at(&with, &[]);
        assert_eq!(default_of(&with, found[0].1), Some(&Value::Int(2)));
        assert_eq!(default_of(&with, found[1].1), Some(&Value::Str("x".into())));
    }
}
