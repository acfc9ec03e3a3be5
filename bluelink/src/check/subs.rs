//! Every substitution of a blueprint checked against the types of what it
//! reads: each issue the checker finds becomes a finding at the part of
//! the string it is about.

use super::children::Child;
use super::rules::UNKNOWN_EXPORT;
use crate::blueprint::Blueprint;
use crate::place::{Lines, Place};
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
    let items = each_scopes(bp, scope, &mut checker);
    // A text written in many places is checked once in each scope.
    let mut seen: HashMap<(&str, bool, Option<&str>), Result<Checked, Diagnostic>> = HashMap::new();
    let mut out = Vec::new();
    for sub in bp.subs() {
        let text = sub.text();
        let bare = fields.contains(&(sub as *const Sub));
        let resource = resource_of(&sub.path).filter(|r| items.contains_key(r));
        let scope = resource.and_then(|r| items.get(r)).unwrap_or(scope);
        let checked = seen
            .entry((text, bare, resource))
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

/// The scope inside each resource whose `each` gives a list of known
/// items: `elem` is one of them.
fn each_scopes<'b>(bp: &'b Blueprint, scope: &Ty, checker: &mut Checker) -> HashMap<&'b str, Ty> {
    let mut out = HashMap::new();
    for r in &bp.resources {
        let Some(each) = &r.each else { continue };
        let Ok(Checked { ty: Ty::List(item), .. }) = checker.template(each.text(), scope) else {
            continue;
        };
        if *item == Ty::Any {
            continue;
        }
        let mut inside = scope.clone();
        if let Ty::Map(fields) = &mut inside {
            fields.known.insert("elem".into(), *item);
        }
        out.insert(r.name.as_str(), inside);
    }
    out
}

/// The resource a substitution at `path` is in (`resources.<name>…`).
fn resource_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("resources.")?;
    let end = rest.find(['.', '[']).unwrap_or(rest.len());
    Some(&rest[..end])
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
