//! Which calls have only literal arguments as written. expr-lang's
//! checker types a program before its optimiser runs, so a builtin given
//! a literal of the wrong type (`upper(1)`, `bitnot(2.5)`) is refused
//! when compiling, even in a branch that never runs. bpvm checks such
//! calls in code generation, after folding and expr-lang's logic
//! rewrites may have turned other arguments into literals
//! (`trimPrefix(false startsWith nil)` → `trimPrefix(false)`): marking
//! the calls as they are parsed keeps the compile errors the same with
//! and without optimisation.

use crate::ast::{Expr, Kind, Unary};
use bpvm_runtime::Val;

/// Whether a call with these arguments has only literal arguments as
/// written: the value of [`crate::ast::Call::literal_args`], set by the
/// parsers when they build the call (a walk of the tree afterwards was
/// 2 % of compiling a short `when`).
pub fn all_literal(args: &[Expr], named: &[(String, crate::ast::Span, Expr)]) -> bool {
    named.is_empty() && args.iter().all(is_literal)
}

fn is_literal(e: &Expr) -> bool {
    value(e).is_some()
}

/// The value of a literal as expr-lang's checker types one: a scalar, or
/// a number with a sign.
pub fn value(e: &Expr) -> Option<Val<'_>> {
    if let Some(v) = crate::fold::literal(e) {
        return Some(v);
    }
    Some(match &e.kind {
        Kind::Unary(sign @ (Unary::Neg | Unary::Plus), x) => match (sign, &x.kind) {
            (Unary::Neg, Kind::Int(i)) => Val::Int(i.checked_neg()?),
            (Unary::Neg, Kind::Float(f)) => Val::Float(-f),
            (_, Kind::Int(i)) => Val::Int(*i),
            (_, Kind::Float(f)) => Val::Float(*f),
            _ => return None,
        },
        _ => return None,
    })
}
