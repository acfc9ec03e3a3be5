//! `bpvm schema`: each schema's text is checked in (`docs/schemas/`), so a
//! change to a field table shows in review as a change to a schema;
//! `BPVM_BLESS=1` rewrites them. `--list`, `--out` and a mistyped name.

use crate::support::{bpvm, repo, text};
use std::path::Path;

fn names() -> Vec<String> {
    let out = bpvm().args(["schema", "--list"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

fn printed(name: &str) -> String {
    let out = bpvm().args(["schema", name]).output().unwrap();
    assert!(out.status.success(), "{name}: {}", text(&out.stderr));
    text(&out.stdout)
}

#[test]
fn every_schema_prints_as_its_checked_in_file() {
    let dir = repo().join("docs/schemas");
    let bless = std::env::var("BPVM_BLESS").is_ok_and(|v| v == "1");
    let names = names();
    assert_eq!(names.len(), 10, "{names:?}");
    let mut stale = Vec::new();
    for name in &names {
        let file = dir.join(format!("{name}.json"));
        let got = printed(name);
        if bless {
            std::fs::write(&file, &got).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(got.as_str()) {
            stale.push(name.clone());
        }
    }
    assert!(
        stale.is_empty(),
        "bpvm schema prints other text than docs/schemas/ holds for {stale:?} (a field table changed?); \
         BPVM_BLESS=1 cargo test -p bpvm-cli --test it schema rewrites them"
    );
    let mut held: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            e.unwrap()
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".json")
                .to_string()
        })
        .collect();
    held.sort();
    let mut want = names.clone();
    want.sort();
    assert_eq!(held, want, "docs/schemas/ holds a file of no schema");
}

#[test]
fn list_names_each_schema_with_the_files_it_applies_to() {
    let out = bpvm().args(["schema", "--list"]).output().unwrap();
    let listing = text(&out.stdout);
    assert!(
        listing.contains("\nbpvm-batch              bpvm-batch.yaml\n"),
        "{listing}"
    );
    assert!(
        listing.starts_with("windsor-facet           **/contexts/_template/facets/**/*.yaml"),
        "{listing}"
    );
}

#[test]
fn out_writes_every_schema_as_it_prints() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("schemas");
    let out = bpvm().args(["schema", "--out"]).arg(&out_dir).output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    for name in names() {
        let written = std::fs::read_to_string(out_dir.join(format!("{name}.json"))).unwrap();
        assert_eq!(written, printed(&name), "{name}");
    }
}

#[test]
fn out_onto_a_file_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("taken");
    std::fs::write(&file, "x").unwrap();
    let out = bpvm().args(["schema", "--out"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    let want = format!("error: --out {}: cannot create it:", file.display());
    assert!(err.starts_with(&want), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "x");
}

#[test]
fn a_mistyped_name_is_a_usage_error_with_the_name_meant() {
    let out = bpvm().args(["schema", "windsor-facett"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("invalid value 'windsor-facett'"), "{err}");
    assert!(err.contains("a similar value exists: 'windsor-facet'"), "{err}");
    let out = bpvm().arg("schema").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("<NAME>"));
}

#[test]
fn the_checked_in_schemas_are_where_the_docs_say() {
    let editors = std::fs::read_to_string(repo().join("docs/editors.md")).unwrap();
    for name in names() {
        assert!(Path::new(&repo().join(format!("docs/schemas/{name}.json"))).is_file());
        assert!(
            editors.contains(&format!("`{name}`")),
            "docs/editors.md does not name {name}"
        );
    }
}
