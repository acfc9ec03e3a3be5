//! Every render is governed: a step budget per evaluation, a deadline per
//! render, one limit on the values a render's documents hold, host
//! results counted like built values, and no value nested past what a
//! document may be, however it is built. Each input here ran for hours,
//! took gigabytes or crashed before the limit it meets.

use crate::support::{self, Scratch, bpvm};
use std::path::Path;
use std::time::{Duration, Instant};

/// A Windsor project whose facets are `facets` (name, text).
fn project(name: &str, facets: &[(&str, String)]) -> Scratch {
    let dir = support::scratch_dir(name);
    std::fs::create_dir_all(dir.join("contexts/_template/facets")).unwrap();
    std::fs::create_dir_all(dir.join("contexts/local")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "context: local\n").unwrap();
    std::fs::write(dir.join("contexts/local/values.yaml"), "provider: aws\n").unwrap();
    for (file, text) in facets {
        std::fs::write(dir.join("contexts/_template/facets").join(file), text).unwrap();
    }
    dir
}

/// A facet named `name` whose terraform input `x` is `value`.
fn facet(name: &str, value: &str) -> String {
    format!("kind: Facet\nmetadata: {{name: {name}}}\nterraform: [{{path: {name}, inputs: {{x: {value:?}}}}}]\n")
}

/// Runs `bpvm render` on `dir` with `env`; its exit code and stderr.
fn render(dir: &Path, env: &[(&str, &str)], flags: &[&str]) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let out = bpvm()
        .envs(env.iter().copied())
        .arg("render")
        .args(flags)
        .arg("--project")
        .arg(dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err, started.elapsed())
}

const LOOPS: &str = "${let xs = 1..10000; count(xs, count(xs, count(xs, true) > 0) > 0)}";

#[test]
fn loops_inside_loops_stop_at_the_step_budget() {
    let dir = project("steps", &[("base.yaml", facet("base", LOOPS))]);
    let (code, err, _) = render(&dir, &[("BPVM_STEP_BUDGET", "100000")], &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("'count': the evaluation took more than 100000 steps (loop turns and function-value calls), its step budget (set BPVM_STEP_BUDGET to raise it)"),
        "{err}"
    );
    assert!(err.contains("facets/base.yaml:"), "{err}");
}

#[test]
fn a_render_stops_at_its_deadline() {
    let dir = project("deadline", &[("base.yaml", facet("base", LOOPS))]);
    let (code, err, took) = render(&dir, &[("BPVM_STEP_BUDGET", "100000000000000")], &["--timeout", "1"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("the render ran past its deadline of 1 s (--timeout SECONDS or BPVM_TIMEOUT_SECONDS raises it)"),
        "{err}"
    );
    assert!(took < Duration::from_secs(30), "took {took:?}");
    // The variable does what the flag does.
    let (code, err, _) = render(
        &dir,
        &[("BPVM_STEP_BUDGET", "100000000000000"), ("BPVM_TIMEOUT_SECONDS", "1")],
        &[],
    );
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("ran past its deadline of 1 s"), "{err}");
}

#[test]
fn a_timeout_must_be_whole_seconds_from_one() {
    let out = bpvm().args(["render", "--timeout", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid value '0' for '--timeout <SECONDS>'"), "{err}");
}

/// A facet of 330 bytes whose aliases repeat about 2.4M values: under
/// the limit of one document (4M).
fn alias_bomb(name: &str) -> String {
    let mut text = format!("kind: Facet\nmetadata: {{name: {name}}}\nx:\n  l0: &l0 [a, a, a, a, a]\n");
    for level in 1..9 {
        let below = format!("*l{}", level - 1);
        text.push_str(&format!(
            "  l{level}: &l{level} [{below}, {below}, {below}, {below}, {below}]\n"
        ));
    }
    text
}

#[test]
fn a_render_s_documents_add_up_to_one_limit() {
    // Each facet is under the limit of one document; eight of them are
    // far over what a render may hold.
    let facets: Vec<(String, String)> = (0..8)
        .map(|i| (format!("f{i}.yaml"), alias_bomb(&format!("f{i}"))))
        .collect();
    let facets: Vec<(&str, String)> = facets.iter().map(|(f, t)| (f.as_str(), t.clone())).collect();
    let dir = project("documents", &facets);
    for command in [&["render", "--project"][..], &["check"]] {
        let out = bpvm().args(command).arg(&dir).output().unwrap();
        // `check` reports on stdout.
        let err = String::from_utf8_lossy(&out.stderr) + String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {err}");
        assert!(
            err.contains("the documents this render reads hold more than 4194304 values in all"),
            "{command:?}: {err}"
        );
    }
}

#[test]
fn yaml_results_count_toward_the_render_s_values() {
    let bomb = alias_bomb("inner").replace('\n', "\\n");
    let value = format!("${{sum(map(1..100, len(yaml(\"{bomb}\"))))}}");
    let dir = project("yaml-results", &[("base.yaml", facet("base", &value))]);
    let (code, err, _) = render(&dir, &[], &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("yaml() cannot parse: ")
            && err.contains("the documents this render reads hold more than 4194304 values in all"),
        "{err}"
    );
}

#[test]
fn file_results_count_toward_the_evaluation_s_memory() {
    let dir = project(
        "file-results",
        &[("base.yaml", facet("base", "${sum(map(1..4000, len(file('big.txt'))))}"))],
    );
    std::fs::write(dir.join("contexts/_template/facets/big.txt"), "x".repeat(1 << 20)).unwrap();
    let (code, err, _) = render(&dir, &[("BPVM_MEMORY_BUDGET_MIB", "64")], &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("file() would need 1048576 bytes more, and the evaluation already holds 6"),
        "{err}"
    );
    assert!(err.contains("over the memory budget of one evaluation (64 MiB; set BPVM_MEMORY_BUDGET_MIB to raise it)"));
}

/// `{a: {a: … inner …}}`, `n` levels.
fn nest(inner: &str, n: usize) -> String {
    format!("{}{inner}{}", "{a: ".repeat(n), "}".repeat(n))
}

#[test]
fn config_blocks_built_from_each_other_nest_no_deeper_than_a_document() {
    // Each block nests the one before it 55 levels deeper: 30 blocks
    // would be 1,650 levels.
    let mut text = format!(
        "kind: Facet\nmetadata: {{name: base}}\nconfig:\n  - name: b0\n    v: {}\n",
        nest("1", 55)
    );
    for k in 1..30 {
        let inner = format!("'${{b{}.v}}'", k - 1);
        text.push_str(&format!("  - name: b{k}\n    v: {}\n", nest(&inner, 55)));
    }
    text.push_str("terraform: [{path: p, inputs: {x: '${b29.v}'}}]\n");
    let dir = project("deep-blocks", &[("base.yaml", text)]);
    let (code, err, _) = render(&dir, &[], &["-o", "json"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("facets/base.yaml:7:"), "{err}");
    assert!(
        err.contains("the value nests more than 64 levels of lists and maps, 56 of them around it (values built from other values add up)"),
        "{err}"
    );
}

#[test]
fn bluelink_values_built_from_each_other_nest_no_deeper_than_a_document() {
    let dir = support::scratch_dir("deep-values");
    let mut text = format!(
        "version: 2025-11-02\nvalues:\n  v0: {{type: object, value: {}}}\n",
        nest("1", 55)
    );
    for k in 1..30 {
        let inner = format!("'${{values.v{}}}'", k - 1);
        text.push_str(&format!("  v{k}: {{type: object, value: {}}}\n", nest(&inner, 55)));
    }
    text.push_str("resources:\n  r:\n    type: x/y\n    spec: {v: '${values.v29}'}\n");
    std::fs::write(dir.join("bp.yaml"), text).unwrap();
    let out = bpvm().arg("render").arg(dir.join("bp.yaml")).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("bp.yaml:4:"), "{err}");
    assert!(
        err.contains("values.v1.value.a.a.a")
            && err.contains("the value nests more than 64 levels of lists and maps, 55 of them around it"),
        "{err}"
    );
}
