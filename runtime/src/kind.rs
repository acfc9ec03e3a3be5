//! What kind a value is, and the words each dialect uses for kinds in
//! messages: expr-lang says `nil`, `int`, `list`, `map`; Bluelink says
//! `none`, `integer`, `array`, `object`.

/// The kind of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// nil / none
    Nil,
    /// a boolean
    Bool,
    /// an integer
    Int,
    /// a float
    Float,
    /// text
    Str,
    /// raw bytes
    Bytes,
    /// a list / array
    List,
    /// a map / object
    Map,
    /// a function value
    Func,
    /// Go's `time.Time`
    Time,
    /// Go's `time.Duration`
    Duration,
    /// Go's `time.Month`
    Month,
    /// Go's `time.Weekday`
    Weekday,
    /// Go's `*time.Location`
    Location,
}

/// How a dialect names kinds.
///
/// ```
/// use bpvm_runtime::{Kind, Vocabulary};
/// assert_eq!(Kind::Nil.name(Vocabulary::Expr), "nil");
/// assert_eq!(Kind::Nil.name(Vocabulary::Bluelink), "none");
/// assert_eq!(Kind::Map.name(Vocabulary::Bluelink), "object");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Vocabulary {
    /// expr-lang's words (the Windsor dialect).
    #[default]
    Expr,
    /// Bluelink's words.
    Bluelink,
}

impl Kind {
    /// The kind's name in `vocabulary`.
    pub fn name(self, vocabulary: Vocabulary) -> &'static str {
        match (self, vocabulary) {
            (Kind::Nil, Vocabulary::Expr) => "nil",
            (Kind::Nil, Vocabulary::Bluelink) => "none",
            (Kind::Bool, Vocabulary::Expr) => "bool",
            (Kind::Bool, Vocabulary::Bluelink) => "boolean",
            (Kind::Int, Vocabulary::Expr) => "int",
            (Kind::Int, Vocabulary::Bluelink) => "integer",
            (Kind::Float, _) => "float",
            (Kind::Str, _) => "string",
            (Kind::Bytes, _) => "bytes",
            (Kind::List, Vocabulary::Expr) => "list",
            (Kind::List, Vocabulary::Bluelink) => "array",
            (Kind::Map, Vocabulary::Expr) => "map",
            (Kind::Map, Vocabulary::Bluelink) => "object",
            (Kind::Func, _) => "function",
            (Kind::Time, _) => "time.Time",
            (Kind::Duration, _) => "time.Duration",
            (Kind::Month, _) => "time.Month",
            (Kind::Weekday, _) => "time.Weekday",
            (Kind::Location, _) => "*time.Location",
        }
    }
}
