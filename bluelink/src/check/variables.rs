//! The variables an include passes, against those its child declares: a
//! render refuses a name the child does not declare, and a child's
//! variable without a default that is not passed.

use super::children::Child;
use super::rules::{MISSING_CHILD_VARIABLE, UNKNOWN_CHILD_VARIABLE};
use crate::Pos;
use crate::blueprint::Blueprint;
use crate::place::Lines;
use bpvm_checker::Finding;

/// The findings about what each include of `bp` passes its child. A
/// variable not passed that an unknown name passed is probably meant for
/// is reported once, as the unknown name with its did-you-mean.
pub(super) fn child_variables(
    bp: &Blueprint,
    file: &str,
    lines: &Lines<'_>,
    children: &[Option<Child>],
) -> Vec<Finding> {
    let mut out = Vec::new();
    for (inc, child) in bp.includes.iter().zip(children) {
        let Some(child) = child else { continue };
        let declared: Vec<&str> = child.variables.iter().map(|(n, _)| n.as_str()).collect();
        let mut meant = Vec::new();
        for (name, at) in &inc.variable_keys {
            if declared.contains(&name.as_str()) {
                continue;
            }
            let path = format!("include.{}.variables.{name}", inc.name);
            let message = format!("{} has no variable {name:?}", child.file);
            let mut f = Finding::new(&UNKNOWN_CHILD_VARIABLE, file, path, message);
            if let Some(s) = bpvm_runtime::suggest::closest(name, &declared) {
                meant.push(s);
                f = f.suggest(s);
            }
            out.push(placed(f, lines, *at, name));
        }
        for (name, _) in child.variables.iter().filter(|(_, default)| !default) {
            if inc.variable_keys.iter().any(|(k, _)| k == name) || meant.contains(&name.as_str()) {
                continue;
            }
            let message = format!(
                "{} declares the variable {name:?} without a default, and the include does not pass it",
                child.file
            );
            let f = Finding::new(&MISSING_CHILD_VARIABLE, file, format!("include.{}", inc.name), message);
            out.push(placed(f, lines, inc.at, &inc.name));
        }
    }
    out
}

/// `f` at the key `key` that starts at `at`.
fn placed(mut f: Finding, lines: &Lines<'_>, at: Pos, key: &str) -> Finding {
    let place = lines.at(at);
    f.line = place.line;
    f.column = place.column;
    f.width = key.chars().count().max(1);
    f.source = place.source;
    f
}
