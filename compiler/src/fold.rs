//! Constant folding: operators whose operands are literals are evaluated at
//! compile time with the very functions the VM runs, so folding cannot
//! change a result. An operation that would fail is left for run time,
//! where its error has a place to point at, and only if it runs. An
//! operand a fold would drop unrun (`false ? x : 1`, `false && x`,
//! `1 ?? x`) is dropped only when nothing in it is checked when compiling,
//! so that its compile errors do not depend on optimisation. Folds of
//! `&&`, `||`, `!` and `?:` follow the [`Logic`] in force: under
//! expr-lang's, nil is not false.

use crate::ast::{Accessor, Binary, Expr, Kind, Link, Unary};
use crate::dialect::Logic;
use bpvm_runtime::{Val, ops};
use bumpalo::Bump;

/// Folds `e` bottom-up in place.
pub fn fold(e: &mut Expr, logic: Logic) {
    // Two calls, so that only the small walk over the parts is on the
    // stack while deeper levels fold.
    fold_parts(e, logic);
    fold_node(e, logic);
}

/// Whether folding (or expr-lang's rewrite of literal operands) can
/// change `e`: only from a node with a literal where it decides — a
/// chain whose first operand is one, an `&&`/`||` with a literal operand
/// anywhere (`x && true`), a prefix operator on one, a ternary on one.
/// A node becomes a literal only by such a fold, so a tree without one
/// folds to itself, and most `when` conditions (paths compared with
/// literals) are spared both walks: they were a tenth of compiling
/// anchor d (callgrind, 1,600 of 15,400 instructions).
pub(crate) fn can_fold(e: &Expr) -> bool {
    let decides = match &e.kind {
        Kind::Chain(first, links) => {
            literal(first).is_some()
                || links.iter().any(|l| {
                    matches!(l.op, Binary::And | Binary::Or) && matches!(l.rhs.kind, Kind::Bool(_) | Kind::Nil)
                })
        }
        Kind::Unary(_, a) => literal(a).is_some(),
        Kind::Ternary(c, _, _) => literal(c).is_some(),
        _ => false,
    };
    let mut found = decides;
    e.for_each_part(|part| found = found || can_fold(part));
    found
}

/// Folds the expressions `e` is made of.
fn fold_parts(e: &mut Expr, logic: Logic) {
    e.for_each_part_mut(|part| fold(part, logic));
}

/// Folds `e` itself, its parts already folded.
fn fold_node(e: &mut Expr, logic: Logic) {
    if let Kind::Chain(first, links) = &mut e.kind {
        fold_chain(e.span.0, first, links, logic);
        if links.is_empty() {
            let first = std::mem::replace(&mut **first, Expr::new(Kind::Nil, e.span));
            *e = first;
        }
        return;
    }
    if let Some(folded) = evaluate(e, logic) {
        *e = folded;
    }
}

/// Folds a chain from the left for as long as the running value is known,
/// dropping the links it took in: `1 + 2 + x` becomes `3 + x`. A folded
/// prefix spans from the chain's `start` to its last operand, as the
/// operation it replaces did.
fn fold_chain(start: u32, first: &mut Expr, links: &mut Vec<Link>, logic: Logic) {
    let mut taken = 0;
    for link in links.iter_mut() {
        let Some(l) = literal(first) else { break };
        let span = (start, link.rhs.span.1);
        // Short-circuit and `??` fold on a literal left side alone; an
        // operand that is never run is dropped only if it compiles.
        match (link.op, l) {
            (Binary::And, Val::Bool(false)) if droppable(&link.rhs) => *first = Expr::new(Kind::Bool(false), span),
            (Binary::And, Val::Nil) if logic == Logic::Windsor && droppable(&link.rhs) => {
                *first = Expr::new(Kind::Bool(false), span)
            }
            (Binary::Or, Val::Bool(true)) if droppable(&link.rhs) => *first = Expr::new(Kind::Bool(true), span),
            (Binary::Coalesce, Val::Nil) => *first = std::mem::replace(&mut link.rhs, Expr::new(Kind::Nil, span)),
            (Binary::Coalesce, _) if droppable(&link.rhs) => {}
            (op, l) => {
                let Some(r) = literal(&link.rhs) else { break };
                let Some(kind) = apply(op, link.not, l, r, logic) else {
                    break;
                };
                *first = Expr::new(kind, span);
            }
        }
        taken += 1;
    }
    links.drain(..taken);
}

/// `l op r` for two literals (negated for a `not` operator), when it
/// succeeds.
fn apply(op: Binary, not: bool, l: Val<'_>, r: Val<'_>, logic: Logic) -> Option<Kind> {
    let arena = Bump::new();
    let truth = |v| match v {
        Val::Bool(b) => Some(b),
        Val::Nil => Some(false),
        _ => None,
    };
    let v = match (op, logic) {
        (Binary::And, Logic::Windsor) => Val::Bool(truth(l)? && truth(r)?),
        (Binary::Or, Logic::Windsor) => Val::Bool(truth(l)? || truth(r)?),
        // The deciding literal was folded before; the other is followed
        // by the right operand as it is.
        (Binary::And, Logic::ExprLang) => match l {
            Val::Bool(true) => r,
            _ => return None,
        },
        (Binary::Or, Logic::ExprLang) => match l {
            Val::Bool(false) => r,
            _ => return None,
        },
        (Binary::Eq, _) => Val::Bool(ops::equal(l, r)),
        (Binary::Ne, _) => Val::Bool(!ops::equal(l, r)),
        (Binary::Lt, _) => Val::Bool(ops::compare(l, r).ok()?.is_lt()),
        (Binary::Le, _) => Val::Bool(ops::compare(l, r).ok()?.is_le()),
        (Binary::Gt, _) => Val::Bool(ops::compare(l, r).ok()?.is_gt()),
        (Binary::Ge, _) => Val::Bool(ops::compare(l, r).ok()?.is_ge()),
        (Binary::Add, _) => ops::add(&arena, l, r).ok()?,
        (Binary::Sub, _) => ops::sub(l, r).ok()?,
        (Binary::Mul, _) => ops::mul(l, r).ok()?,
        (Binary::Div, _) => ops::div(l, r).ok()?,
        (Binary::Mod, _) => ops::rem(l, r).ok()?,
        (Binary::Pow, _) => ops::pow(l, r).ok()?,
        (Binary::Contains, _) => Val::Bool(ops::string_test(l, r, |x, y| x.contains(y)).ok()?),
        (Binary::StartsWith, _) => Val::Bool(ops::string_test(l, r, |x, y| x.starts_with(y)).ok()?),
        (Binary::EndsWith, _) => Val::Bool(ops::string_test(l, r, |x, y| x.ends_with(y)).ok()?),
        // A range is built when it runs: folded, `1..1000000` would be a
        // million-item constant in the program.
        (Binary::In | Binary::NotIn | Binary::Matches | Binary::Coalesce | Binary::Range, _) => return None,
    };
    match (not, v) {
        (false, v) => to_kind(v),
        (true, Val::Bool(b)) => Some(Kind::Bool(!b)),
        (true, _) => None,
    }
}

/// The value of a scalar literal (`nil`, `true`, `1`, `2.5`, `'a'`).
pub(crate) fn literal(e: &Expr) -> Option<Val<'_>> {
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
        Val::Str(s) => Kind::Str(s.into()),
        _ => return None,
    })
}

/// What `e` folds to: a literal in `e`'s place, or the one operand that
/// is always chosen (keeping that operand's own span, so its run-time
/// errors point at it).
fn evaluate(e: &Expr, logic: Logic) -> Option<Expr> {
    let literal_at = |kind: Option<Kind>| kind.map(|k| Expr::new(k, e.span));
    match &e.kind {
        Kind::Unary(op, a) => {
            let a = literal(a)?;
            let v = match (op, a) {
                (Unary::Not, Val::Bool(b)) => Val::Bool(!b),
                (Unary::Not, Val::Nil) if logic == Logic::Windsor => Val::Bool(true),
                (Unary::Neg, v) => ops::neg(v).ok()?,
                (Unary::Plus, v @ (Val::Int(_) | Val::Float(_))) => v,
                _ => return None,
            };
            literal_at(to_kind(v))
        }
        Kind::Ternary(c, a, b) => match literal(c)? {
            Val::Bool(true) if droppable(b) => Some((**a).clone()),
            Val::Bool(false) if droppable(a) => Some((**b).clone()),
            Val::Nil if logic == Logic::Windsor && droppable(a) => Some((**b).clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `e` compiles wherever it is, so that folding may drop it
/// unseen: nothing in it is checked when compiling (a call's function
/// and argument types, a `matches` pattern, a `#` outside a predicate).
/// An operand that may not compile is kept, so that its compile error
/// does not depend on optimisation: expr-lang's checker reports those in
/// a branch never taken as well.
fn droppable(e: &Expr) -> bool {
    match &e.kind {
        Kind::Nil | Kind::Bool(_) | Kind::Int(_) | Kind::Float(_) | Kind::Str(_) | Kind::Ident(_) => true,
        Kind::Access(base, steps) => {
            droppable(base)
                && steps.iter().all(|s| match &s.op {
                    Accessor::Member(_) => true,
                    Accessor::Index(i) => droppable(i),
                    Accessor::Slice(from, to) => from.iter().chain(to.iter()).all(|x| droppable(x)),
                })
        }
        Kind::Unary(_, a) => droppable(a),
        Kind::Chain(first, links) => {
            droppable(first) && links.iter().all(|l| l.op != Binary::Matches && droppable(&l.rhs))
        }
        Kind::Ternary(c, a, b) => droppable(c) && droppable(a) && droppable(b),
        Kind::List(items) => items.iter().all(droppable),
        Kind::Map(entries) => entries.iter().all(|(k, v)| droppable(k) && droppable(v)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `source:` of the golden files (windsor's) and a few more.
    fn sources() -> Vec<String> {
        let golden = ["codegen", "logic", "peephole"]
            .map(|f| std::fs::read_to_string(format!("{}/tests/golden/{f}.txt", env!("CARGO_MANIFEST_DIR"))).unwrap());
        let mut out: Vec<String> = golden
            .iter()
            .flat_map(|text| text.lines().filter_map(|l| l.strip_prefix("source: ")))
            .map(str::to_string)
            .collect();
        out.extend(
            [
                "x && true",
                "x || !false",
                "x ?? 1 + 1",
                "x + 1 + 2",
                "true ? x : y",
                "x ? true : false",
                "[1 + 1, x]",
                "f(1 % 0, x)",
                "x && (y || nil)",
                "-(1) + x",
                "x[1 + 1]",
            ]
            .map(str::to_string),
        );
        out
    }

    #[test]
    fn a_tree_that_cannot_fold_is_left_as_it_is() {
        let (mut left_alone, mut folded) = (0, 0);
        for src in sources() {
            let Ok(tree) = crate::windsor::parse::parse(&src, 0, src.len()) else {
                continue;
            };
            if can_fold(&tree) {
                folded += 1;
                continue;
            }
            left_alone += 1;
            for logic in [Logic::Windsor, Logic::ExprLang] {
                let mut e = tree.clone();
                if logic == Logic::ExprLang {
                    crate::logic::rewrite(&mut e, &src).unwrap();
                }
                fold(&mut e, logic);
                assert_eq!(e, tree, "{src} ({logic:?})");
            }
        }
        // Both kinds are among them, so that the test says something.
        assert!(
            left_alone >= 30 && folded >= 10,
            "{left_alone} left alone, {folded} may fold"
        );
    }
}
