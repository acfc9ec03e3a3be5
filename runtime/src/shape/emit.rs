//! A [`Document`] printed as a JSON Schema (draft-07), built as an
//! ordered [`Value`] so that the same tables always give the same bytes.

use super::{Document, Field, Obj, Rest, Ty};
use crate::{Map, Value};

/// The JSON Schema draft the schemas are written in.
pub const DRAFT: &str = "http://json-schema.org/draft-07/schema#";

/// What an object whose loader reads newer fields says about them.
const NEWER: &str = "A key within two edits of a field here is a typo and an error; bpvm reads any other \
                     key as a field of a newer release, with a warning (an error with --strict). This \
                     schema flags every key it does not list, as --strict does.";

/// What an object whose other keys bpvm does not read says about them.
const UNREAD: &str = "bpvm does not read a key this schema does not list; the schema flags it, as no \
                      field of this file has that name.";

/// The schema of `doc`, as a JSON document ending in a newline.
///
/// ```
/// use bpvm_runtime::shape::{Document, Field, Obj, Rest, Ty, json_schema};
/// static TOP: Obj = Obj { doc: "A list.", fields: &[&[Field::new("items", Ty::List(&Ty::Str), "The items.")]], rest: Rest::Refused };
/// let doc = Document { name: "list", title: "A list", globs: &["list.yaml"], ty: Ty::Obj(&TOP) };
/// let text = json_schema(&doc);
/// assert!(text.contains("\"additionalProperties\": false"));
/// ```
pub fn json_schema(doc: &Document) -> String {
    let mut top = Map::new();
    top.insert("$schema", Value::from(DRAFT));
    top.insert("title", Value::from(doc.title));
    let mut body = ty(&doc.ty);
    if let Value::Map(m) = &mut body {
        for (k, v) in m.iter() {
            top.insert(k.clone(), v.clone());
        }
    }
    crate::text::to_json(&Value::Map(top))
}

/// The schema of one value.
fn ty(t: &Ty) -> Value {
    let mut m = Map::new();
    match t {
        Ty::Any => {}
        Ty::Str => typed(&mut m, "string"),
        Ty::Int => typed(&mut m, "integer"),
        Ty::Num => typed(&mut m, "number"),
        Ty::Bool => typed(&mut m, "boolean"),
        Ty::OneOf(words) => {
            typed(&mut m, "string");
            m.insert("enum", Value::List(words.iter().map(|w| Value::from(*w)).collect()));
        }
        Ty::List(item) => {
            typed(&mut m, "array");
            m.insert("items", ty(item));
        }
        Ty::Names(item) => {
            typed(&mut m, "object");
            m.insert("additionalProperties", ty(item));
        }
        Ty::Obj(o) => return obj(o),
        Ty::Keys(names, item) => {
            typed(&mut m, "object");
            let mut keys = Map::new();
            let names = names().into_iter().map(Value::from).collect();
            keys.insert("enum", Value::List(names));
            m.insert("propertyNames", Value::Map(keys));
            m.insert("additionalProperties", ty(item));
        }
        Ty::Either(ts) => {
            m.insert("anyOf", Value::List(ts.iter().map(ty).collect()));
        }
    }
    Value::Map(m)
}

fn typed(m: &mut Map, name: &str) {
    m.insert("type", Value::from(name));
}

/// The schema of a mapping with known fields.
fn obj(o: &Obj) -> Value {
    let mut m = Map::new();
    typed(&mut m, "object");
    m.insert("description", Value::from(described(o.doc, o.rest).as_str()));
    let fields = || o.fields.iter().flat_map(|t| t.iter());
    let mut properties = Map::new();
    for f in fields() {
        properties.insert(f.name, field(f));
    }
    m.insert("properties", Value::Map(properties));
    let required: Vec<Value> = fields().filter(|f| f.required).map(|f| Value::from(f.name)).collect();
    if !required.is_empty() {
        m.insert("required", Value::List(required));
    }
    match o.rest {
        Rest::Open => {}
        Rest::Refused | Rest::Newer | Rest::Unread => {
            m.insert("additionalProperties", Value::Bool(false));
        }
        Rest::Prefixed(prefix) => {
            let mut pattern = Map::new();
            pattern.insert(format!("^{}", escaped(prefix)).as_str(), Value::Map(Map::new()));
            m.insert("patternProperties", Value::Map(pattern));
            m.insert("additionalProperties", Value::Bool(false));
        }
    }
    Value::Map(m)
}

/// `doc`, with what becomes of the keys a mapping's fields do not name
/// when bpvm reads them otherwise than as errors.
fn described(doc: &str, rest: Rest) -> String {
    match rest {
        Rest::Newer => format!("{doc} {NEWER}"),
        Rest::Unread => format!("{doc} {UNREAD}"),
        Rest::Refused | Rest::Prefixed(_) | Rest::Open => doc.to_string(),
    }
}

/// A field's schema: its description (with its mapping's note on other
/// keys), then its value's.
fn field(f: &Field) -> Value {
    let mut m = Map::new();
    let doc = match f.ty {
        Ty::Obj(o) => described(f.doc, o.rest),
        _ => f.doc.to_string(),
    };
    m.insert("description", Value::from(doc.as_str()));
    if let Value::Map(body) = ty(&f.ty) {
        for (k, v) in body.iter() {
            // An object's own description is the field's when both speak.
            if k.as_str() != "description" || f.doc.is_empty() {
                m.insert(k.clone(), v.clone());
            }
        }
    }
    Value::Map(m)
}

/// `prefix` with the characters a regular expression reads specially escaped.
fn escaped(prefix: &str) -> String {
    let mut out = String::new();
    for c in prefix.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    static INNER: Obj = Obj {
        doc: "A part.",
        fields: &[&[Field::new("name", Ty::Str, "Its name.").required()]],
        rest: Rest::Newer,
    };
    static TOP: Obj = Obj {
        doc: "The file.",
        fields: &[&[
            Field::new("parts", Ty::List(&Ty::Obj(&INNER)), "The parts."),
            Field::new("one", Ty::Obj(&INNER), "One part."),
            Field::new("mode", Ty::OneOf(&["a", "b"]), "The mode."),
            Field::new("extra", Ty::Names(&Ty::Either(&[Ty::Int, Ty::Bool])), "Extras."),
            Field::new("rules", Ty::Keys(|| vec!["r1", "r2"], &Ty::Bool), "Rules."),
        ]],
        rest: Rest::Prefixed("x-"),
    };

    #[test]
    fn every_shape_has_its_keywords_in_table_order() {
        let doc = Document {
            name: "t",
            title: "T",
            globs: &[],
            ty: Ty::Obj(&TOP),
        };
        let v = Value::from_yaml(&json_schema(&doc)).unwrap();
        let text = crate::text::to_json(&v);
        let keys: Vec<&str> = v.as_map().unwrap().keys().map(|k| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "$schema",
                "title",
                "type",
                "description",
                "properties",
                "patternProperties",
                "additionalProperties"
            ]
        );
        assert!(text.contains("\"^x-\": {}"), "{text}");
        let j: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(j["properties"]["mode"]["enum"], serde_json::json!(["a", "b"]));
        assert_eq!(
            j["properties"]["parts"]["items"]["required"],
            serde_json::json!(["name"])
        );
        assert_eq!(j["properties"]["parts"]["description"], "The parts.");
        let inner = serde_json::to_string(&j["properties"]["parts"]["items"]["description"]).unwrap();
        assert!(inner.starts_with("\"A part. A key within two edits"), "{inner}");
        let one = serde_json::to_string(&j["properties"]["one"]["description"]).unwrap();
        assert!(one.starts_with("\"One part. A key within two edits"), "{one}");
        assert!(text.contains("flags every key it does not list"), "{text}");
        assert!(text.contains("\"anyOf\""), "{text}");
        assert_eq!(
            j["properties"]["rules"]["propertyNames"]["enum"],
            serde_json::json!(["r1", "r2"])
        );
    }

    #[test]
    fn prefixes_are_escaped_for_a_pattern() {
        assert_eq!(escaped("x-"), "x-");
        assert_eq!(escaped("a.b$"), "a\\.b\\$");
    }
}
