//! A value after resolution: what the output shows (deploy-time values as
//! written, secrets masked) and what later substitutions read (deploy-time
//! values absent) come from one tree.

use bpvm_runtime::{Map, Value};

/// What a masked value prints as (B10).
pub const MASK: &str = "********";

/// A resolved blueprint value.
#[derive(Debug, Clone, PartialEq)]
pub enum Resolved {
    /// A known value (a literal `null` too); `secret` when it was computed
    /// from a secret.
    Known(Value, bool),
    /// `none`: the field or item is left out.
    Omitted,
    /// Only known at deploy time: the string as written.
    Deferred(String),
    /// A sequence.
    List(Vec<Resolved>),
    /// A mapping, in document order.
    Map(Vec<(String, Resolved)>),
}

impl Resolved {
    /// The value as printed: deferred strings as written, secrets masked
    /// when `mask`; `None` when left out.
    pub fn output(&self, mask: bool) -> Option<Value> {
        match self {
            Resolved::Known(_, true) if mask => Some(Value::Str(MASK.into())),
            Resolved::Known(v, _) => Some(v.clone()),
            Resolved::Omitted => None,
            Resolved::Deferred(text) => Some(Value::Str(text.as_str().into())),
            Resolved::List(items) => Some(Value::List(items.iter().filter_map(|r| r.output(mask)).collect())),
            Resolved::Map(entries) => {
                let mut m = Map::new();
                for (k, r) in entries {
                    if let Some(v) = r.output(mask) {
                        m.insert(k.as_str(), v);
                    }
                }
                Some(Value::Map(m))
            }
        }
    }

    /// The value later substitutions read: deferred parts are absent, so
    /// a reference to them is deferred too.
    pub fn known(&self) -> Option<Value> {
        match self {
            Resolved::Known(v, _) => Some(v.clone()),
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
                let mut m = Map::new();
                for (k, r) in entries {
                    if let Some(v) = r.known() {
                        m.insert(k.as_str(), v);
                    }
                }
                Some(Value::Map(m))
            }
        }
    }

    /// True when any part is only known at deploy time.
    pub fn is_deferred(&self) -> bool {
        match self {
            Resolved::Deferred(_) => true,
            Resolved::Known(..) | Resolved::Omitted => false,
            Resolved::List(items) => items.iter().any(Resolved::is_deferred),
            Resolved::Map(entries) => entries.iter().any(|(_, r)| r.is_deferred()),
        }
    }

    /// True when any part was computed from a secret.
    pub fn is_secret(&self) -> bool {
        match self {
            Resolved::Known(_, s) => *s,
            Resolved::Omitted | Resolved::Deferred(_) => false,
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
            ("a".into(), Resolved::Known(Value::Int(1), false)),
            ("b".into(), Resolved::Deferred("${resources.x.spec.arn}".into())),
            ("c".into(), Resolved::Omitted),
            ("d".into(), Resolved::Known(Value::Str("pw".into()), true)),
            (
                "e".into(),
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
