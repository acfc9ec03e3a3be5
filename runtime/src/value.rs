//! The document value model shared by YAML and JSON documents, environments
//! and results: maps keep document order and integers stay integers.

use crate::map::Map;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use std::fmt;

/// A document value.
///
/// ```
/// use bpvm_runtime::Value;
/// let v = Value::from_yaml("a: 1\nb: [x, 2.5]\n").unwrap();
/// assert_eq!(v.to_json(), r#"{"a":1,"b":["x",2.5]}"#);
/// ```
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// `nil` in the Windsor dialect, `none` in the Bluelink dialect, YAML/JSON `null`.
    #[default]
    Null,
    /// A boolean.
    Bool(bool),
    /// A 64-bit signed integer.
    Int(i64),
    /// A 64-bit float.
    Float(f64),
    /// UTF-8 text.
    Str(std::sync::Arc<str>),
    /// Raw bytes (Bluelink `file()`, `base64decode()`); printed as UTF-8 text.
    Bytes(Box<[u8]>),
    /// A list.
    List(Vec<Value>),
    /// An insertion-ordered map.
    Map(Map),
}

impl Value {
    /// Parses one YAML document with YAML 1.2 core-schema scalars: only
    /// `true`/`false` are booleans (`yes`, `on`, `n` stay strings) and
    /// `010` is the integer 10, not octal.
    pub fn from_yaml(text: &str) -> Result<Value, String> {
        let mut options = serde_saphyr::Options::default();
        options.strict_booleans = true;
        options.legacy_octal_numbers = false;
        serde_saphyr::from_str_with_options::<Value>(text, options).map_err(|e| e.to_string())
    }

    /// Parses one JSON document.
    pub fn from_json(text: &str) -> Result<Value, String> {
        serde_json::from_str::<Value>(text).map_err(|e| e.to_string())
    }

    /// Prints as compact JSON (bytes as UTF-8 text, non-finite floats as `null`).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "null".into())
    }

    /// The type name used in error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "nil",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::List(_) => "list",
            Value::Map(_) => "map",
        }
    }

    /// The map inside, if this is a map.
    pub fn as_map(&self) -> Option<&Map> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The text inside, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl PartialEq for Value {
    /// Structural equality; an integer equals a float of the same value.
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a == b,
            (Value::Int(a), Value::Float(b)) | (Value::Float(b), Value::Int(a)) => (*a as f64) == *b,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Bytes(a), Value::Bytes(b)) => a == b,
            (Value::List(a), Value::List(b)) => a == b,
            (Value::Map(a), Value::Map(b)) => a == b,
            _ => false,
        }
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.into())
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => s.serialize_i64(*i),
            Value::Float(f) => s.serialize_f64(*f),
            Value::Str(t) => s.serialize_str(t),
            Value::Bytes(b) => s.serialize_str(&String::from_utf8_lossy(b)),
            Value::List(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Map(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m.iter() {
                    map.serialize_entry(k.as_str(), v)?;
                }
                map.end()
            }
        }
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
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
        Value::deserialize(d)
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
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Value::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = access.next_key::<Value>()? {
            let key = match key {
                Value::Str(s) => s.to_string(),
                Value::Null => "null".to_string(),
                other => crate::text::to_text(&other),
            };
            let value = access.next_value::<Value>()?;
            map.insert(key.as_str(), value);
        }
        Ok(Value::Map(map))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_keeps_order_and_int_types() {
        let v = Value::from_yaml("z: 1\na: 2.0\nm: {q: true, b: null}\n").unwrap();
        assert_eq!(v.to_json(), r#"{"z":1,"a":2.0,"m":{"q":true,"b":null}}"#);
    }

    #[test]
    fn yaml_1_1_booleans_stay_strings() {
        let v = Value::from_yaml("n: 1\nmode: on\nok: yes\nb: true\n").unwrap();
        assert_eq!(v.to_json(), r#"{"n":1,"mode":"on","ok":"yes","b":true}"#);
    }

    #[test]
    fn json_keeps_order() {
        let v = Value::from_json(r#"{"b": [1, "x"], "a": {"d": 1, "c": 2}}"#).unwrap();
        assert_eq!(v.to_json(), r#"{"b":[1,"x"],"a":{"d":1,"c":2}}"#);
    }

    #[test]
    fn int_equals_float_of_same_value() {
        assert_eq!(Value::Int(2), Value::Float(2.0));
        assert_ne!(Value::Int(2), Value::Str("2".into()));
    }
}
