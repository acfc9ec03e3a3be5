//! `bpvm batch --affected-by REV`, `--changed-files FILE` and `--list`
//! on a copy of the examples made a git repository here; each error as
//! the command line prints it.

use crate::support::{bpvm, commit_all, git, scratch_examples, text};
use std::path::Path;
use std::process::Output;

/// The examples, committed on `main`.
fn repository() -> tempfile::TempDir {
    let dir = scratch_examples();
    commit_all(dir.path());
    dir
}

fn batch(dir: &Path, args: &[&str]) -> Output {
    bpvm().arg("batch").args(args).current_dir(dir).output().unwrap()
}

const FACET: &str = "examples/windsor-v0.9/contexts/_template/facets/option-observability.yaml";

fn edit_facet(dir: &Path) {
    let path = dir.join(FACET);
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("grafana/dev", "grafana/dev2", 1)).unwrap();
}

#[test]
fn list_prints_the_ids_a_change_affects() {
    let dir = repository();
    let out = batch(dir.path(), &["examples", "--affected-by", "HEAD", "--list"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    edit_facet(dir.path());
    let out = batch(dir.path(), &["examples", "--affected-by", "HEAD", "--list"]);
    assert_eq!(text(&out.stdout), "windsor-v0.9/local\n", "{}", text(&out.stderr));
    let out = batch(
        dir.path(),
        &["examples", "--affected-by", "HEAD", "--list", "-o", "json"],
    );
    let listed: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        listed,
        serde_json::json!([{"id": "windsor-v0.9/local", "affected_by": {"path": FACET, "how": "read"}}])
    );
}

#[test]
fn a_batch_runs_what_a_change_affects_and_says_why() {
    let dir = repository();
    edit_facet(dir.path());
    let out = batch(
        dir.path(),
        &["examples", "--affected-by", "HEAD", "--report", "report.json"],
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "affected: windsor-v0.9/local: {FACET} changed, which its render reads"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("1 rendered, 0 failed"), "{stderr}");
    assert!(stderr.contains("; 3 not affected by the change (not run)"), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("report.json")).unwrap()).unwrap();
    assert_eq!(report["unaffected"], 3);
    assert_eq!(report["records"][0]["affected_by"]["path"], FACET);
    // From a list of changed files: the same target, and the context that
    // leaves the facet out (an edit cannot be told from a new condition).
    std::fs::write(dir.path().join("changed.txt"), format!("{FACET}\n")).unwrap();
    let out = batch(dir.path(), &["examples", "--changed-files", "changed.txt", "--list"]);
    assert_eq!(text(&out.stdout), "windsor-v0.9/local\nwindsor-v0.9/staging\n");
}

#[test]
fn errors_name_the_revision_the_repository_or_the_list() {
    let dir = repository();
    let out = batch(dir.path(), &["examples", "--affected-by", "mian"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --affected-by mian: unknown revision \"mian\": no branch, tag or commit of that name (did you mean \"main\"?)\n"
    );
    let out = batch(
        dir.path(),
        &["examples", "--affected-by", "HEAD", "--changed-files", "x"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot be used with"),
        "{}",
        text(&out.stderr)
    );
    let out = batch(dir.path(), &["examples", "--changed-files", "none.txt"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("error: --changed-files none.txt: none.txt: "),
        "{}",
        text(&out.stderr)
    );
    let plain = tempfile::tempdir().unwrap();
    std::fs::create_dir(plain.path().join("x")).unwrap();
    std::fs::write(plain.path().join("x/q.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
    let out = batch(plain.path(), &["x", "--affected-by", "HEAD"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --affected-by HEAD: x: not in a git repository (no .git in it or in a folder above it)\n"
    );
    // A list is read relative to the current folder there.
    std::fs::write(plain.path().join("changed.txt"), "x/q.yaml\nx/other.txt\n").unwrap();
    let out = batch(plain.path(), &["x", "--changed-files", "changed.txt", "--list"]);
    assert_eq!(text(&out.stdout), "q\n", "{}", text(&out.stderr));
}

#[test]
fn a_shallow_clone_asks_for_more_history() {
    let dir = repository();
    git(dir.path(), &["commit", "-q", "--allow-empty", "-m", "second"]);
    let clone = tempfile::tempdir().unwrap();
    let url = format!("file://{}", dir.path().display());
    git(clone.path(), &["clone", "-q", "--depth", "1", &url, "shallow"]);
    let out = batch(&clone.path().join("shallow"), &["examples", "--affected-by", "HEAD~1"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --affected-by HEAD~1: revision \"HEAD~1\" is not in this shallow clone: fetch more history \
         (git fetch --deepen=100 origin, or fetch-depth: 0 with actions/checkout)\n"
    );
}
