//! What bpvm prints and writes of a Windsor project whose schema marks a
//! value `sensitive: true`: every value computed from it masked as
//! ******** in `render` (YAML, JSON, `--out`), `explain`, error messages,
//! `batch` outputs, reports and cache, and `bpvm test` failures, unless
//! `--show-secrets`; a test compares the real values.

use crate::support::{Scratch, bpvm, run_in_project, scratch_dir, text};
use std::path::Path;

const SECRET: &str = "hunter2secret";

/// The project of the reproduction: a sensitive `token` read whole and
/// inside a string.
fn project(name: &str) -> Scratch {
    let dir = scratch_dir(name);
    let files = [
        ("windsor.yaml", "version: v1alpha1\n"),
        (
            "contexts/_template/schema.yaml",
            "type: object\nproperties:\n  token:\n    type: string\n    sensitive: true\n",
        ),
        (
            "contexts/_template/facets/base.yaml",
            "kind: Facet\nmetadata:\n  name: base\nterraform:\n  - name: cluster\n    path: cluster\n    inputs:\n      token: ${token}\n      label: token-${token}\n",
        ),
        ("contexts/dev/values.yaml", "token: hunter2secret\n"),
    ];
    for (path, body) in files {
        write(&dir, path, body);
    }
    dir
}

fn write(dir: &Path, path: &str, body: &str) {
    let path = dir.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, body).unwrap();
}

/// `bpvm ARGS --project . --context dev`: its stdout and stderr.
fn run(dir: &Path, args: &[&str]) -> (String, String, Option<i32>) {
    let mut all = args.to_vec();
    all.extend(["--context", "dev"]);
    let out = run_in_project(dir, &all);
    (text(&out.stdout), text(&out.stderr), out.status.code())
}

/// Every file under `dir`, as text.
fn all_text(dir: &Path) -> String {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.push_str(&all_text(&path));
        } else {
            out.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap()));
        }
    }
    out
}

#[test]
fn render_masks_what_is_computed_from_a_sensitive_value() {
    let dir = project("secrets-render");
    let (yaml, _, code) = run(&dir, &["render"]);
    assert_eq!(code, Some(0));
    assert!(
        yaml.contains("    token: \"********\"\n    label: token-********\n"),
        "{yaml}"
    );
    assert!(!yaml.contains(SECRET), "{yaml}");
    let (json, _, _) = run(&dir, &["render", "-o", "json"]);
    assert!(
        json.contains("\"token\": \"********\",\n        \"label\": \"token-********\""),
        "{json}"
    );
    let (shown, _, _) = run(&dir, &["render", "--show-secrets"]);
    assert!(
        shown.contains("    token: hunter2secret\n    label: token-hunter2secret\n"),
        "{shown}"
    );
    let (_, _, code) = run(&dir, &["render", "--out", "out.yaml"]);
    assert_eq!(code, Some(0));
    let written = std::fs::read_to_string(dir.join("out.yaml")).unwrap();
    assert!(
        written.contains("label: token-********") && !written.contains(SECRET),
        "{written}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn explain_masks_the_value_and_what_it_reads() {
    let dir = project("secrets-explain");
    let (out, _, _) = run(&dir, &["explain", "terraform.cluster.inputs.label"]);
    assert_eq!(
        out,
        "terraform.cluster.inputs.label = \"token-********\"\n\
         \x20 ✓ facet base (contexts/_template/facets/base.yaml:9:7, ordinal 0, merge)\n\
         \x20     token-${token}\n\
         \x20       reads token = \"********\"  (contexts/dev/values.yaml:1:1)\n\
         \x20     gives \"token-********\"\n"
    );
    let (out, _, _) = run(&dir, &["explain", "token"]);
    assert_eq!(out, "token = \"********\"\n  from contexts/dev/values.yaml:1:1\n");
    let (out, _, _) = run(&dir, &["explain", "token", "--show-secrets"]);
    assert_eq!(out, "token = \"hunter2secret\"\n  from contexts/dev/values.yaml:1:1\n");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_error_from_a_sensitive_value_hides_its_details() {
    let dir = project("secrets-error");
    write(
        &dir,
        "contexts/_template/facets/number.yaml",
        "kind: Facet\nmetadata:\n  name: number\nterraform:\n  - name: app\n    inputs:\n      n: ${int(token)}\n",
    );
    let (_, err, code) = run(&dir, &["render"]);
    assert_eq!(code, Some(1));
    assert!(
        err.starts_with("contexts/_template/facets/number.yaml:7:12: error: terraform[app].inputs.n: the expression failed; it reads a secret, so the details are hidden (--show-secrets shows them)\n"),
        "{err}"
    );
    assert!(!err.contains(SECRET), "{err}");
    let (_, err, _) = run(&dir, &["render", "--show-secrets"]);
    assert!(
        err.contains("error: terraform[app].inputs.n: int() cannot parse \"hunter2secret\" as an integer"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_schema_warning_about_a_sensitive_value_does_not_quote_it() {
    let dir = project("secrets-schema");
    write(&dir, "contexts/dev/values.yaml", "token: 424242\n");
    let (_, err, code) = run(&dir, &["render"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        err,
        "contexts/dev/values.yaml:1:1: warning: token: \"********\" is not of type \"string\"\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn batch_outputs_reports_and_cache_hold_masked_text_only() {
    let root = scratch_dir("secrets-batch");
    let proj = project("secrets-batch-project");
    let copied = std::process::Command::new("cp")
        .arg("-R")
        .arg(&proj)
        .arg(root.join("proj"))
        .status()
        .unwrap();
    assert!(copied.success());
    let out = bpvm()
        .current_dir(&root)
        .args([
            "batch",
            "proj",
            "--out",
            "out",
            "--report",
            "report.json",
            "--cache",
            "cache",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let rendered = std::fs::read_to_string(root.join("out/dev.yaml")).unwrap();
    assert!(
        rendered.contains("    token: \"********\"\n    label: token-********\n"),
        "{rendered}"
    );
    for folder in ["out", "cache"] {
        let all = all_text(&root.join(folder));
        assert!(all.contains("********") && !all.contains(SECRET), "{folder}: {all}");
    }
    let report = std::fs::read_to_string(root.join("report.json")).unwrap();
    assert!(
        report.contains("\"secrets\":\"masked\"") && !report.contains(SECRET),
        "{report}"
    );
    // A failing target's message in the report is masked too.
    write(
        &root,
        "proj/contexts/_template/facets/number.yaml",
        "kind: Facet\nmetadata:\n  name: number\nterraform:\n  - name: app\n    inputs:\n      n: ${int(token)}\n",
    );
    let out = bpvm()
        .current_dir(&root)
        .args(["batch", "proj", "--report", "failed.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report = std::fs::read_to_string(root.join("failed.json")).unwrap();
    assert!(
        report.contains("it reads a secret, so the details are hidden"),
        "{report}"
    );
    assert!(
        !report.contains(SECRET) && !text(&out.stderr).contains(SECRET),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(root);
    let _ = std::fs::remove_dir_all(proj);
}

#[test]
fn a_test_compares_real_values_and_prints_its_failure_masked() {
    let dir = project("secrets-test");
    write(
        &dir,
        "contexts/_template/tests/t.test.yaml",
        "cases:\n  - name: real value passes\n    values: {token: hunter2secret}\n    expect:\n      terraform:\n        - name: cluster\n          inputs: {token: hunter2secret, label: token-hunter2secret}\n  - name: wrong value fails\n    values: {token: hunter2secret}\n    expect:\n      terraform:\n        - name: cluster\n          inputs: {label: hunter2secret-x}\n",
    );
    let out = run_in_project(&dir, &["test", "--report", "report.json"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout.contains("✓ real value passes\n✗ wrong value fails\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("    terraform[cluster].inputs.label: expected \"********-x\", got \"token-********\"\n"),
        "{stdout}"
    );
    assert!(!stdout.contains(SECRET), "{stdout}");
    let report = std::fs::read_to_string(dir.join("report.json")).unwrap();
    assert!(!report.contains(SECRET), "{report}");
    let out = run_in_project(&dir, &["test", "--show-secrets"]);
    assert!(
        text(&out.stdout).contains("expected \"hunter2secret-x\", got \"token-hunter2secret\""),
        "{}",
        text(&out.stdout)
    );
    let _ = std::fs::remove_dir_all(dir);
}
