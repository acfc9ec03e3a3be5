//! The template's `schema.yaml` compiled once per loaded project, as the
//! validator of context values (`render`, `explain`, `graph`, `batch`,
//! `test` and `check` all use it).

use bpvm_runtime::Value;
use bpvm_runtime::suggest::closest;
use std::sync::{Arc, OnceLock};

/// One value the schema refuses.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// Where in the values: keys, and list indices as digits.
    pub steps: Vec<String>,
    /// What is wrong (without the place).
    pub message: String,
    /// The closest name the schema allows there, quoted (`"platform"`).
    pub suggestion: Option<String>,
    /// A key the schema does not allow (rather than a value it refuses).
    pub unknown_key: bool,
}

/// A schema ready to check values with: the validator and the schema's
/// defaults, both made once.
pub struct Checker {
    validator: jsonschema::Validator,
    defaults: serde_json::Value,
    schema: Value,
}

impl Checker {
    /// The checker of `schema`, whose defaults are `defaults`, or where
    /// and why it is not a JSON Schema.
    pub fn new(schema: &Value, defaults: &Value) -> Result<Checker, Violation> {
        let not_schema = |steps: Vec<String>, message: String| Violation {
            steps,
            message,
            suggestion: None,
            unknown_key: false,
        };
        let json = serde_json::to_value(schema).map_err(|e| not_schema(Vec::new(), e.to_string()))?;
        let options = jsonschema::options().with_keyword("pattern", super::pattern::deferred);
        let validator = options.build(&json).map_err(|e| {
            // Where in the schema, as the meta-schema sees it.
            let steps = steps(e.instance_path().as_str());
            let place = if steps.is_empty() {
                "the schema".to_string()
            } else {
                yaml_path(&steps)
            };
            not_schema(steps, format!("{place}: {e}"))
        })?;
        Ok(Checker {
            validator,
            defaults: serde_json::to_value(defaults).unwrap_or_default(),
            schema: schema.clone(),
        })
    }

    /// Where `schema` has a `pattern` that is no regular expression, and
    /// why: a checker finds out only when a value reaches it.
    pub fn invalid_pattern(schema: &Value) -> Option<Violation> {
        let json = serde_json::to_value(schema).ok()?;
        let mut steps = Vec::new();
        let why = super::pattern::first_invalid(&json, &mut steps)?;
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
        for values in given {
            if let Ok(v) = serde_json::to_value(values) {
                merge(&mut effective, v);
            }
        }
        // The common case, without collecting errors.
        if self.validator.is_valid(&effective) {
            return Vec::new();
        }
        let mut out: Vec<Violation> = Vec::new();
        for e in self.validator.iter_errors(&effective) {
            let inner = steps(e.instance_path().as_str());
            let found = match e.kind() {
                // A key the schema does not allow is reported at the key.
                jsonschema::error::ValidationErrorKind::AdditionalProperties { unexpected } => {
                    let known = self.properties_beside(e.schema_path().as_str());
                    let known: Vec<&str> = known.iter().map(String::as_str).collect();
                    unexpected
                        .iter()
                        .map(|key| Violation {
                            steps: inner.iter().cloned().chain([key.clone()]).collect(),
                            message: format!("the schema allows no property {key:?} here"),
                            suggestion: closest(key, &known).map(|k| format!("{k:?}")),
                            unknown_key: true,
                        })
                        .collect()
                }
                jsonschema::error::ValidationErrorKind::Enum { options } => vec![Violation {
                    steps: inner,
                    message: e.to_string(),
                    suggestion: one_of(e.instance(), options),
                    unknown_key: false,
                }],
                _ => vec![Violation {
                    steps: inner,
                    message: e.to_string(),
                    suggestion: None,
                    unknown_key: false,
                }],
            };
            // Branches of an `allOf` can say the same thing twice.
            for v in found {
                if !out.contains(&v) {
                    out.push(v);
                }
            }
        }
        out
    }

    /// The property names of the schema that holds the keyword at
    /// `keyword` (a JSON pointer into the schema).
    fn properties_beside(&self, keyword: &str) -> Vec<String> {
        let mut path = steps(keyword);
        path.pop();
        let node = path.iter().try_fold(&self.schema, |v, step| match v {
            Value::Map(m) => m.get(step.as_str()),
            Value::List(l) => step.parse::<usize>().ok().and_then(|i| l.get(i)),
            _ => None,
        });
        node.and_then(Value::as_map)
            .and_then(|m| m.get("properties"))
            .and_then(Value::as_map)
            .map(|p| p.keys().map(|k| k.as_str().to_string()).collect())
            .unwrap_or_default()
    }
}

/// The option of an `enum` closest to the text `given`, quoted.
fn one_of(given: &serde_json::Value, options: &serde_json::Value) -> Option<String> {
    let given = given.as_str()?;
    let options: Vec<&str> = options.as_array()?.iter().filter_map(|o| o.as_str()).collect();
    closest(given, &options).map(|o| format!("{o:?}"))
}

/// A project's schema, compiled the first time a context's values are
/// checked, and the defaults it gives, worked out the first time a render
/// asks: both shared by every render of the project (and its clones).
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

/// Deep merge as Windsor merges a context over the schema's defaults:
/// maps key by key, the given value wins anything else.
fn merge(base: &mut serde_json::Value, given: serde_json::Value) {
    match (base, given) {
        (serde_json::Value::Object(b), serde_json::Value::Object(g)) => {
            for (k, v) in g {
                match b.get_mut(&k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (slot, g) => *slot = g,
    }
}

/// A JSON pointer's steps (`/cluster/workers/0` → `cluster`, `workers`, `0`).
pub fn steps(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
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
        assert_eq!(yaml_path(&steps("")), "");
        assert_eq!(yaml_path(&steps("/cluster/workers/0/name")), "cluster.workers[0].name");
        assert_eq!(yaml_path(&steps("/a~1b")), "a/b");
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
