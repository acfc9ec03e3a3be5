//! What stops `bpvm diff`, or one target of it: each message checked.

use super::fixture::Fixture;
use super::{cleaned, diff, expect, masked};
use crate::support::text;

#[test]
fn a_target_that_fails_to_render_shows_its_error_and_exits_2() {
    let f = Fixture::committed("broken");
    f.write(
        "infra/contexts/_template/facets/base.yaml",
        &std::fs::read_to_string(f.dir().join("infra/contexts/_template/facets/base.yaml"))
            .unwrap()
            .replace("${size}", "${size +}"),
    );
    let out = diff(f.dir(), &["HEAD"], f.tmp());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    masked(&out);
    expect("render-error.diff", &text(&out.stdout));
    cleaned(f.tmp());
    // Broken at the revision, fixed in the work tree: the error is the revision's.
    f.commit("broken");
    f.write(
        "infra/contexts/_template/facets/base.yaml",
        &text(
            f.git(&["show", "HEAD~1:infra/contexts/_template/facets/base.yaml"])
                .as_bytes(),
        ),
    );
    let out = diff(f.dir(), &["HEAD", "--format", "json"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = &doc["targets"][0]["errors"];
    assert!(errors["after"].is_null(), "{doc}");
    let before = errors["before"].as_str().unwrap();
    assert!(
        before.starts_with("infra/contexts/_template/facets/base.yaml:"),
        "{before}"
    );
    assert!(!before.contains(&f.tmp().display().to_string()), "{before}");
    cleaned(f.tmp());
}

#[test]
fn an_unknown_revision_gets_a_did_you_mean() {
    let f = Fixture::committed("bad-rev");
    let out = diff(f.dir(), &["mian"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: unknown revision \"mian\": no branch, tag or commit of that name (did you mean \"main\"?)\n"
    );
    assert_eq!(text(&out.stdout), "");
    cleaned(f.tmp());
}

#[test]
fn outside_a_git_repository_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = diff(dir.path(), &["HEAD"], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: .: not in a git repository (no .git in it or in a folder above it)\n"
    );
}

#[test]
fn a_path_outside_the_repository_is_refused() {
    let f = Fixture::committed("outside");
    let elsewhere = tempfile::tempdir().unwrap();
    let out = diff(f.dir(), &["HEAD", "infra", elsewhere.path().to_str().unwrap()], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.contains(": not inside the git work tree at "), "{said}");
    cleaned(f.tmp());
}

#[test]
fn a_markdown_limit_below_a_thousand_is_bad_usage() {
    let f = Fixture::committed("limit");
    let out = diff(f.dir(), &["HEAD", "--format", "markdown", "--max-chars", "10"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("10 is not in 1000.."),
        "{}",
        text(&out.stderr)
    );
}
