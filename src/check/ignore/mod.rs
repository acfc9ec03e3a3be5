//! Inline suppression: a `# bpvm:ignore[rule-id] reason` comment in a
//! template's file suppresses that rule's findings on its line (after
//! text) or on the line below (alone on its line). Several ids are
//! comma-separated; the reason is required. A comment that suppresses
//! nothing, or that bpvm cannot use, is a finding itself.

mod comment;

use super::report::{Checked, Suppressed};
use bpvm_checker::{Finding, Rule, Severity};
use bpvm_runtime::root::Root;
use bpvm_runtime::suggest::closest;
use comment::{Comment, MARK};
use std::path::{Path, PathBuf};

/// A suppression that suppresses nothing.
pub static UNUSED_IGNORE: Rule = Rule {
    id: "unused-ignore",
    severity: Severity::Warning,
    summary: "A `bpvm:ignore[rule]` comment with no finding of that rule on its line (or, alone on its line, the line below) to suppress.",
};

/// A suppression bpvm cannot use.
pub static INVALID_IGNORE: Rule = Rule {
    id: "invalid-ignore",
    severity: Severity::Error,
    summary: "A `bpvm:ignore` comment without its reason, without `[rule-id]`, or naming a rule that does not exist: it suppresses nothing.",
};

/// How deep a Windsor project's folders are searched for comments.
const DEPTH: usize = 16;

/// The YAML files of the Windsor project `dir` (what its findings can be
/// about), as `(name relative to dir, path)`, hidden folders and what
/// ignore files ignore passed over.
pub(super) fn windsor_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let walk = ignore::WalkBuilder::new(dir)
        .max_depth(Some(DEPTH))
        .require_git(false)
        .build();
    let mut files = Vec::new();
    for entry in walk.flatten() {
        let path = entry.path();
        let yaml = matches!(path.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
        if yaml && entry.file_type().is_some_and(|t| t.is_file()) {
            if let Ok(rel) = path.strip_prefix(dir) {
                let name = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>();
                files.push((name.join("/"), path.to_path_buf()));
            }
        }
    }
    files
}

/// Moves the findings of `checked` that a comment in `files` suppresses
/// to its `suppressed`, and adds a finding for each comment that
/// suppresses nothing or cannot be used. `known` lists the rule ids.
/// Files are read as the template's own are: beneath its folder, regular
/// files only, up to the size limit.
pub(super) fn apply(checked: &mut Checked, files: &[(String, PathBuf)], known: &[&str]) {
    let Ok(root) = Root::new(&checked.folder, "template") else {
        return;
    };
    let mut added = Vec::new();
    for (name, _) in files {
        let Ok(text) = root.read_string(root.dir(), name) else {
            continue;
        };
        if !text.contains(MARK) {
            continue;
        }
        for c in comment::comments(&text) {
            added.extend(one(checked, name, &c, known));
        }
    }
    if !added.is_empty() {
        checked.findings.extend(added);
        checked
            .findings
            .sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    }
}

/// Applies comment `c` of file `name`: what it finds wrong with itself.
fn one(checked: &mut Checked, name: &str, c: &Comment, known: &[&str]) -> Vec<Finding> {
    let at = |rule: &'static Rule, column: usize, width: usize, message: String| {
        let mut f = Finding::new(rule, name, "", message).at(c.line, column);
        f.width = width;
        f.source = Some(c.source.clone());
        f
    };
    if c.malformed {
        let message = format!("`{MARK}` needs the rules it suppresses in brackets: `# {MARK}[rule-id] reason`");
        return vec![at(&INVALID_IGNORE, c.column, MARK.len(), message)];
    }
    let ids: Vec<&str> = c.ids.iter().map(|(id, _)| id.as_str()).collect();
    let mut wrong = Vec::new();
    for (id, col) in &c.ids {
        if !known.contains(&id.as_str()) {
            let mut f = at(&INVALID_IGNORE, *col, id.chars().count(), format!("{id} is no rule"));
            f.suggestion = closest(id, known).map(str::to_string);
            wrong.push(f);
        }
    }
    if c.reason.is_empty() {
        let message = format!(
            "`{MARK}[{}]` has no reason: say after `]` why the finding does not apply",
            ids.join(", ")
        );
        wrong.push(at(&INVALID_IGNORE, c.column, MARK.len(), message));
    }
    if !wrong.is_empty() {
        return wrong;
    }
    let mut unused = Vec::new();
    for (id, col) in &c.ids {
        if !suppress(checked, name, c, id) {
            let place = if c.covers == c.line {
                "this line"
            } else {
                "the line below"
            };
            let message = format!("`{MARK}[{id}]` suppresses nothing: no {id} finding on {place}");
            unused.push(at(&UNUSED_IGNORE, *col, id.chars().count(), message));
        }
    }
    unused
}

/// Moves the findings of rule `id` in `name` on the line `c` covers to
/// the suppressed: whether there was any.
fn suppress(checked: &mut Checked, name: &str, c: &Comment, id: &str) -> bool {
    let hit = |f: &Finding| f.rule.id == id && f.file == name && f.line == c.covers;
    let (gone, kept): (Vec<Finding>, Vec<Finding>) = std::mem::take(&mut checked.findings).into_iter().partition(hit);
    checked.findings = kept;
    let any = !gone.is_empty();
    checked.suppressed.extend(gone.into_iter().map(|finding| Suppressed {
        finding,
        reason: c.reason.clone(),
    }));
    any
}
