//! A blueprint document as written: every value with the line and column
//! it starts at, mapping entries in document order.

use crate::error::Pos;
use bpvm_runtime::{Key, Map, Value};

/// A value and where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Where the value starts.
    pub at: Pos,
    /// The value.
    pub kind: Kind,
}

/// What a [`Node`] holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// A scalar, typed by the YAML 1.2 core schema (a quoted scalar is
    /// always text).
    Scalar(Value),
    /// A sequence.
    List(Vec<Node>),
    /// A mapping, in document order.
    Map(Vec<Entry>),
}

/// A mapping entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key's text.
    pub key: KeyText,
    /// Where the key starts.
    pub key_at: Pos,
    /// The value.
    pub value: Node,
}

/// A mapping key's text: a [`Key`] shared with every key written alike
/// (one text, hashed once), read as a `&str`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct KeyText(pub(crate) Key);

impl KeyText {
    /// The text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// The shared key.
    pub fn key(&self) -> &Key {
        &self.0
    }
}

impl From<&str> for KeyText {
    fn from(text: &str) -> KeyText {
        KeyText(Key::new(text))
    }
}

impl std::ops::Deref for KeyText {
    type Target = str;

    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Debug for KeyText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for KeyText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Node {
    /// The text of a string scalar.
    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar(Value::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// A mapping's entries.
    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.kind {
            Kind::Map(e) => Some(e),
            _ => None,
        }
    }

    /// The entry `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entries()?.iter().find(|e| e.key.as_str() == key).map(|e| &e.value)
    }

    /// What the node is, for messages: "a string", "a mapping".
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            Kind::Scalar(Value::Null) => "null",
            Kind::Scalar(Value::Bool(_)) => "a boolean",
            Kind::Scalar(Value::Int(_)) => "an integer",
            Kind::Scalar(Value::Float(_)) => "a float",
            Kind::Scalar(_) => "a string",
            Kind::List(_) => "an array",
            Kind::Map(_) => "a mapping",
        }
    }

    /// The plain value, positions dropped.
    pub fn to_value(&self) -> Value {
        match &self.kind {
            Kind::Scalar(v) => v.clone(),
            Kind::List(items) => Value::List(items.iter().map(Node::to_value).collect()),
            Kind::Map(entries) => {
                let mut m = Map::new();
                for e in entries {
                    m.insert(e.key.key().clone(), e.value.to_value());
                }
                Value::Map(m)
            }
        }
    }
}
