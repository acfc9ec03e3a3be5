//! The syntax tree both front ends produce and the code generator consumes.

use bpvm_vm::Loop;

/// A byte range of the source: `start..end`.
pub type Span = (u32, u32);

/// An expression and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// What it is.
    pub kind: Kind,
    /// Where it is.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `nil` / `none`.
    Nil,
    /// `true` / `false`.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A string literal (escapes already applied).
    Str(String),
    /// A name: a let binding, else a top-level name of the environment.
    Ident(String),
    /// A base and the accessors after it (`base.key[0][from:to]`), in one
    /// list: a chain of a million accessors is as flat as one of two, so
    /// no pass recurses along it.
    Access(Box<Expr>, Vec<Step>),
    /// A prefix operator.
    Unary(Unary, Box<Expr>),
    /// Infix operators of one precedence applied left to right:
    /// `first op x op y …`. Like [`Kind::Access`], flat however long; a
    /// right-associative `**` has one link and nests in its right operand.
    Chain(Box<Expr>, Vec<Link>),
    /// `cond ? then : else`.
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `[a, b]`.
    List(Vec<Expr>),
    /// `{k: v}`.
    Map(Vec<(Expr, Expr)>),
    /// `name(args…)`, `name(key = value…)` for named arguments (boxed:
    /// the largest kind, it would make every expression as large).
    Call(Box<Call>),
    /// A predicate builtin: the list (and other plain arguments) and the body
    /// evaluated per item.
    Predicate(Loop, Vec<Expr>, Box<Expr>),
    /// `#`.
    Item,
    /// `#index`.
    ItemIndex,
    /// `#acc`.
    Acc,
    /// `let name = value; body`.
    Let(String, Box<Expr>, Box<Expr>),
    /// A function named as a value (Bluelink: `map(xs, to_upper)`).
    FuncRef(String),
}

/// One accessor of a [`Kind::Access`].
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// What it reads.
    pub op: Accessor,
    /// Where it ends: the expression up to and including it is
    /// `access.span.0..end`.
    pub end: u32,
}

/// What an accessor reads.
#[derive(Debug, Clone, PartialEq)]
pub enum Accessor {
    /// `.key`, `?.key`, `["key"]`.
    Member(String),
    /// `[index]`, the index computed or constant.
    Index(Box<Expr>),
    /// `[from:to]`.
    Slice(Option<Box<Expr>>, Option<Box<Expr>>),
}

/// One operator and its right operand in a [`Kind::Chain`].
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The operator.
    pub op: Binary,
    /// Set for `not matches`, `not contains`, `not startsWith` and
    /// `not endsWith`: the operator's result is negated.
    pub not: bool,
    /// The right operand.
    pub rhs: Expr,
}

/// A function call.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The function's name.
    pub name: String,
    /// Where the name is.
    pub name_span: Span,
    /// Positional arguments.
    pub args: Vec<Expr>,
    /// Named arguments (`object(a = 1)`), in order.
    pub named: Vec<(String, Span, Expr)>,
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unary {
    /// `!x`, `not x`.
    Not,
    /// `-x`.
    Neg,
    /// `+x`.
    Plus,
}

/// Infix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binary {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Matches,
    Contains,
    StartsWith,
    EndsWith,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    Coalesce,
    /// `a..b`: the integers from a to b, both included.
    Range,
}

impl Binary {
    /// Whether the operator compares or tests its operands, and so always
    /// gives a bool.
    pub fn tests(self) -> bool {
        matches!(
            self,
            Binary::Eq
                | Binary::Ne
                | Binary::Lt
                | Binary::Le
                | Binary::Gt
                | Binary::Ge
                | Binary::In
                | Binary::NotIn
                | Binary::Matches
                | Binary::Contains
                | Binary::StartsWith
                | Binary::EndsWith
        )
    }

    /// The operator as written, for messages.
    pub fn text(self) -> &'static str {
        match self {
            Binary::Or => "||",
            Binary::And => "&&",
            Binary::Eq => "==",
            Binary::Ne => "!=",
            Binary::Lt => "<",
            Binary::Le => "<=",
            Binary::Gt => ">",
            Binary::Ge => ">=",
            Binary::In => "in",
            Binary::NotIn => "not in",
            Binary::Matches => "matches",
            Binary::Contains => "contains",
            Binary::StartsWith => "startsWith",
            Binary::EndsWith => "endsWith",
            Binary::Add => "+",
            Binary::Sub => "-",
            Binary::Mul => "*",
            Binary::Div => "/",
            Binary::Mod => "%",
            Binary::Pow => "**",
            Binary::Range => "..",
            Binary::Coalesce => "??",
        }
    }
}

impl Expr {
    /// Builds an expression.
    pub fn new(kind: Kind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

/// `base` with `steps` after it (`base` itself when there are none).
pub fn access(base: Expr, steps: Vec<Step>) -> Expr {
    match steps.last() {
        None => base,
        Some(last) => {
            let span = (base.span.0, last.end);
            Expr::new(Kind::Access(Box::new(base), steps), span)
        }
    }
}
