//! Reading YAML and JSON documents into values, nested no deeper than
//! [`VALUE_DEPTH`] levels: reading, printing, comparing and dropping a
//! value all recurse once per level.

use crate::excerpt;
use crate::limits::VALUE_DEPTH;
use crate::map::Map;
use crate::value::Value;
use crate::yaml::{self, TOO_DEEP};
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

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
        read_yaml(text, MAX_NODES)
    }

    /// Parses one JSON document.
    ///
    /// ```
    /// use bpvm_runtime::Value;
    /// let deep = format!("{}1{}", "[".repeat(65), "]".repeat(65));
    /// assert_eq!(Value::from_json(&deep).unwrap_err(), "1:65: document nested too deeply (more than 64 levels)");
    /// ```
    pub fn from_json(text: &str) -> Result<Value, String> {
        serde_json::from_str::<Value>(text).map_err(|e| {
            // serde_json ends its messages with " at line L column C".
            let message = e.to_string();
            let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m);
            if message.contains(TOO_DEEP) {
                return too_deep(e.line() as u64, e.column() as u64);
            }
            format!("{}:{}: {message}", e.line(), e.column())
        })
    }
}

/// [`Value::from_yaml`] with at most `max_nodes` values.
fn read_yaml(text: &str, max_nodes: usize) -> Result<Value, String> {
    yaml::read(text, max_nodes)
}

/// How many values one document may hold. Files are at most 64 MiB (the
/// file-access layer); this bounds the values built from one, aliases
/// expanded, well past any real document.
pub const MAX_NODES: usize = 4 << 20;

fn too_deep(line: u64, column: u64) -> String {
    yaml::too_deep(line as usize, column as usize)
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        Nested(0).deserialize(d)
    }
}

/// A value inside this many lists and maps.
#[derive(Clone, Copy)]
struct Nested(usize);

impl Nested {
    /// The list or map about to be read, one level down; an error past
    /// the limit, before the reader goes any deeper.
    fn inner<E: de::Error>(self) -> Result<Nested, E> {
        if self.0 >= VALUE_DEPTH {
            return Err(E::custom(format!("{TOO_DEEP} (more than {VALUE_DEPTH} levels)")));
        }
        Ok(Nested(self.0 + 1))
    }
}

impl<'de> DeserializeSeed<'de> for Nested {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Nested {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a YAML or JSON value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }
    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        i64::try_from(u).map(Value::Int).or(Ok(Value::Float(u as f64)))
    }
    fn visit_i128<E: de::Error>(self, i: i128) -> Result<Value, E> {
        i64::try_from(i).map(Value::Int).or(Ok(Value::Float(i as f64)))
    }
    fn visit_u128<E: de::Error>(self, u: u128) -> Result<Value, E> {
        i64::try_from(u).map(Value::Int).or(Ok(Value::Float(u as f64)))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Value, E> {
        Ok(Value::Float(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::Str(s.into()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::Str(s.into()))
    }
    fn visit_bytes<E>(self, b: &[u8]) -> Result<Value, E> {
        Ok(Value::Bytes(b.into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element_seed(inner)? {
            items.push(item);
        }
        Ok(Value::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let inner = self.inner()?;
        let mut map = Map::new();
        while let Some(key) = access.next_key_seed(inner)? {
            let key = match key {
                Value::Str(s) => s.to_string(),
                Value::Null => "null".to_string(),
                other => crate::text::to_text(&other),
            };
            if map.contains_key(key.as_str()) {
                // As YAML's reader does: the same key twice is a mistake
                // in JSON too, not "the last one wins".
                return Err(de::Error::custom(format!("duplicate key {:?}", excerpt::clip(&key))));
            }
            let value = access.next_value_seed(inner)?;
            map.insert(key.as_str(), value);
        }
        Ok(Value::Map(map))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            read_yaml("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", 8).unwrap_err(),
            "1:23: the document holds more than 8 values"
        );
    }

    #[test]
    fn an_alias_counts_the_values_it_repeats() {
        assert_eq!(
            read_yaml("a: &a [1, 2, 3]\nb: [*a, *a]\n", 8).unwrap_err(),
            "2:5: the document holds more than 8 values (an alias counts the values it repeats)"
        );
        assert!(read_yaml("a: &a [1, 2, 3]\nb: [*a, *a]\n", 16).is_ok());
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
