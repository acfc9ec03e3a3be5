//! An expression of the `.bp` language as read, before it is lowered to
//! the document tree or to substitution text.

use crate::error::Pos;

/// A name or a piece of string text as read: the token's own text moved
/// in, inline when short (most names and keys are), so reading a name
/// allocates nothing.
pub(super) type Text = compact_str::CompactString;

/// An expression and where it starts.
#[derive(Debug, Clone)]
pub(super) struct Expr {
    pub at: Pos,
    pub kind: ExprKind,
}

#[derive(Debug, Clone)]
pub(super) enum ExprKind {
    /// A string without interpolations.
    Str(Text),
    Int(i64),
    /// A float, and its text (kept to lower it exactly).
    Float(f64, Text),
    Bool(bool),
    None,
    List(Vec<Expr>),
    Object(Vec<Field>),
    /// A string with at least one interpolation.
    Interpolated(Vec<Part>),
    Ref(Reference),
    Call(Box<Call>),
    /// An operator, as the core function it stands for (`and`, `eq`, …).
    Op(&'static str, Vec<Expr>),
}

/// An object literal's entry.
#[derive(Debug, Clone)]
pub(super) struct Field {
    pub key: Text,
    pub key_at: Pos,
    pub value: Expr,
}

/// A piece of an interpolated string.
#[derive(Debug, Clone)]
pub(super) enum Part {
    Text(Text),
    /// An interpolation, and its text as laid out when it is written over
    /// several lines (see `layout`).
    Sub(Expr, Option<String>),
}

/// A reference, as substitution text (`resources.fn.spec.arn`).
#[derive(Debug, Clone)]
pub(super) struct Reference {
    pub text: String,
    /// The resource's name when the reference is just a resource
    /// (`fn` or `resources.fn`): what `dependsOn` and `exclude` take.
    pub resource: Option<Text>,
}

/// A function call.
#[derive(Debug, Clone)]
pub(super) struct Call {
    pub name: Text,
    /// The arguments, each with its name and where the name is when it
    /// is a named one.
    pub args: Vec<(Option<(Text, Pos)>, Expr)>,
    /// Accessors after the call, as text (`.a[0]`).
    pub path: String,
}

/// Appends the accessor for `name`: `.name`, or `["name"]` when it is not
/// a bare name.
pub(super) fn push_name(out: &mut String, name: &str) {
    let bare = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-'));
    if bare {
        out.push('.');
        out.push_str(name);
    } else {
        out.push_str("[\"");
        out.push_str(name);
        out.push_str("\"]");
    }
}
