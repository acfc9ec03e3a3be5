//! Every rule `bpvm check` can report, from both languages and the
//! engine: what a configuration's `rules:` may name. A leaf: the check's
//! run and its configuration's reader and schema import it.

use super::ignore::{INVALID_IGNORE, UNUSED_IGNORE};
use bpvm_checker::Rule;

/// Every rule a check can report, shared ones first, then Windsor's and
/// Bluelink's, each once, then those about `bpvm:ignore` comments.
///
/// ```
/// let ids: Vec<&str> = bpvm::check::rules().iter().map(|r| r.id).collect();
/// assert!(ids.contains(&"unknown-path") && ids.contains(&"schema-violation"));
/// ```
pub fn rules() -> Vec<&'static Rule> {
    let mut out: Vec<&'static Rule> = Vec::new();
    for set in [
        bpvm_checker::rules::SHARED,
        bpvm_windsor::check::RULES,
        bpvm_bluelink::check::RULES,
        &[&UNUSED_IGNORE, &INVALID_IGNORE],
    ] {
        for r in set {
            if !out.iter().any(|o| o.id == r.id) {
                out.push(r);
            }
        }
    }
    out
}

/// The ids of [`rules`]: what a configuration's `rules:` may name.
///
/// ```
/// assert!(bpvm::check::rule_ids().contains(&"unknown-field"));
/// ```
pub fn rule_ids() -> Vec<&'static str> {
    rules().iter().map(|r| r.id).collect()
}
