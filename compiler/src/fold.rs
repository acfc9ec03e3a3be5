//! Constant folding: operators whose operands are literals are evaluated at
//! compile time with the very functions the VM runs, so folding cannot
//! change a result. An operation that would fail is left for run time,
//! where its error has a place to point at.

use crate::ast::{Binary, Expr, Kind, Unary};
use bpvm_runtime::{Val, ops};
use bumpalo::Bump;

/// Folds `e` bottom-up in place.
pub fn fold(e: &mut Expr) {
    match &mut e.kind {
        Kind::Member(base, _) => fold(base),
        Kind::Index(a, b) => {
            fold(a);
            fold(b);
        }
        Kind::Slice(a, b, c) => {
            fold(a);
            b.iter_mut().chain(c.iter_mut()).for_each(|x| fold(x));
        }
        Kind::Unary(_, a) => fold(a),
        Kind::Binary(_, a, b) => {
            fold(a);
            fold(b);
        }
        Kind::Ternary(a, b, c) => {
            fold(a);
            fold(b);
            fold(c);
        }
        Kind::List(items) => items.iter_mut().for_each(fold),
        Kind::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            fold(k);
            fold(v);
        }),
        Kind::Call(call) => {
            call.args.iter_mut().for_each(fold);
            call.named.iter_mut().for_each(|(_, _, v)| fold(v));
        }
        Kind::Predicate(_, args, body) => {
            args.iter_mut().for_each(fold);
            fold(body);
        }
        Kind::Let(_, v, body) => {
            fold(v);
            fold(body);
        }
        _ => {}
    }
    if let Some(folded) = evaluate(e) {
        *e = folded;
    }
}

fn literal(e: &Expr) -> Option<Val<'_>> {
    Some(match &e.kind {
        Kind::Nil => Val::Nil,
        Kind::Bool(b) => Val::Bool(*b),
        Kind::Int(i) => Val::Int(*i),
        Kind::Float(f) => Val::Float(*f),
        Kind::Str(s) => Val::Str(s),
        _ => return None,
    })
}

fn to_kind(v: Val<'_>) -> Option<Kind> {
    Some(match v {
        Val::Nil => Kind::Nil,
        Val::Bool(b) => Kind::Bool(b),
        Val::Int(i) => Kind::Int(i),
        Val::Float(f) => Kind::Float(f),
        Val::Str(s) => Kind::Str(s.to_string()),
        _ => return None,
    })
}

/// What `e` folds to: a literal in `e`'s place, or the one operand that
/// is always chosen (keeping that operand's own span, so its run-time
/// errors point at it).
fn evaluate(e: &Expr) -> Option<Expr> {
    let literal_at = |kind: Option<Kind>| kind.map(|k| Expr::new(k, e.span));
    let arena = Bump::new();
    match &e.kind {
        Kind::Unary(op, a) => {
            let a = literal(a)?;
            let v = match (op, a) {
                (Unary::Not, Val::Bool(b)) => Val::Bool(!b),
                (Unary::Not, Val::Nil) => Val::Bool(true),
                (Unary::Neg, v) => ops::neg(v).ok()?,
                (Unary::Plus, v @ (Val::Int(_) | Val::Float(_))) => v,
                _ => return None,
            };
            literal_at(to_kind(v))
        }
        Kind::Binary(op, a, b) => {
            // Short-circuit and `??` fold on a literal left side alone.
            if let Some(l) = literal(a) {
                match (op, l) {
                    (Binary::And, Val::Bool(false) | Val::Nil) => return literal_at(Some(Kind::Bool(false))),
                    (Binary::Or, Val::Bool(true)) => return literal_at(Some(Kind::Bool(true))),
                    (Binary::Coalesce, Val::Nil) => return Some((**b).clone()),
                    (Binary::Coalesce, _) => return Some((**a).clone()),
                    _ => {}
                }
            }
            let (l, r) = (literal(a)?, literal(b)?);
            let truth = |v| match v {
                Val::Bool(b) => Some(b),
                Val::Nil => Some(false),
                _ => None,
            };
            let v = match op {
                Binary::And => Val::Bool(truth(l)? && truth(r)?),
                Binary::Or => Val::Bool(truth(l)? || truth(r)?),
                Binary::Eq => Val::Bool(ops::equal(l, r)),
                Binary::Ne => Val::Bool(!ops::equal(l, r)),
                Binary::Lt => Val::Bool(ops::compare(l, r).ok()?.is_lt()),
                Binary::Le => Val::Bool(ops::compare(l, r).ok()?.is_le()),
                Binary::Gt => Val::Bool(ops::compare(l, r).ok()?.is_gt()),
                Binary::Ge => Val::Bool(ops::compare(l, r).ok()?.is_ge()),
                Binary::Add => ops::add(&arena, l, r).ok()?,
                Binary::Sub => ops::sub(l, r).ok()?,
                Binary::Mul => ops::mul(l, r).ok()?,
                Binary::Div => ops::div(l, r).ok()?,
                Binary::Mod => ops::rem(l, r).ok()?,
                Binary::Pow => ops::pow(l, r).ok()?,
                Binary::Contains => Val::Bool(ops::string_test(l, r, |x, y| x.contains(y)).ok()?),
                Binary::StartsWith => Val::Bool(ops::string_test(l, r, |x, y| x.starts_with(y)).ok()?),
                Binary::EndsWith => Val::Bool(ops::string_test(l, r, |x, y| x.ends_with(y)).ok()?),
                Binary::In | Binary::NotIn | Binary::Matches | Binary::Coalesce => return None,
            };
            literal_at(to_kind(v))
        }
        Kind::Ternary(c, a, b) => match literal(c)? {
            Val::Bool(true) => Some((**a).clone()),
            Val::Bool(false) | Val::Nil => Some((**b).clone()),
            _ => None,
        },
        _ => None,
    }
}
