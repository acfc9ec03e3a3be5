//! `bpvm test` in CI: `--report` in the shapes `bpvm batch --report`
//! writes (JSON, and JUnit read back with an XML parser), and the failed
//! cases listed again after the summary line.

use crate::support::{self, run_in_project, text};
use std::path::Path;

const TESTS: &str = "contexts/_template/tests/aws.test.yaml";
const FAILING: &str = "dev adds the dashboard and observability";

/// The expectation of [`FAILING`] that the template meets: one replica.
const ONE_REPLICA: &str = "substitutions: {replicas: \"1\"}}";

/// A copy of examples/windsor in which the case [`FAILING`] expects two
/// replicas where the template renders one, so it fails; the file's other
/// three cases pass.
fn project_with_a_failing_case() -> tempfile::TempDir {
    project_changed(&[(ONE_REPLICA, "substitutions: {replicas: \"2\"}}")])
}

/// A copy of examples/windsor with each `(from, to)` made in its tests.
fn project_changed(changes: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    support::copy_tree(&support::examples().join("windsor"), dir.path());
    let file = dir.path().join(TESTS);
    let mut tests = std::fs::read_to_string(&file).unwrap();
    for (from, to) in changes {
        let changed = tests.replacen(from, to, 1);
        assert_ne!(changed, tests, "the example's case has {from}");
        tests = changed;
    }
    std::fs::write(&file, tests).unwrap();
    dir
}

fn report(dir: &Path, format: &str) -> (std::process::Output, String) {
    let path = dir.join(format!("report.{format}"));
    let out = run_in_project(
        dir,
        &["test", "--report", path.to_str().unwrap(), "--report-format", format],
    );
    let written = std::fs::read_to_string(&path).unwrap();
    (out, written)
}

#[test]
fn the_failed_cases_are_listed_again_after_the_summary() {
    let dir = project_with_a_failing_case();
    let out = run_in_project(dir.path(), &["test"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let expected = format!(
        "3 passed, 1 failed\nfailed cases:\n  {TESTS}:16:5: error: {FAILING}: \
         kustomize[ingress].substitutions.replicas: expected \"2\", got \"1\"\n"
    );
    assert!(stdout.ends_with(&expected), "{stdout}");
    // Each case's ✓ or ✗ still comes first, where it ran.
    assert!(stdout.contains(&format!("✗ {FAILING}\n")), "{stdout}");
    // A case with more differences: the first, and how many more.
    let two = project_changed(&[(ONE_REPLICA, "substitutions: {replicas: \"2\", domain: x}}")]);
    let out = run_in_project(two.path(), &["test"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.ends_with(&format!(
            "failed cases:\n  {TESTS}:16:5: error: {FAILING}: \
             kustomize[ingress].substitutions.replicas: expected \"2\", got \"1\" (and 1 more)\n"
        )),
        "{stdout}"
    );
    // All passed: nothing after the summary.
    let good = run_in_project(&support::examples().join("windsor"), &["test"]);
    assert!(
        text(&good.stdout).ends_with("4 passed, 0 failed\n"),
        "{}",
        text(&good.stdout)
    );
}

#[test]
fn the_json_report_has_a_record_per_case_as_batch_writes_it() {
    let dir = project_with_a_failing_case();
    let (out, written) = report(dir.path(), "json");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_str(&written).unwrap();
    assert_eq!(json["bpvm"], env!("CARGO_PKG_VERSION"));
    let records = json["records"].as_array().unwrap();
    assert_eq!(records.len(), 4);
    let failed: Vec<&serde_json::Value> = records.iter().filter(|r| r["status"] == "failed").collect();
    assert_eq!(failed.len(), 1, "{written}");
    assert_eq!(failed[0]["id"], format!("{TESTS}::{FAILING}"));
    assert_eq!(failed[0]["kind"], "test");
    assert_eq!(
        failed[0]["diagnostics"],
        serde_json::json!(["kustomize[ingress].substitutions.replicas: expected \"2\", got \"1\""])
    );
    assert!(records.iter().all(|r| r["kind"] == "test" && r["seconds"].is_f64()));
    // The same records as a batch's test run on the project, but for time.
    let batch = dir.path().join("batch.json");
    let run = support::bpvm()
        .args(["batch", "--test", "--report"])
        .arg(&batch)
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{}", text(&run.stderr));
    let batch: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&batch).unwrap()).unwrap();
    let untimed = |records: &[serde_json::Value]| -> Vec<serde_json::Value> {
        let mut records: Vec<serde_json::Value> = records.iter().filter(|r| r["kind"] == "test").cloned().collect();
        for r in &mut records {
            r.as_object_mut().unwrap().remove("seconds");
        }
        records
    };
    assert_eq!(untimed(records), untimed(batch["records"].as_array().unwrap()));
}

#[test]
fn the_junit_report_parses_with_a_failure_for_the_failed_case() {
    let dir = project_with_a_failing_case();
    let (out, written) = report(dir.path(), "junit");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let doc = roxmltree::Document::parse(&written).unwrap();
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    assert_eq!(
        (root.attribute("tests"), root.attribute("failures")),
        (Some("4"), Some("1"))
    );
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), 1);
    assert_eq!(suites[0].attribute("name"), Some("test"));
    assert_eq!(
        (suites[0].attribute("tests"), suites[0].attribute("failures")),
        (Some("4"), Some("1"))
    );
    let cases: Vec<_> = suites[0].children().filter(|n| n.has_tag_name("testcase")).collect();
    assert_eq!(cases.len(), 4);
    let failures: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("failure")).collect();
    assert_eq!(failures.len(), 1);
    let case = failures[0].parent_element().unwrap();
    assert_eq!(case.attribute("name"), Some(format!("{TESTS}::{FAILING}").as_str()));
    assert_eq!(failures[0].attribute("message"), Some("the test case failed"));
    assert_eq!(
        failures[0].text(),
        Some("kustomize[ingress].substitutions.replicas: expected \"2\", got \"1\"")
    );
}

#[test]
fn no_report_is_written_when_the_run_cannot_start() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.json");
    let missing = dir.path().join("no-such-project");
    let out = support::bpvm()
        .args(["test", "--report", path.to_str().unwrap(), "--project"])
        .arg(&missing)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stderr).is_empty());
    assert!(!path.exists());
    // A format without a report to write is a usage error.
    let out = run_in_project(
        &support::examples().join("windsor"),
        &["test", "--report-format", "junit"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}
