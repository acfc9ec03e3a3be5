//! [`Value::from_yaml`] and [`Value::from_json`]: a document's text read
//! into a value, or an error as `line:column: message`.

use super::Typing;
use super::build::Builder;
use super::events::events;
use super::place::{self, TOO_DEEP};
use crate::value::Value;

impl Value {
    /// Parses one YAML document with YAML 1.2 core-schema scalars: only
    /// `true`/`false` are booleans (`yes`, `on`, `n` stay strings) and
    /// `010` is 10 (read as a float, as bpvm always has), not octal.
    /// Anchors, aliases and merge keys (`<<`) are honoured; an alias counts
    /// the values it repeats towards the limit of values in a document.
    ///
    /// ```
    /// use bpvm_runtime::Value;
    /// let deep = format!("{}1{}", "[".repeat(65), "]".repeat(65));
    /// assert_eq!(Value::from_yaml(&deep).unwrap_err(), "1:65: document nested too deeply (more than 64 levels)");
    /// ```
    pub fn from_yaml(text: &str) -> Result<Value, String> {
        read_yaml(text, MAX_NODES, Typing::Core)
    }

    /// [`Value::from_yaml`] with plain scalars typed by `typing`: Windsor's
    /// files are read as its YAML library reads them.
    ///
    /// ```
    /// use bpvm_runtime::{Typing, Value};
    /// let v = Value::from_yaml_as("mode: 0644\nsize: 1_000\nexp: 1e3\n", Typing::GoYaml).unwrap();
    /// assert_eq!(v.to_json(), r#"{"mode":420,"size":1000,"exp":"1e3"}"#);
    /// ```
    pub fn from_yaml_as(text: &str, typing: Typing) -> Result<Value, String> {
        read_yaml(text, MAX_NODES, typing)
    }

    /// Parses one JSON document.
    ///
    /// ```
    /// use bpvm_runtime::Value;
    /// let deep = format!("{}1{}", "[".repeat(65), "]".repeat(65));
    /// assert_eq!(Value::from_json(&deep).unwrap_err(), "1:65: document nested too deeply (more than 64 levels)");
    /// ```
    pub fn from_json(text: &str) -> Result<Value, String> {
        let v = serde_json::from_str::<Value>(text).map_err(|e| {
            // serde_json ends its messages with " at line L column C".
            let message = e.to_string();
            let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m);
            if message.contains(TOO_DEEP) {
                return too_deep(e.line() as u64, e.column() as u64);
            }
            format!("{}:{}: {message}", e.line(), e.column())
        })?;
        // JSON has no aliases: its values are bounded by its text, but
        // many documents still add up in one render.
        crate::bounds::govern::add_values(count(&v)).map_err(|m| format!("1:1: {m}"))?;
        Ok(v)
    }
}

/// The values in `v`, itself included, counted without recursion.
fn count(v: &Value) -> usize {
    let mut n = 0usize;
    let mut open = vec![v];
    while let Some(v) = open.pop() {
        n += 1;
        match v {
            Value::List(items) => open.extend(items.iter()),
            Value::Map(m) => open.extend(m.iter().map(|(_, x)| x)),
            _ => {}
        }
    }
    n
}

/// [`Value::from_yaml`] with at most `max_nodes` values.
fn read_yaml(text: &str, max_nodes: usize, typing: Typing) -> Result<Value, String> {
    // Byte order marks before the document are no part of it.
    let text = text.trim_start_matches('\u{feff}');
    let mut b = Builder::new(text, max_nodes, typing);
    for next in events(text) {
        let (event, span) = next.map_err(|e| b.scan_words(&e))?;
        b.event(event, &span).map_err(|e| e.to_string())?;
    }
    Ok(b.finish())
}

/// How many values one document may hold. Files are at most 64 MiB (the
/// file-access layer); this bounds the values built from one, aliases
/// expanded, well past any real document.
pub const MAX_NODES: usize = 4 << 20;

fn too_deep(line: u64, column: u64) -> String {
    place::too_deep(line as usize, column as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::limits::VALUE_DEPTH;

    fn nested(n: usize) -> String {
        format!("{}1{}", "[".repeat(n), "]".repeat(n))
    }

    #[test]
    fn both_readers_refuse_a_key_given_twice_in_the_same_words() {
        assert_eq!(
            Value::from_yaml("a: 1\na: 2\n").unwrap_err(),
            "2:1: duplicate key \"a\""
        );
        assert_eq!(
            Value::from_json("{\"a\": 1, \"a\": 2}").unwrap_err(),
            "1:12: duplicate key \"a\""
        );
    }

    #[test]
    fn reader_errors_are_in_bpvms_words() {
        assert_eq!(Value::from_yaml("a: [1, 2\n").unwrap_err(), "1:4: unclosed bracket '['");
        assert_eq!(
            Value::from_yaml("a: *x\n").unwrap_err(),
            "1:4: alias references unknown anchor"
        );
        assert_eq!(
            Value::from_yaml("a: .inf\n").unwrap_err(),
            "1:4: .inf is not a finite number (numbers stay finite)"
        );
        assert_eq!(
            Value::from_json("[1,\n 2").unwrap_err(),
            "2:2: EOF while parsing a list"
        );
        assert_eq!(
            read_yaml("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", 8, Typing::Core).unwrap_err(),
            "1:23: the document holds more than 8 values"
        );
    }

    #[test]
    fn an_alias_counts_the_values_it_repeats() {
        assert_eq!(
            read_yaml("a: &a [1, 2, 3]\nb: [*a, *a]\n", 8, Typing::Core).unwrap_err(),
            "2:5: the document holds more than 8 values (an alias counts the values it repeats)"
        );
        assert!(read_yaml("a: &a [1, 2, 3]\nb: [*a, *a]\n", 16, Typing::Core).is_ok());
    }

    #[test]
    fn aliases_and_merge_keys_read() {
        let v = Value::from_yaml("base: &b {x: 1, y: 2}\nc:\n  <<: *b\n  y: 3\nd: *b\n").unwrap();
        assert_eq!(
            v.to_json(),
            r#"{"base":{"x":1,"y":2},"c":{"y":3,"x":1},"d":{"x":1,"y":2}}"#
        );
    }

    #[test]
    fn the_deepest_document_allowed_reads() {
        assert!(Value::from_yaml(&nested(VALUE_DEPTH)).is_ok());
        assert!(Value::from_json(&nested(VALUE_DEPTH)).is_ok());
    }

    #[test]
    fn a_block_document_too_deep_names_the_limit_and_where() {
        let text: String = (0..100).map(|i| format!("{}k:\n", "  ".repeat(i))).collect();
        assert_eq!(
            Value::from_yaml(&text).unwrap_err(),
            "65:129: document nested too deeply (more than 64 levels)"
        );
    }
}
