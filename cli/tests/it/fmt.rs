//! `bpvm fmt`: `.bp` blueprints formatted in place, their comments kept;
//! `--check` lists what would change with a diff and exits 1; `-` is
//! stdin to stdout; a file that does not read stops everything.

use crate::support::{bpvm, text};
use std::io::Write;
use std::path::Path;
use std::process::{Output, Stdio};

const MESSY: &str = "# the app\nversion   \"2025-11-02\"\n\n\n\nvariable env: string {default=\"dev\"}  # the default\nresource fn: aws/lambda/function{\n  spec {\n   name = \"${variables.env}-fn\"   # named\n   ok = variables.env==\"dev\"\n      && true\n  }\n}\n";

const FORMATTED: &str = "# the app\nversion \"2025-11-02\"\n\nvariable env: string { default = \"dev\" } # the default\nresource fn: aws/lambda/function {\n    spec {\n        name = \"${variables.env}-fn\" # named\n        ok = variables.env == \"dev\"\n            && true\n    }\n}\n";

fn fmt(args: &[&str], dir: &Path) -> Output {
    bpvm()
        .arg("fmt")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

#[test]
fn formats_files_in_a_folder_in_place_and_keeps_comments() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/app.bp"), MESSY).unwrap();
    std::fs::write(dir.path().join("other.blueprint"), FORMATTED).unwrap();
    std::fs::write(dir.path().join("app.blueprint.yaml"), "not: [touched").unwrap();
    let out = fmt(&["."], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sub/app.bp")).unwrap(),
        FORMATTED
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("other.blueprint")).unwrap(),
        FORMATTED
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.blueprint.yaml")).unwrap(),
        "not: [touched"
    );
    let again = fmt(&[], dir.path());
    assert!(again.status.success());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("sub/app.bp")).unwrap(),
        FORMATTED
    );
}

#[test]
fn check_lists_the_files_that_would_change_with_a_diff_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.bp"), MESSY).unwrap();
    std::fs::write(dir.path().join("done.bp"), FORMATTED).unwrap();
    let out = fmt(&["--check", "app.bp", "done.bp"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let shown = text(&out.stdout);
    assert!(
        shown.starts_with("would reformat app.bp\n--- app.bp\n+++ app.bp (formatted)\n"),
        "{shown}"
    );
    assert!(
        shown.contains("\n-version   \"2025-11-02\"\n+version \"2025-11-02\"\n"),
        "{shown}"
    );
    assert!(!shown.contains("done.bp"), "{shown}");
    assert_eq!(std::fs::read_to_string(dir.path().join("app.bp")).unwrap(), MESSY);
    let clean = fmt(&["--check", "done.bp"], dir.path());
    assert_eq!(clean.status.code(), Some(0));
    assert_eq!(text(&clean.stdout), "");
}

#[test]
fn a_dash_formats_stdin_to_stdout() {
    let mut child = bpvm()
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(MESSY.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), FORMATTED);
}

#[test]
fn a_file_that_does_not_read_is_reported_where_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.bp"), MESSY).unwrap();
    std::fs::write(
        dir.path().join("b.bp"),
        "version \"2025-11-02\"\nresorce fn: a/b { spec {} }\n",
    )
    .unwrap();
    let out = fmt(&["."], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "./b.bp:2:1: error: expected a declaration (version, transform, metadata, variable, value, data, resource, include, export), found a name (did you mean \"resource\"?)\n"
    );
    assert_eq!(std::fs::read_to_string(dir.path().join("a.bp")).unwrap(), MESSY);
}

#[test]
fn a_file_that_is_not_bp_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("app.yaml"), "version: 2025-11-02\n").unwrap();
    let out = fmt(&["app.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: app.yaml: not a .bp blueprint (fmt formats .bp and .blueprint files)\n"
    );
}
