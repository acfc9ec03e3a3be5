//! `options_json`: the flags of `bpvm render`, as one JSON object whose
//! keys are the long flag names in snake_case.

use bpvm::Value;
use bpvm::runtime::Map;
use bpvm::runtime::suggest::closest;

/// The options of one call: a JSON object checked against the keys its
/// render knows.
pub struct Options {
    map: Map,
}

impl Options {
    /// Parses `json` (None or an empty text: no options) and checks every
    /// key is one of `known`.
    pub fn parse(json: Option<&str>, known: &[&str]) -> Result<Options, String> {
        let text = json.unwrap_or("").trim();
        if text.is_empty() {
            return Ok(Options { map: Map::default() });
        }
        let map = match Value::from_json(text) {
            Ok(Value::Map(map)) => map,
            Ok(other) => {
                return Err(format!(
                    "error: options_json must be a JSON object, got {}",
                    other.type_name()
                ));
            }
            Err(e) => return Err(format!("error: options_json: {e}")),
        };
        for (key, _) in map.iter() {
            let key = key.as_str();
            if !known.contains(&key) {
                let hint = match closest(key, known) {
                    Some(k) => format!(" (did you mean {k:?}?)"),
                    None => String::new(),
                };
                return Err(format!(
                    "error: options_json: unknown key {key:?}{hint}; the keys are {}",
                    known.join(", ")
                ));
            }
        }
        Ok(Options { map })
    }

    /// The value of `key`, when given and not null.
    fn get(&self, key: &str) -> Option<&Value> {
        self.map.get(key).filter(|v| !matches!(v, Value::Null))
    }

    /// `key`'s error: it must be `what`.
    fn wrong(key: &str, what: &str, got: &Value) -> String {
        format!("error: options_json: {key:?} must be {what}, got {}", got.type_name())
    }

    /// Whether `key` is given (and not null): an empty list given turns
    /// a list on, where leaving the key out does not.
    pub fn given(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// A text option.
    pub fn text(&self, key: &str) -> Result<Option<String>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Str(s)) => Ok(Some(s.to_string())),
            Some(other) => Err(Options::wrong(key, "a string", other)),
        }
    }

    /// A repeatable option: a list of texts, or one text.
    pub fn texts(&self, key: &str) -> Result<Vec<String>, String> {
        match self.get(key) {
            None => Ok(Vec::new()),
            Some(Value::Str(s)) => Ok(vec![s.to_string()]),
            Some(Value::List(items)) => items
                .iter()
                .map(|v| match v {
                    Value::Str(s) => Ok(s.to_string()),
                    other => Err(Options::wrong(key, "a list of strings", other)),
                })
                .collect(),
            Some(other) => Err(Options::wrong(key, "a list of strings", other)),
        }
    }

    /// A switch: absent is false.
    pub fn switch(&self, key: &str) -> Result<bool, String> {
        match self.get(key) {
            None => Ok(false),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(Options::wrong(key, "true or false", other)),
        }
    }

    /// A non-negative integer option.
    pub fn count(&self, key: &str) -> Result<Option<u64>, String> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::Int(n)) if *n >= 0 => Ok(Some(*n as u64)),
            Some(other) => Err(Options::wrong(key, "a non-negative integer", other)),
        }
    }

    /// An option that is one of `choices` (the first is the default).
    pub fn choice<'c>(&self, key: &str, choices: &[&'c str]) -> Result<&'c str, String> {
        match self.text(key)? {
            None => Ok(choices[0]),
            Some(s) => choices.iter().find(|c| **c == s).copied().ok_or_else(|| {
                let list: Vec<String> = choices.iter().map(|c| format!("{c:?}")).collect();
                format!(
                    "error: options_json: {key:?} must be one of {}, got {s:?}",
                    list.join(", ")
                )
            }),
        }
    }
}

/// The output formats, as `-o/--output`.
pub const OUTPUTS: &[&str] = &["yaml", "json"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn none_null_and_empty_are_no_options() {
        for json in [None, Some(""), Some("{}")] {
            let o = Options::parse(json, &["output"]).unwrap();
            assert_eq!(o.choice("output", OUTPUTS), Ok("yaml"));
        }
    }

    #[test]
    fn an_unknown_key_is_named_with_its_likely_meaning() {
        let e = Options::parse(Some(r#"{"ouptut": "json"}"#), &["output", "seed"])
            .err()
            .unwrap();
        assert_eq!(
            e,
            "error: options_json: unknown key \"ouptut\" (did you mean \"output\"?); the keys are output, seed"
        );
    }

    #[test]
    fn kinds_are_checked() {
        let o = Options::parse(
            Some(r#"{"seed": -1, "var": ["a=1", 2], "output": "xml"}"#),
            &["seed", "var", "output"],
        )
        .unwrap();
        assert!(o.count("seed").is_err());
        assert!(o.texts("var").is_err());
        assert_eq!(
            o.choice("output", OUTPUTS),
            Err("error: options_json: \"output\" must be one of \"yaml\", \"json\", got \"xml\"".into())
        );
        assert!(Options::parse(Some("[1]"), &[]).is_err());
        assert!(Options::parse(Some("{"), &[]).is_err());
    }
}
