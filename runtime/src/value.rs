//! The document value model shared by YAML and JSON documents, environments
//! and results: maps keep document order and integers stay integers.

// The cycle value ↔ map is forced by the recursive type: a value may be
// a map, and a map holds values.
use crate::map::Map;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

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
