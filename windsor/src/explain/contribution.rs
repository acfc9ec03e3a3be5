//! One contribution evaluated: what it gives at the path, where it is
//! written, the expression and what that read.

use crate::kind::Strategy;
use crate::template::condition::{Cond, truth};
use crate::template::tmpl::{Evaluator, Tmpl};
use crate::texts::Texts;
use bpvm_vm::reads::reads;

use super::explanation::{Contribution, Role};

/// Who made a contribution and how it folds.
pub(super) struct Origin<'a> {
    pub facet: Option<&'a str>,
    pub file: &'a str,
    /// The value's YAML path in the file.
    pub yaml: String,
    pub ordinal: Option<i64>,
    pub strategy: Strategy,
    pub conditions: Vec<(String, bool)>,
    pub active: bool,
}

/// The conditions of a contribution (its facet's, as the render decided
/// it, then its own, evaluated in the render's scope) and whether they
/// all held.
pub(super) fn conditions(
    ev: &mut Evaluator,
    facet: Option<&Cond>,
    included: bool,
    own: Option<&Cond>,
) -> (Vec<(String, bool)>, bool) {
    let mut out: Vec<(String, bool)> = facet.map(|c| (c.src.clone(), included)).into_iter().collect();
    let mut active = included;
    if let Some(c) = own {
        // An error is no inclusion: the render reported it already.
        let yes = truth(ev, c).unwrap_or(false);
        out.push((c.src.clone(), yes));
        active &= yes;
    }
    (out, active)
}

/// What `origin`'s `body` gives at `steps`; `None` when it neither sets
/// nor removes it.
pub(super) fn contribution(
    ev: &mut Evaluator,
    texts: &mut Texts,
    origin: Origin,
    body: &Tmpl,
    steps: &[&str],
) -> Option<Contribution> {
    let node = node_at(body, steps);
    let (value, error) = match body.eval(ev) {
        Ok(v) => (steps.iter().try_fold(&v, |v, k| v.as_map()?.get(k)).cloned(), None),
        Err(e) => (None, Some(format!("{}: {}", e.at, e.diag.message))),
    };
    if value.is_none() && error.is_none() && origin.strategy != Strategy::Remove {
        return None;
    }
    let (expression, reads) = match node {
        Some(Tmpl::Text { src, prog }) => (Some(src.to_string()), reads(&prog.prog, ev.scope())),
        _ => (None, Vec::new()),
    };

    Some(Contribution {
        facet: origin.facet.map(str::to_string),
        file: texts.shown(origin.file),
        at: texts.locate(origin.file, &origin.yaml),
        ordinal: origin.ordinal,
        strategy: strategy(origin.strategy),
        conditions: origin.conditions,
        value,
        error,
        expression,
        reads,
        role: if origin.active {
            Role::Overridden
        } else {
            Role::Excluded
        },
    })
}

/// The template at `steps` inside `t`, unless it is inside a literal.
fn node_at<'t>(t: &'t Tmpl, steps: &[&str]) -> Option<&'t Tmpl> {
    steps.iter().try_fold(t, |t, step| match t {
        Tmpl::Map(fields) => fields.iter().find(|(k, _)| &**k == *step).map(|(_, v)| v),
        _ => None,
    })
}

fn strategy(s: Strategy) -> &'static str {
    match s {
        Strategy::Merge => "merge",
        Strategy::Replace => "replace",
        Strategy::Remove => "remove",
    }
}
