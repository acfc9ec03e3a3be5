//! A run that finds nothing fails: `check`, `batch` and `test` in a
//! folder with no template (or whose templates an ignore file hides)
//! exit 1 saying what they looked for and where; `--allow-empty` accepts
//! it.

use crate::support::{bpvm, scratch_dir, text};
use std::path::Path;
use std::process::Output;

fn run(dir: &Path, args: &[&str]) -> Output {
    bpvm()
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

const IGNORED: &str = "note: hidden folders, .git, target and node_modules are not searched, \
                       nor what .gitignore or .ignore files ignore\n";
const ALLOW: &str = "note: --allow-empty accepts a run that finds nothing\n";

#[test]
fn check_of_an_empty_folder_fails_and_says_where_it_looked() {
    let dir = scratch_dir("empty-check");
    let out = run(&dir, &["check", "."]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let want = format!("error: no Windsor project or Bluelink blueprint to check under .\n{IGNORED}{ALLOW}");
    assert_eq!(text(&out.stderr), want);
    assert_eq!(text(&out.stdout), "");
    let out = run(&dir, &["check", ".", "--allow-empty"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "no problems in 0 templates\n");
}

#[test]
fn batch_of_an_empty_folder_fails_and_says_where_it_looked() {
    let dir = scratch_dir("empty-batch");
    let out = run(&dir, &["batch", "."]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let want = format!("error: no Windsor context or Bluelink blueprint to render under .\n{IGNORED}{ALLOW}");
    assert_eq!(text(&out.stderr), want);
    let out = run(&dir, &["batch", "--allow-empty"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("0 rendered"), "{}", text(&out.stderr));
}

#[test]
fn what_an_ignore_file_hides_is_not_found() {
    let dir = scratch_dir("empty-ignored");
    std::fs::create_dir_all(dir.join("apps")).unwrap();
    std::fs::write(dir.join("apps/api.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
    std::fs::write(dir.join(".ignore"), "apps/\n").unwrap();
    for command in ["check", "batch"] {
        let out = run(&dir, &[command, "."]);
        assert_eq!(out.status.code(), Some(1), "{command}: {}", text(&out.stdout));
        assert!(text(&out.stderr).contains(IGNORED), "{command}: {}", text(&out.stderr));
    }
    std::fs::remove_file(dir.join(".ignore")).unwrap();
    let out = run(&dir, &["check", "."]);
    assert!(
        text(&out.stdout).ends_with("1 error in 1 template: invalid-template 1\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn test_of_a_template_with_no_case_fails_and_says_where_it_looked() {
    let dir = scratch_dir("empty-test");
    std::fs::create_dir_all(dir.join("contexts/_template/tests")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "").unwrap();
    let out = run(&dir, &["test"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let stderr = text(&out.stderr);
    let want = format!(
        "error: no test cases found: no *.test.yaml file with a case under ./contexts/_template/tests\n{ALLOW}"
    );
    assert!(stderr.ends_with(&want), "{stderr}");
    let out = run(&dir, &["test", "--path", "contexts/_template/tests"]);
    assert!(
        text(&out.stderr).contains("(only --path contexts/_template/tests)"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&dir, &["test", "--allow-empty"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "0 passed, 0 failed\n");
}
