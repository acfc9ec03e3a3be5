//! Every substitution of a blueprint checked against the types of what it
//! reads: each issue the checker finds becomes a finding at the part of
//! the string it is about.

use super::children::Child;
use super::place::{Lines, Place};
use super::rules::UNKNOWN_EXPORT;
use crate::blueprint::Blueprint;
use crate::sub::{Ref, Sub};
use bpvm_checker::rules::INVALID_TEMPLATE;
use bpvm_checker::{Checked, Checker, Finding, Issue, IssueKind, Ty};
use bpvm_compiler::{Compiler, Dialect};
use bpvm_runtime::Diagnostic;
use std::collections::{HashMap, HashSet};

/// What the substitutions of `bp` (named `file`, its text in `lines`)
/// get wrong, read against `scope`.
pub(super) fn check_subs(
    bp: &Blueprint,
    file: &str,
    lines: &Lines<'_>,
    scope: &Ty,
    children: &[Option<Child>],
) -> Vec<Finding> {
    let mut checker = Checker::new(Compiler::new(Dialect::Bluelink));
    // An export's `field` is a bare reference, not a string with `${..}`.
    let fields: HashSet<*const Sub> = bp.exports.iter().map(|x| &x.field as *const Sub).collect();
    // A text written in many places is checked once: the scope is the
    // same everywhere.
    let mut seen: HashMap<(&str, bool), Result<Checked, Diagnostic>> = HashMap::new();
    let mut out = Vec::new();
    for sub in bp.subs() {
        let text = sub.text();
        let bare = fields.contains(&(sub as *const Sub));
        let checked = seen
            .entry((text, bare))
            .or_insert_with(|| {
                if bare {
                    checker.expression(text, scope)
                } else {
                    checker.template(text, scope)
                }
            })
            .clone();
        match checked {
            Ok(c) => {
                for issue in c.issues {
                    out.push(finding(bp, file, lines, sub, issue, children));
                }
            }
            // The loader compiled it: a checker that cannot parse it is at
            // fault, and says where.
            Err(d) => {
                let place = lines.inside(sub.at, text, (d.start as u32, d.end.max(d.start + 1) as u32));
                out.push(located(
                    Finding::new(&INVALID_TEMPLATE, file, &sub.path, d.message),
                    place,
                ));
            }
        }
    }
    out
}

fn located(mut f: Finding, place: Place) -> Finding {
    f.line = place.line;
    f.column = place.column;
    f.width = place.width;
    f.source = place.source;
    f
}

/// The finding for `issue` of `sub`: a path into a child that the
/// child does not export is an `unknown-export`.
fn finding(
    bp: &Blueprint,
    file: &str,
    lines: &Lines<'_>,
    sub: &Sub,
    issue: Issue,
    children: &[Option<Child>],
) -> Finding {
    let place = lines.inside(sub.at, sub.text(), issue.span);
    let mut f = match unknown_export(bp, sub, &issue, children) {
        Some(message) => Finding::new(&UNKNOWN_EXPORT, file, &sub.path, message),
        None => Finding::new(issue.kind.rule(), file, &sub.path, issue.message),
    };
    f.suggestion = issue.suggestion;
    located(f, place)
}

/// The message for an issue about an export a child does not declare.
fn unknown_export(bp: &Blueprint, sub: &Sub, issue: &Issue, children: &[Option<Child>]) -> Option<String> {
    if issue.kind != IssueKind::UnknownPath {
        return None;
    }
    sub.refs().into_iter().find_map(|r| {
        let Ref::Child(name, export) = r else {
            return None;
        };
        let i = bp.index.includes.get(&name)?;
        let child = children.get(*i)?.as_ref()?;
        let path = format!("children.{name}.{export}");
        if issue.message != format!("{path}: no such property") {
            return None;
        }
        let declared: Vec<&str> = child.exports.iter().map(|(n, _)| n.as_str()).collect();
        let has = match declared.as_slice() {
            [] => "it exports nothing".to_string(),
            names => format!("it exports {}", names.join(", ")),
        };
        Some(format!("{path}: {} does not export {export:?} ({has})", child.file))
    })
}
