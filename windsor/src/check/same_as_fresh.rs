//! A check that reuses what the last one kept finds what a fresh check
//! finds: each file of the example projects (and of the Windsor core
//! template's facets, when the corpus is beside the repository) edited
//! in turn — a comment, a mistyped path, text that is not YAML, back as
//! it was — and a facet removed and added, each step checked both ways.

use super::{Kept, check, check_reusing};
use crate::load::project::{Project, TEMPLATE, files_under};
use bpvm_runtime::root::Root;
use std::path::Path;

// `../shared` (the corpus beside the repository), as every crate's tests read it.
#[path = "../../../tests/support/shared.rs"]
mod shared;

/// An edit of a file's text.
type Edit = fn(&str) -> String;

const EDITS: &[(&str, Edit)] = &[
    ("a comment", |t| format!("{t}# edited\n")),
    ("a mistyped path", |t| {
        t.replacen("${", "${wokers.", 1)
            .replacen("when: ", "when: wokers.count > 1 && ", 1)
    }),
    ("text that is not YAML", |t| format!("{t}\n: [\n")),
];

/// The files of the project at `dir` an edit is tried on.
fn files(dir: &Path) -> Vec<String> {
    let root = Root::new(dir, "project").unwrap();
    let mut files = Vec::new();
    for folder in ["facets", "features", "tests"] {
        let _ = files_under(&root, &format!("{TEMPLATE}/{folder}"), &[".yaml", ".yml"], &mut files);
    }
    let others = ["windsor.yaml", "blueprint.yaml", "schema.yaml"];
    let others = others.iter().map(|f| {
        if *f == "windsor.yaml" {
            f.to_string()
        } else {
            format!("{TEMPLATE}/{f}")
        }
    });
    files.extend(others.filter(|f| dir.join(f).is_file()));
    files.extend(
        Project::load(dir)
            .map(|p| p.contexts())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|c| {
                let f = format!("contexts/{c}/values.yaml");
                dir.join(&f).is_file().then_some(f)
            }),
    );
    files
}

/// Checks `dir` both ways and asserts they agree, after `step`.
fn agree(dir: &Path, kept: &mut Kept, step: &str) {
    let fresh = check(dir);
    let again = check_reusing(dir, kept);
    assert_eq!(again, fresh, "{}: {step}", dir.display());
}

/// Tries `edits` on each file of the project `from` (only its facets
/// when `facets_only`), and a facet removed and added.
fn try_project(from: &Path, edits: &[(&str, Edit)], facets_only: bool) {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    bpvm_harness::copy_tree(from, dir);
    let mut kept = Kept::default();
    agree(dir, &mut kept, "first check");
    let facets = Project::load(dir).unwrap().facets.len();
    let tried = files(dir)
        .into_iter()
        .filter(|f| !facets_only || f.contains("/facets/"));
    for file in tried {
        let path = dir.join(&file);
        let text = std::fs::read_to_string(&path).unwrap();
        for (what, edit) in edits {
            std::fs::write(&path, edit(&text)).unwrap();
            agree(dir, &mut kept, &format!("{file}: {what}"));
            if *what == "a comment" && file.contains("/facets/") {
                // One facet changed: the others are taken as they were.
                assert_eq!(kept.load.reused(), facets - 1, "{file}");
            }
        }
        std::fs::write(&path, &text).unwrap();
        agree(dir, &mut kept, &format!("{file}: as it was"));
    }
    let facet = files(dir).into_iter().find(|f| f.contains("/facets/")).unwrap();
    let text = std::fs::read_to_string(dir.join(&facet)).unwrap();
    std::fs::remove_file(dir.join(&facet)).unwrap();
    agree(dir, &mut kept, &format!("{facet} removed"));
    std::fs::write(dir.join(&facet), &text).unwrap();
    let copied = facet.replace(".yaml", "-copy.yaml");
    std::fs::write(dir.join(&copied), &text).unwrap();
    agree(dir, &mut kept, &format!("{facet} back, and copied to {copied}"));
}

#[test]
fn a_check_reusing_the_last_finds_what_a_fresh_check_finds() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    try_project(&here.join("../examples/windsor"), EDITS, false);
    try_project(&here.join("../examples/windsor-v0.9"), EDITS, false);
}

#[test]
fn a_check_of_the_core_template_reusing_the_last_finds_what_a_fresh_check_finds() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/windsor-core-v0.7.0");
    if shared::present(&corpus) {
        // Its facets only, one edit each: a debug build checks it slowly.
        try_project(&corpus, &EDITS[1..2], true);
    }
}
