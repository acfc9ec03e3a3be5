//! Context values checked against the template's schema on every render:
//! `render`, `explain`, `graph`, `batch` and `test` warn about each value
//! the schema refuses, at the file:line:column that sets it (a context's
//! `values.yaml`, `windsor.yaml`'s `contexts:`, a test case's `values`),
//! with a did-you-mean; `--strict` makes them errors. Also when the
//! render then fails, the warning comes first.

use crate::support::{bpvm, run_in_project};
use std::process::Output;

const SCHEMA: &str = "\
type: object
additionalProperties: false
properties:
  platform: {type: string, enum: [none, aws, docker], default: none}
  gitops:
    type: object
    additionalProperties: false
    properties:
      mode: {type: string, enum: [pull, push], default: push}
  workers: {type: integer, default: 1}
";

/// A project whose context `dev` has `values` in values.yaml and whose
/// windsor.yaml is `windsor`; the one facet fails when `workers` is not
/// a number.
fn project(values: &str, windsor: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
    std::fs::create_dir_all(p.join("contexts/_template/tests")).unwrap();
    std::fs::create_dir_all(p.join("contexts/dev")).unwrap();
    std::fs::write(p.join("windsor.yaml"), windsor).unwrap();
    std::fs::write(p.join("contexts/_template/schema.yaml"), SCHEMA).unwrap();
    std::fs::write(p.join("contexts/dev/values.yaml"), values).unwrap();
    std::fs::write(
        p.join("contexts/_template/facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform: [{path: vpc, inputs: {n: '${workers + 1}'}}]\n",
    )
    .unwrap();
    std::fs::write(
        p.join("contexts/_template/tests/base.test.yaml"),
        "cases:\n  - name: typo\n    values:\n      platfrom: aws\n    expect: {}\n  \
         - name: refused\n    expectError: true\n    values:\n      gitops: {mode: pul}\n",
    )
    .unwrap();
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const TYPO: &str = "contexts/dev/values.yaml:2:1: warning: platfrom: the schema allows no property \"platfrom\" here; did you mean \"platform\"?";
const ENUM: &str = "contexts/dev/values.yaml:4:3: warning: gitops.mode: \"pul\" is not one of \"pull\" or \"push\"; did you mean \"pull\"?";

#[test]
fn render_warns_about_an_unknown_key_and_a_value_not_in_the_enum() {
    let dir = project("# dev\nplatfrom: aws\ngitops:\n  mode: pul\n", "version: v1alpha1\n");
    let out = run_in_project(dir.path(), &["render", "--context", "dev"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().collect::<Vec<_>>(), [TYPO, ENUM]);
}

#[test]
fn strict_makes_them_errors() {
    let dir = project("# dev\nplatfrom: aws\ngitops:\n  mode: pul\n", "version: v1alpha1\n");
    let out = run_in_project(dir.path(), &["render", "--context", "dev", "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let want = format!("{} (an error by --strict)", TYPO.replacen("warning: ", "error: ", 1));
    assert_eq!(err.lines().next(), Some(want.as_str()), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_render_that_fails_shows_the_warning_first() {
    let dir = project("workers: three\n", "version: v1alpha1\n");
    let out = run_in_project(dir.path(), &["render", "--context", "dev"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[0],
        "contexts/dev/values.yaml:1:1: warning: workers: \"three\" is not of type \"integer\""
    );
    assert!(
        lines[1].starts_with("contexts/_template/facets/base.yaml:3:40: error: "),
        "{err}"
    );
}

#[test]
fn a_context_in_windsor_yaml_is_checked_at_its_line() {
    let dir = project(
        "",
        "version: v1alpha1\ncontexts:\n  dev:\n    platform: gcp\n    workers: 'two'\n",
    );
    let out = run_in_project(dir.path(), &["graph", "--context", "dev"]);
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "windsor.yaml:4:5: warning: contexts.dev.platform: \"gcp\" is not one of \"none\", \"aws\" or \"docker\"",
            "windsor.yaml:5:5: warning: contexts.dev.workers: \"two\" is not of type \"integer\"",
        ],
        "{err}"
    );
}

#[test]
fn explain_warns_too() {
    let dir = project("# dev\nplatfrom: aws\ngitops:\n  mode: pul\n", "version: v1alpha1\n");
    let out = run_in_project(dir.path(), &["explain", "terraform.vpc.inputs.n", "--context", "dev"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out).lines().collect::<Vec<_>>(), [TYPO, ENUM]);
}

#[test]
fn test_warns_at_the_case_values_and_strict_fails_the_case() {
    let dir = project("", "version: v1alpha1\n");
    let out = run_in_project(dir.path(), &["test"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        stdout.contains(
            "    contexts/_template/tests/base.test.yaml:4:7: warning: cases[0].values.platfrom: \
             the schema allows no property \"platfrom\" here; did you mean \"platform\"?\n"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("✓ typo"), "{stdout}");
    let out = run_in_project(dir.path(), &["test", "--strict"]);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(stdout.contains("✗ typo"), "{stdout}");
    // A refused value fails the render, as the case expects.
    assert!(stdout.contains("✓ refused"), "{stdout}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn batch_notes_them_also_when_the_render_fails() {
    let dir = project("workers: three\n", "version: v1alpha1\n");
    let report = dir.path().join("report.json");
    // Run in the project's folder: its files print as written in it.
    let out = bpvm()
        .current_dir(dir.path())
        .args(["batch", ".", "--report"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(
        text.contains(
            "contexts/dev/values.yaml:1:1: warning: workers: \\\"three\\\" is not of type \\\"integer\\\"\\ncontexts/_template/facets/base.yaml:3:40: error: "
        ),
        "{text}"
    );
}

#[test]
fn batch_strict_fails_the_target_and_the_test_case() {
    let dir = project("# dev\nplatfrom: aws\n", "version: v1alpha1\n");
    let report = dir.path().join("report.json");
    let out = bpvm()
        .current_dir(dir.path())
        .args(["batch", ".", "--test", "--strict", "--report"])
        .arg(&report)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let back = bpvm::batch::Report::from_json(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let status = |end: &str| {
        let r = back.records.iter().find(|r| r.id.ends_with(end)).unwrap();
        (r.status, r.diagnostics.clone())
    };
    let (target, why) = status("dev");
    assert_eq!(target, bpvm::batch::Status::Failed);
    assert_eq!(
        why,
        [TYPO.replacen(": warning: ", ": error: ", 1) + " (an error by --strict)"]
    );
    assert_eq!(status("::typo").0, bpvm::batch::Status::Failed);
    // A refused value fails the render, as the case expects.
    assert_eq!(status("::refused").0, bpvm::batch::Status::Ok);
}
