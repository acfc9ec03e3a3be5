//! A template's `schema.yaml` (JSON Schema) read as the checker's types:
//! what each path of the scope can hold, and which paths have a finite
//! set of values (an `enum`, a bool) that a condition can be tried on.

use bpvm_checker::{Fields, Keys, Ty};
use bpvm_runtime::{Map, Value};

/// How deep `$ref`s and nested schemas are followed.
const DEPTH: usize = 32;

/// How many schemas one type is read from, at most: `$ref`s that refer
/// to each other more than once would otherwise multiply without end.
const BUDGET: usize = 20_000;

/// The type of values `schema` describes (`root`: the whole document,
/// which `$ref`s point into).
pub fn ty(root: &Value, schema: &Value) -> Ty {
    let budget = std::cell::Cell::new(BUDGET);
    ty_at(&Reader { root, budget: &budget }, schema, 0)
}

/// What reading a schema needs besides the schema.
struct Reader<'v> {
    /// The whole document, which `$ref`s point into.
    root: &'v Value,
    /// Schemas still to be read before everything else is `Any`.
    budget: &'v std::cell::Cell<usize>,
}

fn ty_at(r: &Reader<'_>, schema: &Value, depth: usize) -> Ty {
    let Some(s) = schema.as_map() else {
        return Ty::Any;
    };
    if depth > DEPTH || r.budget.get() == 0 {
        return Ty::Any;
    }
    r.budget.set(r.budget.get() - 1);
    let root = r.root;
    if let Some(target) = reference(root, s) {
        return ty_at(r, target, depth + 1);
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::List(options)) = s.get(key) {
            return options
                .iter()
                .map(|o| ty_at(r, o, depth + 1))
                .reduce(Ty::or)
                .unwrap_or(Ty::Any);
        }
    }
    if let Some(Value::Str(c)) = s.get("const") {
        return Ty::Enum(vec![c.to_string()]);
    }
    if let Some(Value::List(values)) = s.get("enum") {
        if values.iter().all(|v| matches!(v, Value::Str(_))) {
            return Ty::Enum(values.iter().filter_map(Value::as_str).map(str::to_string).collect());
        }
        return values
            .iter()
            .map(|v| Ty::of(v, Keys::AtLeast))
            .reduce(Ty::or)
            .unwrap_or(Ty::Any);
    }
    let types: Vec<&str> = match s.get("type") {
        Some(Value::Str(t)) => vec![t],
        Some(Value::List(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if s.contains_key("properties") || s.contains_key("additionalProperties") => vec!["object"],
        _ => return all_of(r, s, Ty::Any, depth),
    };
    let t = types
        .into_iter()
        .map(|t| match t {
            "string" => Ty::Str,
            "integer" => Ty::Int,
            "number" => Ty::Int.or(Ty::Float),
            "boolean" => Ty::Bool,
            "null" => Ty::Nil,
            "array" => Ty::List(Box::new(s.get("items").map_or(Ty::Any, |i| ty_at(r, i, depth + 1)))),
            "object" => Ty::map(fields(r, s, depth)),
            _ => Ty::Any,
        })
        .reduce(Ty::or)
        .unwrap_or(Ty::Any);
    all_of(r, s, t, depth)
}

/// `t` with the properties an `allOf`'s parts declare added (its `if`s
/// and `then`s constrain values, not which paths exist).
fn all_of(r: &Reader<'_>, s: &Map, t: Ty, depth: usize) -> Ty {
    let Some(Value::List(parts)) = s.get("allOf") else {
        return t;
    };
    parts.iter().fold(t, |t, p| match (t, ty_at(r, p, depth + 1)) {
        (Ty::Map(mut a), Ty::Map(b)) => {
            for (k, v) in b.known {
                a.known.entry(k).or_insert(v);
            }
            Ty::Map(a)
        }
        (Ty::Any, b @ Ty::Map(_)) => b,
        (t, _) => t,
    })
}

fn fields(r: &Reader<'_>, s: &Map, depth: usize) -> Fields {
    let known = s
        .get("properties")
        .and_then(Value::as_map)
        .map(|props| {
            props
                .iter()
                .map(|(k, v)| (k.as_str().to_string(), ty_at(r, v, depth + 1)))
                .collect()
        })
        .unwrap_or_default();
    // JSON Schema allows other properties unless it says otherwise.
    let rest = match s.get("additionalProperties") {
        Some(Value::Bool(false)) => None,
        Some(extra @ Value::Map(_)) => Some(ty_at(r, extra, depth + 1)),
        _ => Some(Ty::Any),
    };
    let rest = if s.contains_key("patternProperties") {
        Some(Ty::Any)
    } else {
        rest
    };
    Fields { known, rest }
}

/// The schema `s`'s `$ref` points at, found as the values' validator
/// finds it (`#/$defs/x`, `#anchor`, a `$id`).
fn reference<'v>(root: &'v Value, s: &Map) -> Option<&'v Value> {
    crate::load::schema::resolve_reference(root, s.get("$ref")?.as_str()?)
}

/// The schema `s` is, its `$ref`s followed (at most [`DEPTH`] of them).
fn resolved<'v>(root: &'v Value, s: &'v Value) -> Option<&'v Map> {
    let mut m = s.as_map()?;
    for _ in 0..DEPTH {
        match reference(root, m) {
            Some(target) => m = target.as_map()?,
            None => break,
        }
    }
    Some(m)
}

/// Every value the property at `path` (schema property names) can hold,
/// when that is a short list: its `enum` or `const`, or both bools —
/// with nil when it has no `default` (it may be left unset).
pub fn domain(root: &Value, path: &[&str]) -> Option<Vec<Value>> {
    let mut m = resolved(root, root)?;
    for name in path {
        m = resolved(root, m.get("properties")?.as_map()?.get(name)?)?;
    }
    let mut values: Vec<Value> = if let Some(c) = m.get("const") {
        vec![c.clone()]
    } else if let Some(Value::List(vs)) = m.get("enum") {
        vs.clone()
    } else if m.get("type").and_then(Value::as_str) == Some("boolean") {
        vec![Value::Bool(false), Value::Bool(true)]
    } else {
        return None;
    };
    if !m.contains_key("default") && !values.contains(&Value::Null) {
        values.push(Value::Null);
    }
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(yaml: &str) -> Value {
        Value::from_yaml(yaml).unwrap()
    }

    #[test]
    fn properties_refs_and_unions_become_types() {
        let s = schema(
            "$defs: {name: {type: string}}\n\
             type: object\n\
             additionalProperties: false\n\
             properties:\n  \
               a: {$ref: '#/$defs/name'}\n  \
               b: {anyOf: [{type: integer}, {type: boolean}]}\n  \
               c: {type: object, additionalProperties: {type: integer}}\n  \
               d: {enum: [x, y]}\n",
        );
        let Ty::Map(f) = ty(&s, &s) else { panic!() };
        assert_eq!(f.rest, None);
        assert_eq!(f.known["a"], Ty::Str);
        assert_eq!(f.known["b"], Ty::Int.or(Ty::Bool));
        assert_eq!(f.known["c"].field("anything"), Some(Ty::Int));
        assert_eq!(f.known["d"], Ty::Enum(vec!["x".into(), "y".into()]));
    }

    #[test]
    fn refs_to_each_other_end() {
        let s = schema(
            "$defs:\n  n: {type: object, properties: {a: {$ref: '#/$defs/n'}, b: {$ref: '#/$defs/n'}, c: {$ref: '#/$defs/n'}}}\n\
             $ref: '#/$defs/n'\n",
        );
        let t = ty(&s, &s);
        assert!(matches!(t, Ty::Map(_)));
    }

    #[test]
    fn a_domain_is_an_enum_or_a_bool_with_nil_unless_defaulted() {
        let s = schema(
            "properties:\n  \
               p: {type: string, enum: [aws, azure], default: aws}\n  \
               ha: {type: boolean}\n  \
               n: {type: object, properties: {k: {const: on}}}\n  \
               s: {type: string}\n",
        );
        assert_eq!(domain(&s, &["p"]).unwrap().len(), 2);
        assert_eq!(
            domain(&s, &["ha"]).unwrap(),
            [Value::Bool(false), Value::Bool(true), Value::Null]
        );
        assert_eq!(domain(&s, &["n", "k"]).unwrap(), [Value::Str("on".into()), Value::Null]);
        assert_eq!(domain(&s, &["s"]), None);
        assert_eq!(domain(&s, &["missing"]), None);
    }
}
