//! The value the VM computes with: a `Copy` view that borrows from the
//! environment, the program's constants or the evaluation arena.
//!
//! Scalars are held inline, strings and composites are borrowed, so loading
//! `cluster.cni` from an environment copies two words, never the map.

// The cycle val ↔ func ↔ ops is forced by the recursive type: a Val
// may hold a function, whose arguments and results are Vals, and Val
// equality is `ops::equal`, which compares the Vals inside lists and maps.
use crate::func::FuncVal;
use crate::key::hash_key;
use crate::kind::{Kind, Vocabulary};
use crate::map::Map;
use crate::time::instant::{Calendar, Time};
use crate::value::Value;

/// A value during evaluation.
///
/// ```
/// use bpvm_runtime::{Val, Value};
/// let doc = Value::from_yaml("[1, two]").unwrap();
/// let v = Val::from_doc(&doc);
/// assert_eq!(v.type_name(), "list");
/// assert_eq!(v.list().unwrap().get(1), Some(Val::Str("two")));
/// ```
#[derive(Clone, Copy, Debug)]
#[repr(u64)]
pub enum Val<'a> {
    /// `nil` / `none`.
    Nil,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// Text.
    Str(&'a str),
    /// Raw bytes.
    Bytes(&'a [u8]),
    /// A list or map inside a document, borrowed as is.
    Doc(&'a Value),
    /// A list built during evaluation.
    List(&'a [Val<'a>]),
    /// A map built during evaluation, in insertion order.
    Map(&'a [(&'a str, Val<'a>)]),
    /// A function value (Bluelink higher-order functions).
    Func(&'a FuncVal<'a>),
    /// An instant and its zone (Windsor `now()`, `date()`).
    Time(Time),
    /// Go's `time.Duration`: nanoseconds (Windsor `duration()`).
    Duration(i64),
    /// A month, weekday or location a time gives.
    Calendar(Calendar),
}

/// A borrowed list, whichever side it lives on.
#[derive(Clone, Copy, Debug)]
pub enum ListRef<'a> {
    /// A document list.
    Doc(&'a [Value]),
    /// An evaluation-built list.
    Vals(&'a [Val<'a>]),
}

/// A borrowed map, whichever side it lives on.
#[derive(Clone, Copy, Debug)]
pub enum MapRef<'a> {
    /// A document map.
    Doc(&'a Map),
    /// An evaluation-built map.
    Vals(&'a [(&'a str, Val<'a>)]),
}

impl<'a> Val<'a> {
    /// Views a document value.
    #[inline]
    pub fn from_doc(v: &'a Value) -> Val<'a> {
        match v {
            Value::Null => Val::Nil,
            Value::Bool(b) => Val::Bool(*b),
            Value::Int(i) => Val::Int(*i),
            Value::Float(f) => Val::Float(*f),
            Value::Str(s) => Val::Str(s),
            Value::Bytes(b) => Val::Bytes(b),
            Value::List(_) | Value::Map(_) => Val::Doc(v),
        }
    }

    /// A scalar with no borrow (nil, bool, int, float, time values);
    /// anything else as nil.
    #[inline]
    pub fn detach<'b>(self) -> Val<'b> {
        match self {
            Val::Bool(b) => Val::Bool(b),
            Val::Int(i) => Val::Int(i),
            Val::Float(f) => Val::Float(f),
            Val::Time(t) => Val::Time(t),
            Val::Duration(d) => Val::Duration(d),
            Val::Calendar(c) => Val::Calendar(c),
            _ => Val::Nil,
        }
    }

    /// Copies into an owned document value.
    pub fn to_value(&self) -> Value {
        match *self {
            Val::Nil => Value::Null,
            Val::Bool(b) => Value::Bool(b),
            Val::Int(i) => Value::Int(i),
            Val::Float(f) => Value::Float(f),
            Val::Str(s) => Value::Str(s.into()),
            Val::Bytes(b) => Value::Bytes(b.into()),
            Val::Doc(v) => v.clone(),
            Val::List(items) => Value::List(items.iter().map(Val::to_value).collect()),
            Val::Map(entries) => Value::Map(entries.iter().map(|(k, v)| ((*k).into(), v.to_value())).collect()),
            Val::Func(f) => Value::Str(format!("<function {}>", f.func.name).into()),
            // As Windsor's YAML writes them: a time in RFC 3339, a
            // duration as Go writes it, a month or weekday as its number.
            Val::Time(t) => Value::Str(crate::time::format::format(t, crate::time::format::RFC3339_NANO).into()),
            Val::Duration(d) => Value::Str(crate::time::duration::text(d).into()),
            Val::Calendar(Calendar::Month(n) | Calendar::Weekday(n)) => Value::Int(n as i64),
            Val::Calendar(c) => Value::Str(c.name().into()),
        }
    }

    /// What kind of value this is.
    pub fn kind(&self) -> Kind {
        match self {
            Val::Nil => Kind::Nil,
            Val::Bool(_) => Kind::Bool,
            Val::Int(_) => Kind::Int,
            Val::Float(_) => Kind::Float,
            Val::Str(_) => Kind::Str,
            Val::Bytes(_) => Kind::Bytes,
            Val::Doc(Value::Map(_)) | Val::Map(_) => Kind::Map,
            Val::Doc(_) | Val::List(_) => Kind::List,
            Val::Func(_) => Kind::Func,
            Val::Time(_) => Kind::Time,
            Val::Duration(_) => Kind::Duration,
            Val::Calendar(Calendar::Month(_)) => Kind::Month,
            Val::Calendar(Calendar::Weekday(_)) => Kind::Weekday,
            Val::Calendar(Calendar::Zone(_)) => Kind::Location,
        }
    }

    /// The type name used in error messages (expr-lang's words; see
    /// [`Kind::name`] for Bluelink's).
    pub fn type_name(&self) -> &'static str {
        self.kind().name(Vocabulary::Expr)
    }

    /// True for nil.
    #[inline]
    pub fn is_nil(&self) -> bool {
        matches!(self, Val::Nil)
    }

    /// The list inside, if this is a list.
    #[inline]
    pub fn list(&self) -> Option<ListRef<'a>> {
        match *self {
            Val::Doc(Value::List(items)) => Some(ListRef::Doc(items)),
            Val::List(items) => Some(ListRef::Vals(items)),
            _ => None,
        }
    }

    /// The map inside, if this is a map.
    #[inline]
    pub fn map(&self) -> Option<MapRef<'a>> {
        match *self {
            Val::Doc(Value::Map(m)) => Some(MapRef::Doc(m)),
            Val::Map(entries) => Some(MapRef::Vals(entries)),
            _ => None,
        }
    }

    /// The number inside as a float, if this is a number.
    #[inline]
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Val::Int(i) => Some(i as f64),
            Val::Float(f) => Some(f),
            _ => None,
        }
    }
}

impl<'a> ListRef<'a> {
    /// Number of items.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            ListRef::Doc(items) => items.len(),
            ListRef::Vals(items) => items.len(),
        }
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The item at `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Option<Val<'a>> {
        match *self {
            ListRef::Doc(items) => items.get(i).map(Val::from_doc),
            ListRef::Vals(items) => items.get(i).copied(),
        }
    }

    /// The items in order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = Val<'a>> + DoubleEndedIterator {
        (0..self.len()).map(move |i| self.get(i).unwrap_or(Val::Nil))
    }
}

impl<'a> MapRef<'a> {
    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            MapRef::Doc(m) => m.len(),
            MapRef::Vals(entries) => entries.len(),
        }
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Looks up `key`.
    #[inline]
    pub fn get(&self, key: &str) -> Option<Val<'a>> {
        self.get_hashed(hash_key(key), key)
    }

    /// Looks up `key`, whose hash is known.
    #[inline]
    pub fn get_hashed(&self, hash: u64, key: &str) -> Option<Val<'a>> {
        match *self {
            MapRef::Doc(m) => m.get_hashed(hash, key).map(Val::from_doc),
            MapRef::Vals(entries) => entries.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| *v),
        }
    }

    /// The entry at position `i` in insertion order.
    #[inline]
    pub fn entry(&self, i: usize) -> Option<(&'a str, Val<'a>)> {
        match *self {
            MapRef::Doc(m) => m.entry_at(i).map(|(k, v)| (k.as_str(), Val::from_doc(v))),
            MapRef::Vals(entries) => entries.get(i).copied(),
        }
    }

    /// Entries in insertion order.
    pub fn iter(self) -> impl ExactSizeIterator<Item = (&'a str, Val<'a>)> {
        (0..self.len()).map(move |i| self.entry(i).unwrap_or(("", Val::Nil)))
    }
}

impl PartialEq for Val<'_> {
    /// Structural, nil-safe equality; integers equal floats of the same value.
    fn eq(&self, other: &Self) -> bool {
        crate::ops::equal(*self, *other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_values_do_not_make_a_value_larger() {
        // Three words before time values were added, and still.
        assert_eq!(std::mem::size_of::<Val<'_>>(), 24);
    }
}
