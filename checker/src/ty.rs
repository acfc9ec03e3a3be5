//! The types the checker reasons with: what a value can be, as far as a
//! schema, a declaration or the expression itself says.

use bpvm_runtime::{Kind, Vocabulary};
use std::collections::BTreeMap;

/// What a value can be.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// Nothing is known: every operation is allowed.
    Any,
    /// `nil` only.
    Nil,
    /// A bool.
    Bool,
    /// An integer.
    Int,
    /// A float.
    Float,
    /// Text.
    Str,
    /// Text that is one of these values (a schema's `enum`).
    Enum(Vec<String>),
    /// A list of items of one type.
    List(Box<Ty>),
    /// A map with known fields.
    Map(Box<Fields>),
    /// Any of several types.
    Union(Vec<Ty>),
}

/// The fields of a map type.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Fields {
    /// Fields by name.
    pub known: BTreeMap<String, Ty>,
    /// The type of any other field; `None` when there are no others (a
    /// schema's `additionalProperties: false`).
    pub rest: Option<Ty>,
}

/// A set of value kinds, as bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kinds(u16);

/// The kinds a checker distinguishes, in the order of [`Kinds`]' bits.
pub const KINDS: [Kind; 7] = [
    Kind::Nil,
    Kind::Bool,
    Kind::Int,
    Kind::Float,
    Kind::Str,
    Kind::List,
    Kind::Map,
];

impl Kinds {
    /// No kind.
    pub const NONE: Kinds = Kinds(0);
    /// Every kind.
    pub const ALL: Kinds = Kinds((1 << KINDS.len()) - 1);

    /// The set of one kind (bytes and functions count as none).
    pub fn of(kind: Kind) -> Kinds {
        match KINDS.iter().position(|k| *k == kind) {
            Some(i) => Kinds(1 << i),
            None => Kinds::NONE,
        }
    }

    /// Both sets.
    pub fn or(self, other: Kinds) -> Kinds {
        Kinds(self.0 | other.0)
    }

    /// This set without `kind`.
    pub fn without(self, kind: Kind) -> Kinds {
        Kinds(self.0 & !Kinds::of(kind).0)
    }

    /// Whether `kind` is in the set.
    pub fn has(self, kind: Kind) -> bool {
        self.0 & Kinds::of(kind).0 != 0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in the set.
    pub fn iter(self) -> impl Iterator<Item = Kind> {
        KINDS.into_iter().filter(move |k| self.has(*k))
    }

    /// `int or string`, in a dialect's words.
    pub fn describe(self, vocabulary: Vocabulary) -> String {
        let names: Vec<&str> = self.iter().map(|k| k.name(vocabulary)).collect();
        match names.split_last() {
            None => "nothing".into(),
            Some((last, [])) => (*last).into(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }
}

impl Fields {
    /// Fields with these names and types, and no others.
    ///
    /// ```
    /// use bpvm_checker::{Fields, Ty};
    /// let f = Fields::closed([("enabled", Ty::Bool)]);
    /// assert_eq!(f.field("enabled"), Some(&Ty::Bool));
    /// assert_eq!(f.field("enable"), None);
    /// ```
    pub fn closed<'a>(known: impl IntoIterator<Item = (&'a str, Ty)>) -> Fields {
        Fields {
            known: known.into_iter().map(|(k, t)| (k.to_string(), t)).collect(),
            rest: None,
        }
    }

    /// The type of field `name`: a known one's, else the others'.
    pub fn field(&self, name: &str) -> Option<&Ty> {
        self.known.get(name).or(self.rest.as_ref())
    }
}

/// Which keys a map type of a value has (see [`Ty::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// Exactly its keys: a value written out (a config block, a literal).
    Exact,
    /// At least its keys: a value computed from a sample.
    AtLeast,
}

impl Ty {
    /// The type of `v`: its kind, a list's items' types, a map's keys.
    ///
    /// ```
    /// use bpvm_checker::{Keys, Ty};
    /// let v = bpvm_runtime::Value::from_yaml("{a: 1, b: [x]}").unwrap();
    /// let t = Ty::of(&v, Keys::Exact);
    /// assert_eq!(t.field("a"), Some(Ty::Int));
    /// assert_eq!(t.field("b"), Some(Ty::List(Box::new(Ty::Str))));
    /// assert_eq!(t.field("c"), None);
    /// assert_eq!(Ty::of(&v, Keys::AtLeast).field("c"), Some(Ty::Any));
    /// ```
    pub fn of(v: &bpvm_runtime::Value, keys: Keys) -> Ty {
        use bpvm_runtime::Value;
        match v {
            Value::Null => Ty::Nil,
            Value::Bool(_) => Ty::Bool,
            Value::Int(_) => Ty::Int,
            Value::Float(_) => Ty::Float,
            Value::Str(_) | Value::Bytes(_) => Ty::Str,
            Value::List(items) => Ty::List(Box::new(
                items.iter().map(|x| Ty::of(x, keys)).reduce(Ty::or).unwrap_or(Ty::Any),
            )),
            Value::Map(m) => Ty::map(Fields {
                known: m
                    .iter()
                    .map(|(k, v)| (k.as_str().to_string(), Ty::of(v, keys)))
                    .collect(),
                rest: (keys == Keys::AtLeast).then_some(Ty::Any),
            }),
        }
    }

    /// A map type of `fields`.
    pub fn map(fields: Fields) -> Ty {
        Ty::Map(Box::new(fields))
    }

    /// A map type whose fields are unknown.
    pub fn any_map() -> Ty {
        Ty::map(Fields {
            known: BTreeMap::new(),
            rest: Some(Ty::Any),
        })
    }

    /// The kinds a value of the type can have.
    pub fn kinds(&self) -> Kinds {
        match self {
            Ty::Any => Kinds::ALL,
            Ty::Nil => Kinds::of(Kind::Nil),
            Ty::Bool => Kinds::of(Kind::Bool),
            Ty::Int => Kinds::of(Kind::Int),
            Ty::Float => Kinds::of(Kind::Float),
            Ty::Str | Ty::Enum(_) => Kinds::of(Kind::Str),
            Ty::List(_) => Kinds::of(Kind::List),
            Ty::Map(_) => Kinds::of(Kind::Map),
            Ty::Union(ts) => ts.iter().fold(Kinds::NONE, |k, t| k.or(t.kinds())),
        }
    }

    /// Either type: the union, flattened, without repeats; `Any` absorbs
    /// everything.
    ///
    /// ```
    /// use bpvm_checker::Ty;
    /// assert_eq!(Ty::Int.or(Ty::Int), Ty::Int);
    /// assert_eq!(Ty::Int.or(Ty::Str), Ty::Union(vec![Ty::Int, Ty::Str]));
    /// assert_eq!(Ty::Int.or(Ty::Any), Ty::Any);
    /// ```
    pub fn or(self, other: Ty) -> Ty {
        if self == Ty::Any || other == Ty::Any {
            return Ty::Any;
        }
        let mut items = Vec::new();
        for t in [self, other] {
            match t {
                Ty::Union(ts) => items.extend(ts),
                t => items.push(t),
            }
        }
        let mut out: Vec<Ty> = Vec::with_capacity(items.len());
        for t in items {
            if !out.contains(&t) {
                out.push(t);
            }
        }
        if out.len() == 1 {
            out.pop().unwrap()
        } else {
            Ty::Union(out)
        }
    }

    /// The type without `nil` (what `x ?? y` keeps of `x`).
    pub fn without_nil(self) -> Ty {
        match self {
            Ty::Union(ts) => ts
                .into_iter()
                .filter(|t| *t != Ty::Nil)
                .fold(None, |acc: Option<Ty>, t| Some(acc.map_or(t.clone(), |a| a.or(t))))
                .unwrap_or(Ty::Nil),
            t => t,
        }
    }

    /// The type of a value of this type's field `name`: `None` when no
    /// value of the type has it. Kinds without fields read as nil; the
    /// operation itself is judged elsewhere.
    pub fn field(&self, name: &str) -> Option<Ty> {
        match self {
            Ty::Any => Some(Ty::Any),
            Ty::Map(f) => f.field(name).cloned(),
            Ty::Union(ts) => {
                let maps: Vec<&Ty> = ts.iter().filter(|t| matches!(t, Ty::Map(_) | Ty::Any)).collect();
                if maps.is_empty() {
                    return Some(Ty::Nil);
                }
                let found: Vec<Ty> = maps.iter().filter_map(|t| t.field(name)).collect();
                found.into_iter().reduce(Ty::or)
            }
            _ => Some(Ty::Nil),
        }
    }

    /// The type of an item of a list of this type.
    pub fn item(&self) -> Ty {
        match self {
            Ty::List(t) => (**t).clone(),
            Ty::Union(ts) => ts.iter().map(Ty::item).reduce(Ty::or).unwrap_or(Ty::Any),
            Ty::Map(f) => f
                .known
                .values()
                .cloned()
                .chain(f.rest.clone())
                .reduce(Ty::or)
                .unwrap_or(Ty::Any),
            Ty::Str | Ty::Enum(_) => Ty::Str,
            _ => Ty::Any,
        }
    }

    /// The names of the known fields (for suggestions).
    pub fn field_names(&self) -> Vec<&str> {
        match self {
            Ty::Map(f) => f.known.keys().map(String::as_str).collect(),
            Ty::Union(ts) => ts.iter().flat_map(Ty::field_names).collect(),
            _ => Vec::new(),
        }
    }
}
