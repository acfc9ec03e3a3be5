//! Data source filters: which candidate record a filter selects, with the
//! operator semantics of seed 002 ("Operator Behaviours"), and for the
//! comparisons version 2025-11-02 adds (`>`, `<`, `>=`, `<=`): numbers
//! compare as numbers, text compares as text (so do RFC 3339 times). A
//! combination of field and search types the seed does not list is an
//! error.

use super::blueprint::{Operator, type_name};
use bpvm_runtime::Value;

/// True when `v` can be a filter's search: a primitive or an array of
/// primitives (seed 002, dataSourceFilterDefinition).
pub(crate) fn search_value(v: &Value) -> bool {
    match v {
        Value::List(items) => items.iter().all(|x| !matches!(x, Value::List(_) | Value::Map(_))),
        Value::Map(_) => false,
        _ => true,
    }
}

/// The value at a dot path in a record (`tags.env`, `subnets[0].zone`;
/// `[]` is `[0]`).
///
/// ```
/// use bpvm_bluelink::filter::field_at;
/// use bpvm_runtime::Value;
/// let r = Value::from_yaml("subnets: [{zone: a}, {zone: b}]").unwrap();
/// assert_eq!(field_at(&r, "subnets[1].zone").and_then(Value::as_str), Some("b"));
/// assert_eq!(field_at(&r, "subnets[].zone").and_then(Value::as_str), Some("a"));
/// ```
pub fn field_at<'v>(record: &'v Value, path: &str) -> Option<&'v Value> {
    let mut cur = record;
    for part in path.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            cur = cur.as_map()?.get(name)?;
        }
        while let Some(close) = rest.find(']') {
            let inner = rest.get(1..close)?;
            let i: usize = if inner.is_empty() { 0 } else { inner.parse().ok()? };
            cur = match cur {
                Value::List(items) => items.get(i)?,
                _ => return None,
            };
            rest = &rest[close + 1..];
        }
        if !rest.is_empty() {
            return None;
        }
    }
    Some(cur)
}

/// The type name used in filter messages: seed 002's "Operator
/// Behaviours" says mapping where the rest of the blueprint says object.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Map(_) => "mapping",
        other => type_name(other),
    }
}

fn primitive(v: &Value) -> bool {
    matches!(v, Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::Str(_))
}

fn same_type(a: &Value, b: &Value) -> bool {
    primitive(a) && primitive(b) && kind(a) == kind(b)
}

/// Items of an array when all are primitives of `like`'s type.
fn items_like<'v>(v: &'v Value, like: &Value) -> Option<&'v [Value]> {
    match v {
        Value::List(items) if items.iter().all(|x| same_type(x, like)) => Some(items),
        _ => None,
    }
}

/// True when `field <op> search` holds; an error names a combination the
/// seed does not define.
///
/// ```
/// use bpvm_bluelink::{blueprint::Operator, filter::test};
/// use bpvm_runtime::Value;
/// let tags = Value::from_yaml("{env: prod}").unwrap();
/// assert_eq!(test(&tags, Operator::HasKey, &Value::Str("env".into())), Ok(true));
/// assert!(test(&Value::Int(1), Operator::StartsWith, &Value::Str("1".into())).is_err());
/// ```
pub fn test(field: &Value, op: Operator, search: &Value) -> Result<bool, String> {
    use Operator::*;
    let found = match op {
        Eq | Ne => match (field, search) {
            (f, s) if same_type(f, s) => Some(f == s),
            (Value::List(f), Value::List(s)) => match s.first() {
                Some(x) if items_like(search, x).is_some() && items_like(field, x).is_some() => Some(f == s),
                _ => None,
            },
            _ => None,
        },
        In | NotIn => match search {
            Value::List(s) if primitive(field) => items_like(search, field).map(|_| s.contains(field)),
            _ => None,
        },
        HasKey | NotHasKey => match (field, search) {
            (Value::Map(m), Value::Str(k)) => Some(m.contains_key(k)),
            _ => None,
        },
        Contains | NotContains => match (field, search) {
            (Value::Str(f), Value::Str(s)) => Some(f.contains(&**s)),
            (Value::List(items), s) if primitive(s) => items_like(field, s).map(|_| items.contains(s)),
            (Value::Map(m), s) if primitive(s) && m.values().all(|v| same_type(v, s)) => {
                Some(m.values().any(|v| v == s))
            }
            _ => None,
        },
        StartsWith | NotStartsWith => match (field, search) {
            (Value::Str(f), Value::Str(s)) => Some(f.starts_with(&**s)),
            _ => None,
        },
        EndsWith | NotEndsWith => match (field, search) {
            (Value::Str(f), Value::Str(s)) => Some(f.ends_with(&**s)),
            _ => None,
        },
        Gt | Lt | Ge | Le => order(field, search).map(|o| match op {
            Gt => o.is_gt(),
            Lt => o.is_lt(),
            Ge => o.is_ge(),
            _ => o.is_le(),
        }),
    };
    let negated = matches!(op, Ne | NotIn | NotHasKey | NotContains | NotStartsWith | NotEndsWith);
    match found {
        Some(b) => Ok(b != negated),
        None => Err(format!(
            "the operator {:?} does not apply to a field of type {} and a search of type {}",
            op.text(),
            describe(field),
            describe(search)
        )),
    }
}

/// How two numbers, or two strings, compare.
fn order(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    let number = |v: &Value| match v {
        Value::Int(i) => Some(*i as f64),
        Value::Float(f) => Some(*f),
        _ => None,
    };
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Some(x.cmp(y)),
        (Value::Str(x), Value::Str(y)) => Some(x.cmp(y)),
        _ => number(a)?.partial_cmp(&number(b)?),
    }
}

/// A type for messages, with an array's item type (`array of string`).
fn describe(v: &Value) -> String {
    match v {
        Value::List(items) => match items.first() {
            Some(x) if items.iter().all(|y| kind(y) == kind(x)) => format!("array of {}", kind(x)),
            Some(_) => "array of mixed types".into(),
            None => "empty array".into(),
        },
        other => kind(other).into(),
    }
}
