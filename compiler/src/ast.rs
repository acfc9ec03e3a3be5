//! The syntax tree both front ends produce and the code generator consumes.

use bpvm_vm::Loop;

/// A name or a string literal's text: held inline up to 24 bytes, which
/// almost every name and literal of a `when` is (allocating each was a
/// fifth of compiling one).
pub type Name = compact_str::CompactString;

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
    Str(Name),
    /// A bytes literal (`b'…'`, escapes already applied).
    Bytes(Vec<u8>),
    /// A name: a let binding, else a top-level name of the environment.
    Ident(Name),
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
    /// `let name = value; body`; with an empty name, `value; body` (a
    /// sequence: the value is computed, then set aside).
    Let(Name, Box<Expr>, Box<Expr>),
    /// A function named as a value (Bluelink: `map(xs, to_upper)`).
    FuncRef(Name),
}

/// The builtin that takes a predicate named `name`, if it is one, and
/// the loop it compiles to ([`Kind::Predicate`]); the library does not
/// hold these. A `match` rather than a list: the checker asks this of
/// every name it meets.
pub(crate) fn predicate(name: &str) -> Option<Loop> {
    Some(match name {
        "filter" => Loop::Filter,
        "map" => Loop::Map,
        "all" => Loop::All,
        "any" => Loop::Any,
        "none" => Loop::None,
        "one" => Loop::One,
        "count" => Loop::Count,
        "find" => Loop::Find,
        "findIndex" => Loop::FindIndex,
        "findLast" => Loop::FindLast,
        "findLastIndex" => Loop::FindLastIndex,
        "groupBy" => Loop::GroupBy,
        "sortBy" => Loop::SortBy,
        "reduce" => Loop::Reduce,
        _ => return None,
    })
}

/// The builtins that take a predicate, each with the fewest and most
/// arguments a call gives it (the predicate counted): what `predicate`
/// recognises, for an editor to offer. The parser checks a call's
/// arguments against the same counts (a test holds them together).
///
/// ```
/// use bpvm_compiler::ast::PREDICATES;
/// assert!(PREDICATES.contains(&("reduce", 2, 3)));
/// ```
pub const PREDICATES: &[(&str, u8, u8)] = &[
    ("filter", 2, 2),
    ("map", 2, 2),
    ("all", 2, 2),
    ("any", 2, 2),
    ("none", 2, 2),
    ("one", 2, 2),
    ("count", 1, 2),
    ("find", 2, 2),
    ("findIndex", 2, 2),
    ("findLast", 2, 2),
    ("findLastIndex", 2, 2),
    ("groupBy", 2, 2),
    ("sortBy", 2, 3),
    ("reduce", 2, 3),
];

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
    Member(Name),
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
    /// Whether every argument is a literal as written, before any
    /// rewrite or folding: such a call's argument types are checked when
    /// compiling, as expr-lang's checker types them.
    pub literal_args: bool,
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
    /// `||` (`or`).
    Or,
    /// `&&` (`and`).
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `in`: an item of a list or a key of a map.
    In,
    /// `not in`.
    NotIn,
    /// `matches`: a regular expression.
    Matches,
    /// `contains` (strings).
    Contains,
    /// `startsWith`.
    StartsWith,
    /// `endsWith`.
    EndsWith,
    /// `+`: numbers, or strings joined.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/` (always a float).
    Div,
    /// `%` (integers).
    Mod,
    /// `**` (always a float).
    Pow,
    /// `??`: the left value unless it is nil.
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

    /// Calls `f` on each expression `self` is made of, in source order.
    pub fn for_each_part<'e>(&'e self, mut f: impl FnMut(&'e Expr)) {
        match &self.kind {
            Kind::Access(base, steps) => {
                f(base);
                for step in steps {
                    match &step.op {
                        Accessor::Member(_) => {}
                        Accessor::Index(i) => f(i),
                        Accessor::Slice(from, to) => from.iter().chain(to.iter()).for_each(|x| f(x)),
                    }
                }
            }
            Kind::Unary(_, a) => f(a),
            Kind::Chain(first, links) => {
                f(first);
                links.iter().for_each(|l| f(&l.rhs));
            }
            Kind::Ternary(a, b, c) => [a, b, c].into_iter().for_each(|x| f(x)),
            Kind::List(items) => items.iter().for_each(f),
            Kind::Map(entries) => entries.iter().for_each(|(k, v)| {
                f(k);
                f(v);
            }),
            Kind::Call(call) => {
                call.args.iter().for_each(&mut f);
                call.named.iter().for_each(|(_, _, v)| f(v));
            }
            Kind::Predicate(_, args, body) => {
                args.iter().for_each(&mut f);
                f(body);
            }
            Kind::Let(_, v, body) => {
                f(v);
                f(body);
            }
            _ => {}
        }
    }

    /// [`Expr::for_each_part`], for changing the parts.
    pub fn for_each_part_mut(&mut self, mut f: impl FnMut(&mut Expr)) {
        match &mut self.kind {
            Kind::Access(base, steps) => {
                f(base);
                for step in steps {
                    match &mut step.op {
                        Accessor::Member(_) => {}
                        Accessor::Index(i) => f(i),
                        Accessor::Slice(from, to) => from.iter_mut().chain(to.iter_mut()).for_each(|x| f(x)),
                    }
                }
            }
            Kind::Unary(_, a) => f(a),
            Kind::Chain(first, links) => {
                f(first);
                links.iter_mut().for_each(|l| f(&mut l.rhs));
            }
            Kind::Ternary(a, b, c) => [a, b, c].into_iter().for_each(|x| f(x)),
            Kind::List(items) => items.iter_mut().for_each(f),
            Kind::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
                f(k);
                f(v);
            }),
            Kind::Call(call) => {
                call.args.iter_mut().for_each(&mut f);
                call.named.iter_mut().for_each(|(_, _, v)| f(v));
            }
            Kind::Predicate(_, args, body) => {
                args.iter_mut().for_each(&mut f);
                f(body);
            }
            Kind::Let(_, v, body) => {
                f(v);
                f(body);
            }
            _ => {}
        }
    }

    /// The tree as an S-expression: one line of text that shows its
    /// structure and nothing else (no spans), the same for every tree of
    /// the same shape. Tests state parse results in it.
    ///
    /// | kind | form |
    /// | --- | --- |
    /// | nil, bool, int | `nil`, `true`, `42` |
    /// | float | `2.5`, `2.0` (always with a fraction or exponent) |
    /// | string | `"a \"b\""`, quoted as Rust's `{:?}` quotes |
    /// | name | `variables` |
    /// | accessors | `(get base .name ."quoted.name" [0] [1:2])` |
    /// | call | `(call name arg… key=arg…)` |
    /// | function value | `(fn name)` |
    /// | list, map | `(list a b)`, `(map (k v)…)` |
    /// | prefix operator | `(! x)`, `(- x)`, `(+ x)` |
    /// | infix operators | `(+ (+ a b) c)`, left to right; `(not in a b)` |
    /// | `?:` | `(?: cond then else)` |
    /// | predicate | `(Filter list… body)`, with `#`, `#index`, `#acc` |
    /// | `let` | `(let name value body)` |
    ///
    /// A name after `.` is quoted unless it is a plain name
    /// (`[A-Za-z_][A-Za-z0-9_-]*`).
    ///
    /// ```
    /// use bpvm_compiler::{Compiler, Dialect};
    /// let src = r#"join(resources.orders.spec["table.v1"][], ",")"#;
    /// let e = Compiler::new(Dialect::Bluelink).optimize(false).parse(src, 0, src.len()).unwrap();
    /// assert_eq!(e.sexpr(), r#"(call join (get resources .orders .spec ."table.v1" [0]) ",")"#);
    /// ```
    pub fn sexpr(&self) -> String {
        let mut out = String::new();
        self.write_sexpr(&mut out);
        out
    }

    fn write_sexpr(&self, out: &mut String) {
        use std::fmt::Write;
        match &self.kind {
            Kind::Nil => out.push_str("nil"),
            Kind::Bool(b) => write!(out, "{b}").unwrap(),
            Kind::Int(i) => write!(out, "{i}").unwrap(),
            Kind::Float(f) => write!(out, "{f:?}").unwrap(),
            Kind::Str(s) => write!(out, "{s:?}").unwrap(),
            Kind::Bytes(b) => write!(out, "b{:?}", String::from_utf8_lossy(b)).unwrap(),
            Kind::Ident(name) => out.push_str(name),
            Kind::Access(base, steps) => write_access(out, base, steps),
            Kind::Unary(op, x) => {
                let head = match op {
                    Unary::Not => "!",
                    Unary::Neg => "-",
                    Unary::Plus => "+",
                };
                write_list(out, head, &[x]);
            }
            Kind::Chain(first, links) => write_chain(out, first, links),
            Kind::Ternary(c, a, b) => write_list(out, "?:", &[c, a, b]),
            Kind::List(items) => write_list(out, "list", &items.iter().collect::<Vec<_>>()),
            Kind::Map(pairs) => {
                out.push_str("(map");
                for (k, v) in pairs {
                    out.push_str(" (");
                    k.write_sexpr(out);
                    out.push(' ');
                    v.write_sexpr(out);
                    out.push(')');
                }
                out.push(')');
            }
            Kind::Call(call) => write_call(out, call),
            Kind::Predicate(l, args, body) => {
                let mut items: Vec<&Expr> = args.iter().collect();
                items.push(body);
                write_list(out, &format!("{l:?}"), &items);
            }
            Kind::Item => out.push('#'),
            Kind::ItemIndex => out.push_str("#index"),
            Kind::Acc => out.push_str("#acc"),
            Kind::Let(name, value, body) => write_list(out, &format!("let {name}"), &[value, body]),
            Kind::FuncRef(name) => write!(out, "(fn {name})").unwrap(),
        }
    }
}

/// `(head item…)`.
fn write_list(out: &mut String, head: &str, items: &[&Expr]) {
    out.push('(');
    out.push_str(head);
    for item in items {
        out.push(' ');
        item.write_sexpr(out);
    }
    out.push(')');
}

/// `(get base .name [index] [from:to]…)`.
fn write_access(out: &mut String, base: &Expr, steps: &[Step]) {
    use std::fmt::Write;
    out.push_str("(get ");
    base.write_sexpr(out);
    for step in steps {
        out.push(' ');
        match &step.op {
            Accessor::Member(name) if is_plain_name(name) => write!(out, ".{name}").unwrap(),
            Accessor::Member(name) => write!(out, ".{name:?}").unwrap(),
            Accessor::Index(i) => {
                out.push('[');
                i.write_sexpr(out);
                out.push(']');
            }
            Accessor::Slice(from, to) => {
                out.push('[');
                if let Some(from) = from {
                    from.write_sexpr(out);
                }
                out.push(':');
                if let Some(to) = to {
                    to.write_sexpr(out);
                }
                out.push(']');
            }
        }
    }
    out.push(')');
}

/// A comparison chain, left to right: every link's `(op ` first,
/// innermost last.
fn write_chain(out: &mut String, first: &Expr, links: &[Link]) {
    for link in links.iter().rev() {
        out.push('(');
        if link.not {
            out.push_str("not ");
        }
        out.push_str(link.op.text());
        out.push(' ');
    }
    first.write_sexpr(out);
    for link in links {
        out.push(' ');
        link.rhs.write_sexpr(out);
        out.push(')');
    }
}

/// `(call name arg… key=arg…)`.
fn write_call(out: &mut String, call: &Call) {
    use std::fmt::Write;
    write!(out, "(call {}", call.name).unwrap();
    for arg in &call.args {
        out.push(' ');
        arg.write_sexpr(out);
    }
    for (name, _, arg) in &call.named {
        write!(out, " {name}=").unwrap();
        arg.write_sexpr(out);
    }
    out.push(')');
}

/// Whether `name` is written bare after `.` in [`Expr::sexpr`].
fn is_plain_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
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
