//! The template's `schema.yaml` as the validator of context values
//! (`render`, `explain`, `graph`, `batch`, `test` and `check` all use it):
//! JSON Schema, read as draft 2020-12 as Windsor reads every schema, and
//! walked keyword by keyword as written, nothing compiled beforehand but
//! the patterns a value reaches (`pattern.rs`).
//!
//! Measured on windsor-core-v0.7.0 (a one-shot `bpvm render` of one
//! context, instructions counted by cachegrind): compiling its 58 KB
//! schema with the JSON Schema crate cost 10.3 M of the render's 58 M
//! instructions — 5.7 M of it checking the schema against the draft's
//! meta-schema, which the crate does on every compile — and 5 MiB of peak
//! memory; walking a context's values takes microseconds. The form check
//! (`form.rs`) and the JSON Schema Test Suite's cases
//! (`tests/schema/`) stand in for what the crate gave.

mod applicators;
mod arrays;
mod form;
mod json;
mod node;
mod objects;
mod pattern;
mod refs;
mod scalars;
mod violation;
mod walk;

use bpvm_runtime::Value;
pub use refs::resolve as resolve_reference;
use std::sync::{Arc, OnceLock};
pub use violation::Violation;

/// A schema ready to check values with: the schema (its form checked),
/// its defaults, and the patterns compiled as values reach them.
pub struct Checker {
    schema: Value,
    defaults: Value,
    patterns: pattern::Patterns,
}

impl Checker {
    /// The checker of `schema`, whose defaults are `defaults`, or where
    /// and why it is not a JSON Schema.
    pub fn new(schema: &Value, defaults: &Value) -> Result<Checker, Violation> {
        if let Some((steps, why)) = form::first_malformed(schema) {
            let place = if steps.is_empty() {
                "the schema".to_string()
            } else {
                yaml_path(&steps)
            };
            return Err(Violation {
                message: format!("{place}: {why}"),
                steps,
                suggestion: None,
                unknown_key: false,
            });
        }
        Ok(Checker {
            schema: schema.clone(),
            defaults: defaults.clone(),
            patterns: pattern::Patterns::default(),
        })
    }

    /// Where `schema` has a regular expression that is none, and why: a
    /// checker finds out only when a value reaches it.
    pub fn invalid_pattern(schema: &Value) -> Option<Violation> {
        let mut steps = Vec::new();
        let why = pattern::first_invalid(schema, &mut steps)?;
        Some(Violation {
            message: format!("{}: {why}", yaml_path(&steps)),
            steps,
            suggestion: None,
            unknown_key: false,
        })
    }

    /// Every violation of `given` (each over the one before it), as a
    /// render sees the values: over the schema's defaults.
    pub fn check(&self, given: &[&Value]) -> Vec<Violation> {
        let mut effective = self.defaults.clone();
        // As Windsor merges a context over the defaults: maps key by key,
        // the given value wins anything else.
        for values in given {
            crate::blueprint::merge::deep_merge(&mut effective, (*values).clone());
        }
        self.violations(&effective)
    }

    /// Every violation of `values` as they are.
    pub fn violations(&self, values: &Value) -> Vec<Violation> {
        let mut walk = walk::Walk::new(&self.schema, &self.patterns);
        walk.node(&self.schema, values);
        let mut out: Vec<Violation> = Vec::with_capacity(walk.out.len());
        // Branches of an `allOf` can say the same thing twice.
        for v in walk.out {
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out
    }
}

/// A project's schema, compiled while the project loads (on a second
/// thread) or else the first time a context's values are checked, and the
/// defaults it gives: both shared by every render of the project (and its
/// clones).
#[derive(Clone, Default)]
pub struct Compiled(Arc<Cache>);

#[derive(Default)]
struct Cache {
    defaults: OnceLock<Value>,
    checker: OnceLock<Result<Checker, Violation>>,
}

impl Compiled {
    /// The defaults `schema` gives.
    pub fn defaults(&self, schema: &Value) -> &Value {
        self.0.defaults.get_or_init(|| defaults(schema))
    }

    /// The checker of `schema` (with the defaults it gives), made the
    /// first time it is asked for.
    pub fn get(&self, schema: &Value) -> &Result<Checker, Violation> {
        self.0
            .checker
            .get_or_init(|| Checker::new(schema, self.defaults(schema)))
    }
}

/// The defaults a JSON schema declares, recursively: a property's
/// `default`, with the defaults of its own properties merged over it.
///
/// ```
/// use bpvm_runtime::Value;
/// use bpvm_windsor::schema_defaults;
/// let schema = Value::from_yaml("properties: {dev: {default: false}, vm: {type: object, properties: {cpu: {default: 2}}}}").unwrap();
/// assert_eq!(schema_defaults(&schema).to_json(), r#"{"dev":false,"vm":{"cpu":2}}"#);
/// ```
pub fn defaults(schema: &Value) -> Value {
    let mut out = bpvm_runtime::Map::new();
    let props = schema
        .as_map()
        .and_then(|m| m.get("properties"))
        .and_then(Value::as_map);
    for (name, prop) in props.into_iter().flat_map(|p| p.iter()) {
        let Some(p) = prop.as_map() else { continue };
        let mut value = p.get("default").cloned();
        if p.contains_key("properties") {
            let nested = defaults(prop);
            if nested.as_map().is_some_and(|m| !m.is_empty()) {
                match &mut value {
                    Some(v @ Value::Map(_)) => crate::blueprint::merge::deep_merge(v, nested),
                    _ => value = Some(nested),
                }
            }
        }
        if let Some(v) = value {
            out.insert(name.clone(), v);
        }
    }
    Value::Map(out)
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.0.checker.get() {
            None => "not yet",
            Some(Ok(_)) => "compiled",
            Some(Err(_)) => "not a JSON Schema",
        };
        write!(f, "Compiled({state})")
    }
}

/// Steps as a YAML path (`cluster.workers[0]`).
pub fn yaml_path(steps: &[String]) -> String {
    let mut out = String::new();
    for seg in steps {
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(seg);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaml(text: &str) -> Value {
        Value::from_yaml(text).unwrap()
    }

    #[test]
    fn pointers_become_yaml_paths() {
        let path = |steps: &[&str]| yaml_path(&steps.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(path(&[]), "");
        assert_eq!(path(&["cluster", "workers", "0", "name"]), "cluster.workers[0].name");
        assert_eq!(path(&["a/b"]), "a/b");
    }

    #[test]
    fn unknown_keys_and_enums_have_suggestions() {
        let schema = yaml(
            "type: object\nadditionalProperties: false\nproperties:\n  \
               platform: {enum: [aws, docker], default: docker}\n  \
               gitops: {type: object, additionalProperties: false, properties: {mode: {enum: [pull, push]}}}\n",
        );
        let checker = Checker::new(&schema, &yaml("platform: docker")).unwrap();
        let found = checker.check(&[&yaml("platfrom: aws\ngitops: {mdoe: x}"), &yaml("gitops: {mode: pul}")]);
        let shown: Vec<(String, &str, Option<&str>)> = found
            .iter()
            .map(|v| (yaml_path(&v.steps), v.message.as_str(), v.suggestion.as_deref()))
            .collect();
        assert!(shown.contains(&(
            "platfrom".into(),
            "the schema allows no property \"platfrom\" here",
            Some("\"platform\"")
        )));
        assert!(shown.contains(&(
            "gitops.mdoe".into(),
            "the schema allows no property \"mdoe\" here",
            Some("\"mode\"")
        )));
        assert!(shown.contains(&(
            "gitops.mode".into(),
            "\"pul\" is not one of \"pull\" or \"push\"",
            Some("\"pull\"")
        )));
        assert_eq!(found.len(), 3);
    }

    #[test]
    fn a_pattern_is_compiled_when_a_value_reaches_it_and_says_what_it_wants() {
        let schema = yaml(
            "type: object\nproperties:\n  name: {type: string, pattern: '^[a-z]+$'}\n  \
               other: {type: string, pattern: '(unclosed'}\n",
        );
        let checker = Checker::new(&schema, &yaml("{}")).unwrap();
        assert!(checker.check(&[&yaml("name: abc")]).is_empty());
        let found = checker.check(&[&yaml("name: Abc")]);
        let shown: Vec<(String, &str)> = found
            .iter()
            .map(|v| (yaml_path(&v.steps), v.message.as_str()))
            .collect();
        assert_eq!(shown, [("name".to_string(), "\"Abc\" does not match \"^[a-z]+$\"")]);
        // A pattern no value reaches costs nothing, even one that is no
        // regular expression; the first value that reaches it says so.
        let found = checker.check(&[&yaml("other: x")]);
        assert_eq!(found.len(), 1);
        assert!(
            found[0]
                .message
                .starts_with("the schema's pattern \"(unclosed\" is not a regular expression"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn a_schema_that_is_not_one_says_where() {
        let schema = yaml("type: object\nproperties: {a: {type: 12}}\n");
        let Err(v) = Checker::new(&schema, &yaml("{}")) else {
            panic!("compiled")
        };
        assert!(v.message.starts_with("properties.a.type: "), "{}", v.message);
    }
}
