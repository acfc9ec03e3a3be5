//! A validated blueprint: its definitions, each value that may hold
//! substitutions compiled into a [`Tree`], and the document as written
//! (the output keeps its structure and key order).

use super::error::Pos;
pub use super::reads::Reads;
use super::sub::{Def, Sub, Tree};
use bpvm_runtime::{Key, Value};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// A blueprint file, loaded and validated as a whole.
#[derive(Debug, Clone)]
pub struct Blueprint {
    /// The file as named (for messages).
    pub file: String,
    /// The file's path on disk, absolute.
    pub path: PathBuf,
    /// The file's text as it was read: the line under each problem a
    /// render finds is taken from it (the file may have changed since).
    pub text: Arc<str>,
    /// The document as written, positions dropped (what the output copies its literal
    /// parts from).
    pub value: Value,
    /// `variables`, in document order.
    pub variables: Vec<Variable>,
    /// `values`.
    pub values: Vec<ValueDef>,
    /// `datasources`.
    pub datasources: Vec<DataSource>,
    /// `resources`.
    pub resources: Vec<Resource>,
    /// `include`.
    pub includes: Vec<Include>,
    /// `exports`.
    pub exports: Vec<Export>,
    /// Top-level `metadata`.
    pub metadata: Option<Tree>,
    /// Each definition's position in its section, by name.
    pub index: Index,
}

/// The names defined in a blueprint and their positions in their sections.
#[derive(Debug, Clone, Default)]
pub struct Index {
    /// `variables`
    pub variables: HashMap<String, usize>,
    /// `values`
    pub values: HashMap<String, usize>,
    /// `datasources`, with the names of the fields each exports.
    pub datasources: HashMap<String, (usize, Vec<String>)>,
    /// `resources`
    pub resources: HashMap<String, usize>,
    /// `include`
    pub includes: HashMap<String, usize>,
}

/// The type of a variable.
#[derive(Debug, Clone, PartialEq)]
pub enum VarType {
    /// `string`
    String,
    /// `integer`
    Integer,
    /// `float`
    Float,
    /// `boolean`
    Boolean,
    /// `{provider}/{type}`: a provider's enumeration, given by label (text).
    Custom(String),
}

/// A variable definition.
#[derive(Debug, Clone)]
pub struct Variable {
    /// Its name.
    pub name: String,
    /// Where the definition starts.
    pub at: Pos,
    /// Its type.
    pub ty: VarType,
    /// `allowedValues`, of the declared type (empty: any).
    pub allowed: Vec<Value>,
    /// `default`, of the declared type.
    pub default: Option<Value>,
    /// `secret: true`: masked in everything printed (B10).
    pub secret: bool,
}

/// The type of a value, an export, or a data source field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Type {
    /// `string`
    String,
    /// `integer`
    Integer,
    /// `float`
    Float,
    /// `boolean`
    Boolean,
    /// `array`
    Array,
    /// `object`
    Object,
}

impl Type {
    /// Reads a type name; `allowed` lists the names the place accepts.
    pub fn parse(name: &str, allowed: &[Type]) -> Option<Type> {
        allowed.iter().copied().find(|t| t.name() == name)
    }

    /// The name as written in blueprints.
    pub fn name(self) -> &'static str {
        match self {
            Type::String => "string",
            Type::Integer => "integer",
            Type::Float => "float",
            Type::Boolean => "boolean",
            Type::Array => "array",
            Type::Object => "object",
        }
    }

    /// `v` as this type: integers, floats and booleans are parsed from
    /// text (seed 002, valueDefinition), an integer is a float; anything
    /// else must already be of the type (else it is given back).
    ///
    /// ```
    /// use bpvm_bluelink::blueprint::Type;
    /// use bpvm_runtime::Value;
    /// assert_eq!(Type::Integer.coerce(Value::Str("42".into())), Ok(Value::Int(42)));
    /// assert!(Type::Array.coerce(Value::Str("a".into())).is_err());
    /// ```
    pub fn coerce(self, v: Value) -> Result<Value, Value> {
        let v = self.text_of_bytes(v);
        let parsed = match (self, &v) {
            (Type::Integer, Value::Str(s)) => s.trim().parse().ok().map(Value::Int),
            (Type::Float, Value::Str(s)) => s.trim().parse::<f64>().ok().filter(|f| f.is_finite()).map(Value::Float),
            (Type::Float, Value::Int(i)) => Some(Value::Float(*i as f64)),
            (Type::Boolean, Value::Str(s)) => match s.trim() {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            _ => None,
        };
        match parsed {
            Some(p) => Ok(p),
            None if self.holds(&v) => Ok(v),
            None => Err(v),
        }
    }

    /// `v` with bytes that are UTF-8 text (what `file()` reads) made a
    /// string where this type is `string`: the reference writes bytes
    /// into a field as UTF-8 text, so declaring them a string is right.
    ///
    /// ```
    /// use bpvm_bluelink::blueprint::Type;
    /// use bpvm_runtime::Value;
    /// let text = Value::Bytes(b"hello".to_vec().into());
    /// assert_eq!(Type::String.text_of_bytes(text), Value::Str("hello".into()));
    /// let binary = Value::Bytes(vec![0xff].into());
    /// assert_eq!(Type::String.text_of_bytes(binary.clone()), binary);
    /// ```
    pub fn text_of_bytes(self, v: Value) -> Value {
        match (self, v) {
            (Type::String, Value::Bytes(b)) => match String::from_utf8(b.into_vec()) {
                Ok(text) => Value::Str(text.into()),
                Err(e) => Value::Bytes(e.into_bytes().into()),
            },
            (_, v) => v,
        }
    }

    /// True when `v` is of this type (an integer counts as a float).
    pub fn holds(self, v: &Value) -> bool {
        matches!(
            (self, v),
            (Type::String, Value::Str(_))
                | (Type::Integer, Value::Int(_))
                | (Type::Float, Value::Float(_) | Value::Int(_))
                | (Type::Boolean, Value::Bool(_))
                | (Type::Array, Value::List(_))
                | (Type::Object, Value::Map(_))
        )
    }
}

/// The blueprint's name for a value's type (`integer`, `object`, `none`).
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "none",
        Value::Bool(_) => "boolean",
        Value::Int(_) => "integer",
        Value::Float(_) => "float",
        Value::Str(_) => "string",
        Value::Bytes(_) => "binary",
        Value::List(_) => "array",
        Value::Map(_) => "object",
    }
}

/// A value definition.
#[derive(Debug, Clone)]
pub struct ValueDef {
    /// Its name.
    pub name: String,
    /// Where the definition starts.
    pub at: Pos,
    /// Its type.
    pub ty: Type,
    /// `value`.
    pub value: Tree,
    /// `description`.
    pub description: Option<Tree>,
    /// `secret: true`.
    pub secret: bool,
}

/// A data source filter operator (seed 002, "Operator Behaviours").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operator {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `in`
    In,
    /// `not in`
    NotIn,
    /// `has key`
    HasKey,
    /// `not has key`
    NotHasKey,
    /// `contains`
    Contains,
    /// `not contains`
    NotContains,
    /// `starts with`
    StartsWith,
    /// `not starts with`
    NotStartsWith,
    /// `ends with`
    EndsWith,
    /// `not ends with`
    NotEndsWith,
    /// `>` (version 2025-11-02)
    Gt,
    /// `<` (version 2025-11-02)
    Lt,
    /// `>=` (version 2025-11-02)
    Ge,
    /// `<=` (version 2025-11-02)
    Le,
}

impl Operator {
    /// Every operator, as written: seed 002's twelve, then the four
    /// comparisons version 2025-11-02 adds.
    pub const ALL: [(&'static str, Operator); 16] = [
        ("=", Operator::Eq),
        ("!=", Operator::Ne),
        ("in", Operator::In),
        ("not in", Operator::NotIn),
        ("has key", Operator::HasKey),
        ("not has key", Operator::NotHasKey),
        ("contains", Operator::Contains),
        ("not contains", Operator::NotContains),
        ("starts with", Operator::StartsWith),
        ("not starts with", Operator::NotStartsWith),
        ("ends with", Operator::EndsWith),
        ("not ends with", Operator::NotEndsWith),
        (">", Operator::Gt),
        ("<", Operator::Lt),
        (">=", Operator::Ge),
        ("<=", Operator::Le),
    ];

    /// How many of [`Operator::ALL`] seed 002 (version 2023-04-20) has.
    pub const SEED: usize = 12;

    /// True for the operators version 2025-11-02 adds.
    pub fn since_2025(self) -> bool {
        matches!(self, Operator::Gt | Operator::Lt | Operator::Ge | Operator::Le)
    }

    /// The operator written `text`.
    pub fn parse(text: &str) -> Option<Operator> {
        Operator::ALL.iter().find(|(t, _)| *t == text).map(|(_, o)| *o)
    }

    /// The operator as written.
    pub fn text(self) -> &'static str {
        Operator::ALL.iter().find(|(_, o)| *o == self).map_or("", |(t, _)| t)
    }
}

/// A data source's `filter`.
#[derive(Debug, Clone)]
pub struct Filter {
    /// `field`: a dot path into a candidate record (`subnets[0].zone`).
    pub field: String,
    /// `operator`.
    pub operator: Operator,
    /// `search`: a primitive or a list of primitives.
    pub search: Tree,
    /// Where the filter starts.
    pub at: Pos,
}

/// A field a data source exports.
#[derive(Debug, Clone)]
pub struct DataField {
    /// The name blueprints use (`datasources.network.vpc`).
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// The record field it reads, when not `name` (`aliasFor`).
    pub alias_for: Option<String>,
    /// Where the definition starts.
    pub at: Pos,
}

/// A data source definition.
#[derive(Debug, Clone)]
pub struct DataSource {
    /// Its name.
    pub name: String,
    /// Where the definition starts.
    pub at: Pos,
    /// `type` (`aws/vpc`).
    pub ty: String,
    /// `filter`: one, or (version 2025-11-02) a list that must all match.
    pub filters: Vec<Filter>,
    /// The filters are written as a list.
    pub filter_list: bool,
    /// `exports`.
    pub fields: Vec<DataField>,
    /// `exports: "*"` (version 2025-11-02): every field of the data.
    pub export_all: bool,
    /// `description`.
    pub description: Option<Tree>,
    /// `metadata` (display name, annotations, custom).
    pub metadata: Option<Tree>,
}

/// A resource `condition`.
#[derive(Debug, Clone)]
pub enum Condition {
    /// A `${..}` that yields a boolean (or a literal boolean).
    Leaf(Tree),
    /// All of them.
    And(Vec<Condition>),
    /// Any of them.
    Or(Vec<Condition>),
    /// The negation (B9).
    Not(Box<Condition>),
}

/// A resource's `metadata`.
#[derive(Debug, Clone, Default)]
pub struct ResourceMeta {
    /// `displayName`.
    pub display_name: Option<Tree>,
    /// `annotations`.
    pub annotations: Option<Tree>,
    /// `labels` (no substitutions).
    pub labels: Vec<(String, String)>,
    /// `custom`.
    pub custom: Option<Tree>,
}

/// A resource definition (a template when it has `each`).
#[derive(Debug, Clone)]
pub struct Resource {
    /// Its name.
    pub name: String,
    /// Its name as a key of `resources`.
    pub key: Key,
    /// Where the definition starts.
    pub at: Pos,
    /// `type` (`aws/lambda/function`).
    pub ty: String,
    /// `description`.
    pub description: Option<Tree>,
    /// `metadata`.
    pub metadata: ResourceMeta,
    /// `metadata.labels` as a mapping (what references read).
    pub labels: Value,
    /// `dependsOn`: names of resources in this blueprint.
    pub depends_on: Vec<String>,
    /// `condition`.
    pub condition: Option<Condition>,
    /// `each`: one `${..}` yielding an array.
    pub each: Option<Sub>,
    /// `linkSelector.byLabel`.
    pub selector: Vec<(String, String)>,
    /// `linkSelector.exclude` (version 2025-11-02): resources of this
    /// blueprint never linked to.
    pub exclude: Vec<String>,
    /// `spec`.
    pub spec: Tree,
    /// What its substitutions read, each once.
    pub defs: Vec<Def>,
    /// What the blueprint's substitutions read of it (`resources.<name>`
    /// holds only that).
    pub reads: Reads,
}

impl Blueprint {
    /// Every substitution in the blueprint.
    pub fn subs(&self) -> Vec<&Sub> {
        let mut out = Vec::new();
        for v in &self.values {
            v.value.subs_into(&mut out);
            v.description.iter().for_each(|t| t.subs_into(&mut out));
        }
        for d in &self.datasources {
            out.extend(d.subs());
        }
        for r in &self.resources {
            r.subs_into(&mut out);
        }
        for i in &self.includes {
            out.extend(i.subs());
        }
        for x in &self.exports {
            out.push(&x.field);
            x.description.iter().for_each(|t| t.subs_into(&mut out));
        }
        self.metadata.iter().for_each(|t| t.subs_into(&mut out));
        out
    }
}

impl DataSource {
    /// Every substitution of the definition.
    pub fn subs(&self) -> Vec<&Sub> {
        let mut out = self.filter_subs();
        for t in [&self.metadata, &self.description].into_iter().flatten() {
            out.extend(t.subs());
        }
        out
    }

    /// The substitutions of its filters' searches: what its data depends
    /// on.
    pub fn filter_subs(&self) -> Vec<&Sub> {
        self.filters.iter().flat_map(|f| f.search.subs()).collect()
    }
}

impl Include {
    /// Every substitution of the definition.
    pub fn subs(&self) -> Vec<&Sub> {
        let mut out = self.path.subs();
        for t in [&self.variables, &self.metadata, &self.description]
            .into_iter()
            .flatten()
        {
            out.extend(t.subs());
        }
        out
    }
}

impl Resource {
    /// Every substitution of the definition.
    pub fn subs(&self) -> Vec<&Sub> {
        let mut out = Vec::new();
        self.subs_into(&mut out);
        out
    }

    /// Every substitution of the definition, added to `out`.
    pub fn subs_into<'r>(&'r self, out: &mut Vec<&'r Sub>) {
        self.spec.subs_into(out);
        for t in [
            &self.description,
            &self.metadata.display_name,
            &self.metadata.annotations,
            &self.metadata.custom,
        ]
        .into_iter()
        .flatten()
        {
            t.subs_into(out);
        }
        out.extend(self.each.iter());
        let mut conds: Vec<&Condition> = self.condition.iter().collect();
        while let Some(c) = conds.pop() {
            match c {
                Condition::Leaf(t) => t.subs_into(out),
                Condition::And(parts) | Condition::Or(parts) => conds.extend(parts),
                Condition::Not(inner) => conds.push(inner),
            }
        }
    }
}

/// A child blueprint (`include`).
#[derive(Debug, Clone)]
pub struct Include {
    /// Its name (`children.<name>`).
    pub name: String,
    /// Where the definition starts.
    pub at: Pos,
    /// `path`, relative to this blueprint's folder.
    pub path: Tree,
    /// `variables` passed to the child.
    pub variables: Option<Tree>,
    /// Where each of `variables`' keys starts (for a child that has no
    /// such variable).
    pub variable_keys: Vec<(String, Pos)>,
    /// `metadata`.
    pub metadata: Option<Tree>,
    /// `description`.
    pub description: Option<Tree>,
}

/// A blueprint export.
#[derive(Debug, Clone)]
pub struct Export {
    /// Its name.
    pub name: String,
    /// Where the definition starts.
    pub at: Pos,
    /// `type`.
    pub ty: Type,
    /// `field`: a reference, compiled as a substitution.
    pub field: Sub,
    /// `description`.
    pub description: Option<Tree>,
}
