//! `bpvm render BLUEPRINT` as scripts use it: the shipped example, output
//! formats, deferred references on stderr, exit status, secrets, and that
//! a failed render never touches an existing output file.

use crate::support::{self, Scratch, bpvm};
use std::path::PathBuf;
use std::process::Output;

fn example() -> PathBuf {
    support::examples().join("bluelink")
}

fn render_example(extra: &[&str]) -> Output {
    let dir = example();
    bpvm()
        .arg("render")
        .arg(dir.join("blueprint.yaml"))
        .arg("--vars")
        .arg(dir.join("blueprint.vars.yaml"))
        .arg("--datasources")
        .arg(dir.join("blueprint.datasources.yaml"))
        .args(extra)
        .output()
        .unwrap()
}

fn scratch(name: &str, blueprint: &str) -> Scratch {
    let dir = support::scratch_dir(&format!("bp-{name}"));
    std::fs::write(dir.join("blueprint.yaml"), blueprint).unwrap();
    dir
}

#[test]
fn the_example_renders_with_deferred_references_listed() {
    let out = render_example(&[]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("  \"queues[2]\":\n    type: aws/sqs/queue\n"), "{text}");
    assert!(text.contains("      queueName: orders-production-shipped\n"), "{text}");
    assert!(text.contains("      vpc: vpc-0production\n"), "{text}");
    assert!(
        text.contains("    links:\n    - queues[0]\n    - queues[1]\n    - queues[2]\n"),
        "{text}"
    );
    assert!(text.contains("    value: \"********\"\n"), "{text}");
    assert!(!text.contains("correct-horse"), "{text}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("3 value(s) left as written until deploy time:\n"),
        "{err}"
    );
    assert!(
        err.contains("exports.functionArn.field: resources.saveOrderFunction.spec.arn"),
        "{err}"
    );
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let a = render_example(&["-o", "json"]);
    let b = render_example(&["-o", "json"]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
    let json = String::from_utf8(a.stdout).unwrap();
    assert!(
        json.starts_with("{\n  \"version\": \"2023-04-20\",\n  \"variables\": {"),
        "{json}"
    );
}

#[test]
fn show_secrets_prints_them() {
    let out = render_example(&["--show-secrets"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("    value: correct-horse-battery-staple\n"), "{text}");
}

#[test]
fn variables_from_the_command_line_are_typed_and_checked() {
    let dir = scratch(
        "vars",
        "version: 2023-04-20\nvariables:\n  port: {type: integer}\nresources:\n  r: {type: test/r, spec: {port: '${variables.port}', text: '$${not.a.substitution}'}}\n",
    );
    let ok = bpvm()
        .arg("render")
        .arg(dir.join("blueprint.yaml"))
        .args(["--var", "port=8080", "-o", "json"])
        .output()
        .unwrap();
    let json = String::from_utf8(ok.stdout).unwrap();
    assert!(json.contains("\"port\": 8080,"), "{json}");
    assert!(json.contains("\"text\": \"${not.a.substitution}\""), "{json}");
    let bad = bpvm()
        .arg("render")
        .arg(dir.join("blueprint.yaml"))
        .args(["--var", "port=eighty"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(
        err.ends_with(
            "blueprint.yaml:3:3: error: variables.port: \"eighty\" is not an integer\n  |\n3 |   port: {type: integer}\n  |   ^\n"
        ),
        "{err}"
    );
    let malformed = bpvm()
        .arg("render")
        .arg(dir.join("blueprint.yaml"))
        .args(["--var", "port"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(malformed.stderr).unwrap(),
        "error: --var \"port\": expected NAME=VALUE\n"
    );
}

#[test]
fn a_failed_render_leaves_the_output_file_alone() {
    let dir = scratch(
        "atomic",
        "version: 2023-04-20\nresources:\n  r: {type: test/r, spec: {a: 1}}\n",
    );
    let out_file = dir.join("out.yaml");
    let ok = bpvm()
        .arg("render")
        .arg(dir.join("blueprint.yaml"))
        .arg("--out")
        .arg(&out_file)
        .status()
        .unwrap();
    assert!(ok.success());
    let before = std::fs::read_to_string(&out_file).unwrap();
    assert!(before.contains("      a: 1\n"), "{before}");
    std::fs::write(
        dir.join("blueprint.yaml"),
        "version: 2023-04-20\nresources:\n  r: {type: bad, spec: {}}\n",
    )
    .unwrap();
    let failed = bpvm()
        .arg("render")
        .arg(dir.join("blueprint.yaml"))
        .arg("--out")
        .arg(&out_file)
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), before);
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file is left: {names:?}");
}

#[test]
fn windsor_flags_do_not_mix_with_a_blueprint() {
    let out = bpvm()
        .arg("render")
        .arg(example().join("blueprint.yaml"))
        .args(["--context", "local"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("cannot be used with"), "{err}");
    let out = bpvm()
        .args(["render", "--var", "a=1", "--project", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_missing_blueprint_is_an_error() {
    let out = bpvm().args(["render", "/nonexistent/blueprint.yaml"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: /nonexistent/blueprint.yaml: cannot read the blueprint:"),
        "{err}"
    );
}

#[test]
fn seed_and_now_pin_uuid_and_datetime() {
    let dir = scratch(
        "pins",
        "version: 2023-04-20\nresources:\n  r: {type: test/r, spec: {id: '${uuid()}', other: '${uuid()}', at: '${datetime(\"rfc3339\")}', tag: '${datetime(\"tagcompact\")}'}}\n",
    );
    let run = |seed: &str| {
        let out = bpvm()
            .arg("render")
            .arg(dir.join("blueprint.yaml"))
            .args(["--seed", seed, "--now", "2024-05-06T07:08:09Z", "-o", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let (a, b, c) = (run("7"), run("7"), run("8"));
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert!(a.contains("\"at\": \"2024-05-06T07:08:09Z\""), "{a}");
    assert!(a.contains("\"tag\": \"20240506070809\""), "{a}");
    let doc: serde_json::Value = serde_json::from_str(&a).unwrap();
    let spec = &doc["resources"]["r"]["spec"];
    assert_ne!(spec["id"], spec["other"], "each call gives a new id");
    assert_eq!(spec["id"].as_str().unwrap().len(), 36);
}

#[test]
fn file_reads_the_same_wherever_bpvm_runs_from() {
    let dir = scratch(
        "cwd",
        "version: 2023-04-20\nresources:\n  r: {type: t/r, spec: {x: '${utf8(file(\"data.txt\"))}'}}\n",
    );
    std::fs::write(dir.join("data.txt"), "beside the blueprint").unwrap();
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(elsewhere.join("data.txt"), "beside the process").unwrap();
    let mut outputs = Vec::new();
    for cwd in [dir.to_path_buf(), elsewhere.clone(), std::env::temp_dir()] {
        let out = bpvm()
            .current_dir(&cwd)
            .arg("render")
            .arg(dir.join("blueprint.yaml"))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        outputs.push(String::from_utf8(out.stdout).unwrap());
    }
    assert!(outputs[0].contains("x: beside the blueprint\n"), "{}", outputs[0]);
    assert_eq!(outputs[0], outputs[1]);
    assert_eq!(outputs[0], outputs[2]);
}

#[test]
fn data_files_must_be_mappings() {
    let dir = scratch("lists", "version: 2023-04-20\nresources:\n  r: {type: t/r, spec: {}}\n");
    std::fs::write(dir.join("list.yaml"), "- a\n- b\n").unwrap();
    for (flag, what) in [
        ("--vars", "variable names to values"),
        ("--datasources", "data source names (or types) to their data"),
        ("--resource-state", "resource names to their deploy-time fields"),
    ] {
        let out = bpvm()
            .arg("render")
            .arg(dir.join("blueprint.yaml"))
            .arg(flag)
            .arg(dir.join("list.yaml"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{flag}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "error: {flag} {}: expected a mapping of {what}, found list\n",
                dir.join("list.yaml").display()
            )
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_render_holds_at_most_four_evaluation_budgets_of_values() {
    let resources: Vec<String> = (0..17)
        .map(|i| format!("  r{i}: {{type: t/r, spec: {{x: '${{utf8(file(\"big.txt\"))}}'}}}}"))
        .collect();
    let dir = scratch(
        "render-budget",
        &format!("version: 2023-04-20\nresources:\n{}\n", resources.join("\n")),
    );
    std::fs::write(dir.join("big.txt"), "x".repeat(4 << 20)).unwrap();
    let out = bpvm()
        .env("BPVM_MEMORY_BUDGET_MIB", "16")
        .arg("render")
        .arg(dir.join("blueprint.yaml"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the render would hold more than 64 MiB of values (four times the memory budget of one evaluation; set BPVM_MEMORY_BUDGET_MIB to raise it)"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}
