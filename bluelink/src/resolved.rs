//! A value after resolution: what the output shows (deploy-time values as
//! written, secrets masked) and what later substitutions read (deploy-time
//! values absent) come from one tree.

use bpvm_runtime::{Key, Map, Value};
use std::sync::Arc;

/// What a masked value prints as (B10).
pub const MASK: &str = "********";

/// A resolved blueprint value.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved {
    /// A known value (a literal `null` too); `secret` when it was computed
    /// from a secret.
    Known(Value, bool),
    /// A scalar as written (its text shared with the compiled blueprint).
    Literal(Value),
    /// `none`: the field or item is left out.
    Omitted,
    /// Only known at deploy time: the string as written.
    Deferred(Arc<str>),
    /// A sequence.
    List(Vec<Resolved>),
    /// A mapping, in document order.
    Map(Vec<(Key, Resolved)>),
}

impl Resolved {
    /// The value as printed: deferred strings as written, secrets masked
    /// when `mask`; `None` when left out.
    pub fn output(&self, mask: bool) -> Option<Value> {
        match self {
            Resolved::Known(_, true) if mask => Some(Value::Str(MASK.into())),
            Resolved::Known(v, _) => Some(v.clone()),
            Resolved::Literal(v) => Some(Value::clone(v)),
            Resolved::Omitted => None,
            Resolved::Deferred(text) => Some(Value::Str(text.as_ref().into())),
            Resolved::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                out.extend(items.iter().filter_map(|r| r.output(mask)));
                Some(Value::List(out))
            }
            Resolved::Map(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                out.extend(entries.iter().filter_map(|(k, r)| Some((k.clone(), r.output(mask)?))));
                Some(Value::Map(Map::from_distinct(out)))
            }
        }
    }

    /// The value later substitutions read: deferred parts are absent, so
    /// a reference to them is deferred too.
    pub fn known(&self) -> Option<Value> {
        match self {
            Resolved::Known(v, _) => Some(v.clone()),
            Resolved::Literal(v) => Some(Value::clone(v)),
            Resolved::Omitted | Resolved::Deferred(_) => None,
            Resolved::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for r in items {
                    match r {
                        Resolved::Omitted => {}
                        // A list with an unknown item is unknown as a whole
                        // (indexes after it would shift).
                        Resolved::Deferred(_) => return None,
                        r => out.push(r.known()?),
                    }
                }
                Some(Value::List(out))
            }
            Resolved::Map(entries) => {
                let mut out = Vec::with_capacity(entries.len());
                out.extend(entries.iter().filter_map(|(k, r)| Some((k.clone(), r.known()?))));
                Some(Value::Map(Map::from_distinct(out)))
            }
        }
    }

    /// True when any part is only known at deploy time.
    pub fn is_deferred(&self) -> bool {
        match self {
            Resolved::Deferred(_) => true,
            Resolved::Known(..) | Resolved::Literal(_) | Resolved::Omitted => false,
            Resolved::List(items) => items.iter().any(Resolved::is_deferred),
            Resolved::Map(entries) => entries.iter().any(|(_, r)| r.is_deferred()),
        }
    }

    /// True when any part was computed from a secret.
    pub fn is_secret(&self) -> bool {
        match self {
            Resolved::Known(_, s) => *s,
            Resolved::Literal(_) | Resolved::Omitted | Resolved::Deferred(_) => false,
            Resolved::List(items) => items.iter().any(Resolved::is_secret),
            Resolved::Map(entries) => entries.iter().any(|(_, r)| r.is_secret()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_and_known_values_differ_only_where_they_should() {
        let r = Resolved::Map(vec![
            (Key::new("a"), Resolved::Known(Value::Int(1), false)),
            (Key::new("b"), Resolved::Deferred("${resources.x.spec.arn}".into())),
            (Key::new("c"), Resolved::Omitted),
            (Key::new("d"), Resolved::Known(Value::Str("pw".into()), true)),
            (
                Key::new("e"),
                Resolved::List(vec![Resolved::Omitted, Resolved::Known(Value::Int(2), false)]),
            ),
        ]);
        assert_eq!(
            r.output(true).unwrap().to_json(),
            r#"{"a":1,"b":"${resources.x.spec.arn}","d":"********","e":[2]}"#
        );
        assert_eq!(
            r.output(false).unwrap().to_json(),
            r#"{"a":1,"b":"${resources.x.spec.arn}","d":"pw","e":[2]}"#
        );
        assert_eq!(r.known().unwrap().to_json(), r#"{"a":1,"d":"pw","e":[2]}"#);
        assert!(r.is_deferred() && r.is_secret());
        let list = Resolved::List(vec![
            Resolved::Deferred("${x}".into()),
            Resolved::Known(Value::Int(1), false),
        ]);
        assert_eq!(list.known(), None);
    }
}
