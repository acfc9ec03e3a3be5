//! Reading the composed blueprint as Windsor's types decode it: string
//! fields, lists of strings and of maps, a terraform component's id.

use bpvm_runtime::{Map, Value, text};

/// A string field's text: absent and nil read as empty, other scalars as
/// their text (the way a string field of Windsor's types decodes them).
pub(super) fn text_of(v: Option<&Value>) -> String {
    match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::Str(s)) => s.to_string(),
        Some(v) => text::to_text(v),
    }
}

pub(super) fn field(m: &Map, key: &str) -> String {
    text_of(m.get(key))
}

/// A list-of-strings field's items (absent or not a list: none).
pub(super) fn strings(m: &Map, key: &str) -> Vec<String> {
    match m.get(key) {
        Some(Value::List(l)) => l.iter().map(|v| text_of(Some(v))).collect(),
        _ => Vec::new(),
    }
}

/// A list-of-maps field's items that are maps.
pub(super) fn items<'m>(m: &'m Map, key: &str) -> Vec<&'m Map> {
    match m.get(key) {
        Some(Value::List(l)) => l.iter().filter_map(Value::as_map).collect(),
        _ => Vec::new(),
    }
}

/// A map field, if it is one (nil is none).
pub(super) fn sub<'m>(m: &'m Map, key: &str) -> Option<&'m Map> {
    m.get(key).and_then(Value::as_map)
}

/// A terraform component's id: its name, or its path when unnamed.
pub(super) fn terraform_id(c: &Map) -> String {
    match field(c, "name") {
        n if n.is_empty() => field(c, "path"),
        n => n,
    }
}
