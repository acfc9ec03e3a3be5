//! JSON documents read into values through serde, nested no deeper than
//! [`VALUE_DEPTH`] levels, no key given twice.

use super::place::TOO_DEEP;
use crate::bounds::limits::VALUE_DEPTH;
use crate::map::Map;
use crate::report::excerpt;
use crate::value::Value;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

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
