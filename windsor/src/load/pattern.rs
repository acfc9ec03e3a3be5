//! The schema's `pattern` keywords, each compiled the first time a value
//! reaches it.
//!
//! Measured on windsor-core-v0.7.0's schema (58 KB, 28 patterns; release
//! build): compiling it with every pattern took 3.0–3.5 ms, without them
//! 1.1–1.3 ms — most of a `bpvm render`'s extra time over its 6.6 ms load.
//! A context's values reach a few of the patterns, so each is compiled
//! when first needed, by the JSON Schema crate itself (the same regular
//! expression dialect and the same message as when it compiles them all).

use jsonschema::{Keyword, ValidationError};
use serde_json::{Map, Value, json};
use std::sync::OnceLock;

/// One `pattern` keyword of the schema, compiled on first use.
pub(super) struct Deferred {
    /// The keyword alone, as a schema: `{"pattern": "…"}`.
    schema: Value,
    compiled: OnceLock<Result<jsonschema::Validator, String>>,
}

/// The keyword factory `jsonschema::options().with_keyword("pattern", …)`
/// takes: every `pattern` of the schema becomes a [`Deferred`].
pub(super) fn deferred<'a>(
    _: &'a Map<String, Value>,
    pattern: &'a Value,
    _: jsonschema::paths::Location,
) -> Result<Box<dyn for<'i> Keyword<'i>>, ValidationError<'a>> {
    Ok(Box::new(Deferred {
        schema: json!({ "pattern": pattern }),
        compiled: OnceLock::new(),
    }))
}

impl Deferred {
    fn validator(&self) -> &Result<jsonschema::Validator, String> {
        self.compiled.get_or_init(|| {
            jsonschema::validator_for(&self.schema).map_err(|e| {
                format!(
                    "the schema's pattern {} is not a regular expression: {e}",
                    self.schema["pattern"]
                )
            })
        })
    }
}

impl<'i> Keyword<'i> for Deferred {
    fn validate(&self, instance: &'i Value) -> Result<(), ValidationError<'i>> {
        match self.validator() {
            Ok(v) => v.validate(instance).map_err(|e| ValidationError::custom(e.to_string())),
            Err(why) => Err(ValidationError::custom(why.clone())),
        }
    }

    fn is_valid(&self, instance: &'i Value) -> bool {
        self.validator().as_ref().is_ok_and(|v| v.is_valid(instance))
    }
}

/// The first `pattern` of `schema` that is not a regular expression: its
/// place in the schema and why (what `bpvm check` reports, where renders
/// find out only when a value reaches it).
pub(super) fn first_invalid(schema: &Value, steps: &mut Vec<String>) -> Option<String> {
    match schema {
        Value::Object(m) => {
            if let Some(p @ Value::String(_)) = m.get("pattern") {
                let keyword = json!({ "pattern": p });
                if let Err(e) = jsonschema::validator_for(&keyword) {
                    steps.push("pattern".into());
                    return Some(format!("the pattern {p} is not a regular expression: {e}"));
                }
            }
            m.iter().find_map(|(k, v)| {
                steps.push(k.clone());
                let found = first_invalid(v, steps);
                if found.is_none() {
                    steps.pop();
                }
                found
            })
        }
        Value::Array(items) => items.iter().enumerate().find_map(|(i, v)| {
            steps.push(i.to_string());
            let found = first_invalid(v, steps);
            if found.is_none() {
                steps.pop();
            }
            found
        }),
        _ => None,
    }
}
