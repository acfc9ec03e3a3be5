//! The schema's regular expressions (`pattern`, `patternProperties`),
//! read as Windsor's validator reads them — Go regular expressions (RE2
//! syntax: no look-around or back-references; `\d`, `\w`, `\s` and `\b`
//! are ASCII) — each compiled the first time a value reaches it.
//!
//! Measured on windsor-core-v0.7.0's schema (44 patterns, release build,
//! one run): compiling all of them took 0.48 ms with `regex-lite`, 6.8 ms
//! with `regex` and 3.9–7.3 ms as the JSON Schema crate compiled them
//! (ECMA-262, through `fancy-regex`); a render reaches a handful of them,
//! once per process. `regex-lite` has Go's ASCII classes; a pattern with a
//! Unicode class (`\p{…}`), which it lacks, is compiled by `regex`.

use super::form::under;
use bpvm_runtime::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// A compiled pattern.
pub(super) enum Matcher {
    Ascii(regex_lite::Regex),
    Unicode(regex::Regex),
}

impl Matcher {
    pub(super) fn is_match(&self, text: &str) -> bool {
        match self {
            Matcher::Ascii(re) => re.is_match(text),
            Matcher::Unicode(re) => re.is_match(text),
        }
    }
}

/// `pattern` compiled, or why it is not a regular expression.
pub(super) fn compile(pattern: &str) -> Result<Matcher, String> {
    if pattern.contains("\\p") || pattern.contains("\\P") {
        return regex::Regex::new(pattern)
            .map(Matcher::Unicode)
            .map_err(|e| reason(&e.to_string()));
    }
    regex_lite::Regex::new(pattern)
        .map(Matcher::Ascii)
        .map_err(|e| reason(&e.to_string()))
}

/// The regex crates' errors draw the pattern over several lines; the
/// message names the pattern already, so only the reason is kept.
fn reason(error: &str) -> String {
    let last = error.lines().rev().find(|l| !l.trim().is_empty());
    last.unwrap_or(error).trim().trim_start_matches("error: ").to_string()
}

/// The patterns compiled so far, by their text (shared by every thread
/// that checks values with the same schema).
#[derive(Default)]
pub(super) struct Patterns(Mutex<HashMap<String, Arc<Result<Matcher, String>>>>);

impl Patterns {
    /// `pattern` compiled (the first time it is asked for).
    pub(super) fn get(&self, pattern: &str) -> Arc<Result<Matcher, String>> {
        let mut known = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(found) = known.get(pattern) {
            return found.clone();
        }
        let compiled = Arc::new(compile(pattern));
        known.insert(pattern.to_string(), compiled.clone());
        compiled
    }
}

/// The first regular expression of `schema` that is not one: its place
/// in the schema and why (what `bpvm check` reports, where renders find
/// out only when a value reaches it).
pub(super) fn first_invalid(schema: &Value, steps: &mut Vec<String>) -> Option<String> {
    match schema {
        Value::Map(m) => {
            if let Some(Value::Str(p)) = m.get("pattern")
                && let Err(why) = compile(p)
            {
                steps.push("pattern".into());
                return Some(format!("the pattern {:?} is not a regular expression: {why}", &**p));
            }
            if let Some(Value::Map(props)) = m.get("patternProperties") {
                for key in props.keys() {
                    if let Err(why) = compile(key.as_str()) {
                        steps.extend(["patternProperties".to_string(), key.as_str().to_string()]);
                        return Some(format!(
                            "the pattern {:?} is not a regular expression: {why}",
                            key.as_str()
                        ));
                    }
                }
            }
            m.iter()
                .find_map(|(k, v)| under(steps, k.as_str(), |steps| first_invalid(v, steps)))
        }
        Value::List(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| under(steps, &i.to_string(), |steps| first_invalid(v, steps))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        compile(pattern).unwrap().is_match(text)
    }

    #[test]
    fn classes_are_ascii_as_in_go() {
        assert!(matches(r"^\d+$", "123"));
        assert!(!matches(r"^\d+$", "١٢٣"));
        assert!(!matches(r"^\w+$", "straße"));
        assert!(matches(r"^.{6}$", "straße"));
    }

    #[test]
    fn a_unicode_class_is_read() {
        assert!(matches(r"^\p{Greek}+$", "αβγ"));
        assert!(!matches(r"^\p{Greek}+$", "abc"));
    }

    #[test]
    fn what_go_refuses_is_no_regular_expression() {
        for pattern in ["(?=a)b", r"(a)\1", "(unclosed", "a{2,1}"] {
            assert!(compile(pattern).is_err(), "{pattern}");
        }
        let why = compile("(unclosed").err().unwrap();
        assert!(!why.contains('\n') && !why.is_empty(), "{why}");
    }

    #[test]
    fn the_first_pattern_that_is_none_is_found_with_its_place() {
        let schema = Value::from_yaml("properties: {a: {pattern: '^ok$'}, b: {items: [{pattern: '(x'}]}}").unwrap();
        let mut steps = Vec::new();
        let why = first_invalid(&schema, &mut steps).unwrap();
        assert_eq!(steps, ["properties", "b", "items", "0", "pattern"]);
        assert!(
            why.starts_with("the pattern \"(x\" is not a regular expression: "),
            "{why}"
        );
    }

    #[test]
    fn a_pattern_is_compiled_once() {
        let patterns = Patterns::default();
        let a = patterns.get("^a+$");
        let b = patterns.get("^a+$");
        assert!(Arc::ptr_eq(&a, &b));
    }
}
