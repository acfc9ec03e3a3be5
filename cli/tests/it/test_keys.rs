//! `bpvm test` and `bpvm check` on test files that could pass by
//! accident: misspelt keys, ignored expectation keys, names given twice.

use crate::support::{self, Scratch, bpvm, run_in_project, text};

/// A seed-format project whose one test file is `tests`.
fn project(name: &str, tests: &str) -> Scratch {
    let dir = support::scratch_dir(name);
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::create_dir_all(template.join("tests")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(
        template.join("facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform: [{path: vpc, inputs: {cidr: 10.0.0.0/16}}]\n",
    )
    .unwrap();
    std::fs::write(template.join("tests/base.test.yaml"), tests).unwrap();
    dir
}

#[test]
fn a_misspelt_key_fails_before_any_case_runs() {
    let dir = project(
        "test-keys-typo",
        "cases:\n- name: vpc\n  expcet: {terraform: [{path: vpc}]}\n- name: vpc\n",
    );
    let out = run_in_project(&dir, &["test", "--rules", "seed"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "contexts/_template/tests/base.test.yaml:3:3: error: cases[0].expcet: unknown key \"expcet\" in a test case \
         (did you mean \"expect\"?); expected one of: name, values, env, terraformOutputs, expect, exclude, expectError\n\
         contexts/_template/tests/base.test.yaml:4:3: error: cases[1].name: case name \"vpc\" is given twice in this \
         file (first by cases[0])\n"
    );
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn an_ignored_expectation_key_warns_and_strict_fails() {
    let dir = project(
        "test-keys-strict",
        "cases:\n- name: vpc\n  expect:\n    terraform: [{path: vpc}]\n    config: {a: 1}\n",
    );
    let out = run_in_project(&dir, &["test", "--rules", "seed"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let place = "contexts/_template/tests/base.test.yaml:5:5";
    let warning = "cases[0].expect.config: \"config\" is not a blueprint \
                   field; Windsor's runner ignores it, so it asserts nothing";
    assert!(
        text(&out.stdout).contains(&format!("✓ vpc\n    {place}: warning: {warning}\n")),
        "{}",
        text(&out.stdout)
    );
    let strict = run_in_project(&dir, &["test", "--rules", "seed", "--strict"]);
    assert_eq!(strict.status.code(), Some(1));
    assert_eq!(
        text(&strict.stderr),
        format!("{place}: error: {warning} (an error by --strict)\n")
    );
}

#[test]
fn check_reports_test_keys_and_names() {
    let dir = project(
        "test-keys-check",
        "cases:\n- name: a\n  valuez: {}\n  expect: {terraform: [{path: vpc, inputz: {}}], config: {}}\n- name: a\n",
    );
    let out = bpvm().arg("check").arg(&dir).env("NO_COLOR", "1").output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    for want in [
        "base.test.yaml:3:3: error[test-unknown-key]: unknown key \"valuez\" in a test case (did you mean \"values\"?)",
        "base.test.yaml:4:36: error[test-unknown-key]: unknown key \"inputz\" in a terraform component expectation (did you mean \"inputs\"?); it would assert nothing",
        "base.test.yaml:4:50: warning[test-ignored-key]: \"config\" is not a blueprint field",
        "base.test.yaml:5:3: error[test-duplicate-name]: case name \"a\" is given twice in this file (first by cases[0])",
    ] {
        assert!(stdout.contains(want), "{want}\n--\n{stdout}");
    }
}
