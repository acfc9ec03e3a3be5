//! `bpvm check` for Bluelink blueprints: the mistakes a blueprint's
//! declarations already show, found without rendering — what the loader
//! refuses, substitutions that read what nothing declares or use it as
//! what it is not, and children read at exports or given variables they
//! do not declare.
//!
//! Each rule's finding lives in a file here; they import the loader and the
//! blueprint model, never the renderer.
//!
//! The rules are [`RULES`]; [`check`] applies them to one blueprint.

mod children;
mod rules;
mod scope;
mod subs;
mod variables;

pub use rules::{MISSING_CHILD_VARIABLE, RULES, UNKNOWN_CHILD_VARIABLE, UNKNOWN_EXPORT};

use crate::place::Lines;
use crate::{Error, load};
use bpvm_checker::Finding;
use bpvm_checker::rules::INVALID_TEMPLATE;
use bpvm_runtime::root::Root;
use std::path::Path;

/// Checks the blueprint at `path`; `file` names it in findings (relative
/// to the blueprint's folder). A blueprint the loader refuses gives one
/// `invalid-template` finding per problem, and nothing else: what it
/// declares cannot be relied on. Findings are in the order of the text.
///
/// ```
/// use bpvm_bluelink::check::check;
/// let dir = tempfile::tempdir().unwrap();
/// let text = "version: 2023-04-20\nvariables:\n  debug: {type: boolean}\n\
///             resources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      size: ${len(variables.debug)}\n";
/// std::fs::write(dir.path().join("blueprint.yaml"), text).unwrap();
/// let found = check(&dir.path().join("blueprint.yaml"), "blueprint.yaml");
/// assert_eq!(
///     found[0].to_string(),
///     "blueprint.yaml:8:15: error[type-mismatch]: len() argument 1 must be a string, an array or an object, got boolean"
/// );
/// ```
pub fn check(path: &Path, file: &str) -> Vec<Finding> {
    let text = read(path);
    let lines = Lines::of_file(&text, path);
    let bp = match load::load(path, file) {
        Ok(bp) => bp,
        Err(errors) => return errors.0.iter().map(|e| invalid(e, &text)).collect(),
    };
    let children = children::children(&bp);
    let scope = scope::scope(&bp, &children);
    let mut out = subs::check_subs(&bp, file, &lines, &scope, &children);
    out.extend(variables::child_variables(&bp, file, &lines, &children));
    out.sort_by_key(|f| (f.line, f.column));
    out
}

/// The blueprint's text as the loader reads it (empty when it cannot be
/// read: the loader says why).
fn read(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = abs.parent().unwrap_or(Path::new("/"));
    Root::new(dir, "blueprint folder")
        .and_then(|root| {
            root.read_string(root.dir(), &abs.to_string_lossy())
                .map_err(|e| std::io::Error::other(e.to_string()))
        })
        .unwrap_or_default()
}

/// A loader's problem as a finding, with the loader's guess at what was
/// meant as its suggestion; one without a position is placed at its path
/// when the text has it.
fn invalid(e: &Error, text: &str) -> Finding {
    let mut f = Finding::new(&INVALID_TEMPLATE, &e.file, &e.path, e.problem());
    f.suggestion = e.hint().map(str::to_string);
    let (line, column) = match e.at.line {
        0 if !e.path.is_empty() => bpvm_runtime::locate::locate(text, &e.path).unwrap_or((0, 0)),
        0 => (0, 0),
        line => (line as usize, e.at.col as usize),
    };
    f.line = line;
    f.column = column;
    // The line the loader read, as every command shows it.
    f.source = match e.source.as_deref() {
        Some((source, _)) if e.at.line > 0 => Some(source.clone()),
        _ => Lines::new(text).get(line).map(str::to_string),
    };
    f
}
