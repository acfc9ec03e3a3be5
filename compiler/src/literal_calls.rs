//! Which calls have only literal arguments as written. expr-lang's
//! checker types a program before its optimiser runs, so a builtin given
//! a literal of the wrong type (`upper(1)`, `bitnot(2.5)`) is refused
//! when compiling, even in a branch that never runs. bpvm checks such
//! calls in code generation, after folding and expr-lang's logic
//! rewrites may have turned other arguments into literals
//! (`trimPrefix(false startsWith nil)` → `trimPrefix(false)`): marking
//! the calls on the tree as parsed keeps the compile errors the same with
//! and without optimisation.

use crate::ast::{Expr, Kind, Unary};
use bpvm_runtime::Val;

/// Sets [`crate::ast::Call::literal_args`] on every call in `e`.
pub fn mark(e: &mut Expr) {
    if let Kind::Call(call) = &mut e.kind {
        call.literal_args = call.named.is_empty() && call.args.iter().all(is_literal);
    }
    e.for_each_part_mut(mark);
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
