//! Every expression in the Windsor core facets of `../shared/corpus` must be
//! a case of `tests/cases/windsor/corpus.yaml` (which says what it gives).
//!
//! The corpus sits beside the repository, not in it: without it this test
//! has nothing to read and says so, unless `BPVM_CORPUS=required` (as CI
//! sets it), when a missing corpus fails.

use crate::support::shared;
use bpvm::Value;
use bpvm::compiler::template::{Part, split};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const FACETS: &str = "../shared/corpus/windsor-core-aae5e79e/contexts/_template/facets";

/// The `when:` values and the `${…}` parts of every string in `v`.
fn expressions(v: &Value, found: &mut BTreeSet<String>) {
    match v {
        Value::Map(m) => {
            for (k, x) in m.iter() {
                match x {
                    Value::Str(when) if k.as_str() == "when" => {
                        found.insert(when.trim().to_string());
                    }
                    _ => expressions(x, found),
                }
            }
        }
        Value::List(items) => items.iter().for_each(|x| expressions(x, found)),
        Value::Str(s) => {
            for part in split(s).unwrap_or_else(|e| panic!("{s:?}: {e}")) {
                if let Part::Expr((start, end)) = part {
                    found.insert(s[start as usize..end as usize].trim().to_string());
                }
            }
        }
        _ => {}
    }
}

#[test]
fn every_corpus_facet_expression_is_a_conformance_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let facets = root.join(FACETS);
    if !shared::present(&facets) {
        return;
    }
    let mut files = Vec::new();
    shared::yaml_files(&facets, &mut files);
    let mut found = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let doc = Value::from_yaml(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        expressions(&doc, &mut found);
    }

    let cases = std::fs::read_to_string(root.join("tests/cases/windsor/corpus.yaml")).unwrap();
    let cases = Value::from_yaml(&cases).unwrap();
    let Some(Value::List(cases)) = cases.as_map().and_then(|m| m.get("cases")) else {
        panic!("corpus.yaml has no cases")
    };
    let listed: BTreeSet<String> = cases
        .iter()
        .filter_map(|c| c.as_map()?.get("expr")?.as_str().map(str::to_string))
        .collect();
    let missing: Vec<&String> = found.difference(&listed).collect();
    assert!(
        missing.is_empty(),
        "{} corpus expressions have no case in corpus.yaml:\n{}",
        missing.len(),
        missing.iter().map(|m| format!("  {m}")).collect::<Vec<_>>().join("\n")
    );
    assert!(
        found.len() > 50,
        "only {} expressions found in {}",
        found.len(),
        facets.display()
    );
    println!(
        "{} corpus expressions from {} facets, all covered",
        found.len(),
        files.len()
    );
}

/// Corpus `name` of `../shared/corpus`, or `None` when it is not beside
/// the repository (a failure with `BPVM_CORPUS=required`).
fn corpus(name: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(name);
    shared::present(&root).then_some(root)
}

fn seed_corpus() -> Option<PathBuf> {
    corpus("windsor-core-aae5e79e")
}

/// Each failing case of the seed corpus under `format` (the rules its
/// facets select when `None`): "file / name", then its diffs.
fn failures(root: &Path, format: Option<bpvm::windsor::Format>) -> (usize, Vec<(String, Vec<String>)>) {
    use bpvm::windsor::{Project, test};
    let project = Project::load_as(root, format).unwrap_or_else(|e| panic!("{e}"));
    let cases = test::discover(&project, &[]).unwrap_or_else(|e| panic!("{e}"));
    let failed = cases
        .iter()
        .filter_map(|c| {
            let diffs = test::run(&project, c, true);
            (!diffs.is_empty()).then(|| (format!("{} / {}", c.file, c.name), diffs))
        })
        .collect();
    (cases.len(), failed)
}

/// The seed corpus declares `cliVersion: ">=0.9.0"`, but no facet of it
/// uses a form only Windsor v0.9 has: it is read by the seed rules, as
/// its suite was written for them (W10).
#[test]
fn the_corpus_test_suite_passes_by_the_rules_its_facets_select() {
    let Some(root) = seed_corpus() else { return };
    let project = bpvm::windsor::Project::load(&root).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(project.format, bpvm::windsor::Format::Seed);
    let (count, failed) = failures(&root, None);
    assert!(count >= 38, "only {count} cases found");
    assert!(
        failed.is_empty(),
        "{} corpus cases failed:\n{}",
        failed.len(),
        failed
            .iter()
            .map(|(c, d)| format!("{c}:\n  {}", d.join("\n  ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Read by the v0.9 rules (`--rules v0.9`), three of the seed corpus's
/// cases fail: they expect inputs whose value is `""` (`git_username`,
/// `network_name`), which Windsor v0.9 prunes from the composed
/// blueprint. The suite was written for a Windsor before v0.9.0; this is
/// that finding, pinned.
#[test]
fn by_the_v09_rules_the_seed_corpus_loses_only_its_empty_inputs() {
    let Some(root) = seed_corpus() else { return };
    let (_, failed) = failures(&root, Some(bpvm::windsor::Format::V09));
    let diffs: Vec<String> = failed.iter().flat_map(|(_, d)| d.iter().cloned()).collect();
    assert_eq!(
        diffs,
        [
            "terraform[gitops].inputs[git_username]: key not found",
            "terraform[gitops].inputs[git_password]: key not found",
            "terraform[compute].inputs[network_name]: key not found",
            "terraform[compute].inputs[network_name]: key not found",
        ],
        "{failed:#?}"
    );
}

fn v09_corpus() -> Option<PathBuf> {
    corpus("windsor-core-v0.7.0")
}

#[test]
fn the_v09_corpus_test_suite_passes() {
    use bpvm::windsor::{Project, test};
    let Some(root) = v09_corpus() else { return };
    let project = Project::load(&root).unwrap_or_else(|e| panic!("{e}"));
    let cases = test::discover(&project, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(cases.len(), 271);
    let failed: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let diffs = test::run(&project, c, false);
            (!diffs.is_empty()).then(|| format!("{} / {}:\n  {}", c.file, c.name, diffs.join("\n  ")))
        })
        .collect();
    assert!(failed.is_empty(), "{} failed:\n{}", failed.len(), failed.join("\n"));
}

/// `bpvm render` of a context made of each v0.9 corpus case's values (the
/// ones that compose): the blueprint with its flux systems compiled to
/// kustomizations, the same bytes on every run (D1).
#[test]
fn every_v09_corpus_case_renders_the_same_bytes_twice() {
    use bpvm::windsor::{Project, output, render, scope, test};
    let Some(root) = v09_corpus() else { return };
    let project = Project::load(&root).unwrap_or_else(|e| panic!("{e}"));
    let cases = test::discover(&project, &[]).unwrap_or_else(|e| panic!("{e}"));
    let mut rendered = 0;
    for case in &cases {
        let once = || {
            let ctx = scope::context(&project, "test", scope::Values::Given(case.values().clone()), false).unwrap();
            let opts = render::Options {
                outputs: case.outputs().cloned(),
                operator: Some(case.values().clone()),
                environment: Some(case.environment().clone()),
                ..Default::default()
            };
            render::render(&project, "test", ctx, &opts).map(|r| output::to_yaml(&output::compile_flux(&r.blueprint)))
        };
        match (once(), once()) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{}: two renders differ", case.name);
                assert!(
                    a.contains("\nkustomize:\n") && !a.contains("\nflux:\n"),
                    "{}:\n{a}",
                    case.name
                );
                rendered += 1;
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            (a, b) => panic!("{}: one render failed: {:?} / {:?}", case.name, a.err(), b.err()),
        }
    }
    // Every case renders, except the 14 that expect composition to fail.
    assert_eq!(rendered, 271 - 14);
}

/// The hash a project's load notes for each facet (what a render that
/// leaves the facet out depends on) is the one the facet's file alone
/// gives: a batch uses the first, a change is checked with the second.
#[test]
fn each_facet_the_load_notes_hashes_as_its_file_alone() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut projects = vec![here.join("examples/windsor"), here.join("examples/windsor-v0.9")];
    projects.extend(
        ["windsor-core-aae5e79e", "windsor-core-v0.7.0"]
            .into_iter()
            .filter_map(corpus),
    );
    for dir in projects {
        let project = bpvm::windsor::Project::load(&dir).unwrap_or_else(|e| panic!("{e}"));
        let v09 = matches!(project.format, bpvm::windsor::Format::V09);
        let noted: Vec<_> = project.facets.iter().filter(|f| f.left_out.is_some()).collect();
        assert!(!noted.is_empty(), "{}: no facet noted", dir.display());
        for f in noted {
            let bytes = std::fs::read(dir.join(&f.file)).unwrap();
            let alone = bpvm::windsor::facet_left_out(&f.file, &bytes, v09);
            assert_eq!(f.left_out, Some(alone), "{}: {}", dir.display(), f.file);
        }
    }
}
