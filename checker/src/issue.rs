//! What checking one expression finds: its problems and its calls with a
//! literal argument. A leaf: the walk that finds them imports it.

use bpvm_compiler::ast::Span;

/// What kind of problem an [`Issue`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueKind {
    /// A path no type of the scope provides.
    UnknownPath,
    /// An operation its operands' types rule out, or a comparison that
    /// cannot hold.
    Mismatch,
    /// A comparison with a text the schema's `enum` does not allow.
    NotInEnum,
}

/// A problem in one expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    /// What kind.
    pub kind: IssueKind,
    /// Where, in the source checked.
    pub span: Span,
    /// What is wrong.
    pub message: String,
    /// What was probably meant.
    pub suggestion: Option<String>,
}

/// A call whose first argument is a literal text (`file("x.yaml")`):
/// a host can check what it names.
#[derive(Debug, Clone, PartialEq)]
pub struct LiteralCall {
    /// The function's name.
    pub name: String,
    /// The first argument.
    pub arg: String,
    /// Where the argument is written.
    pub span: Span,
}
