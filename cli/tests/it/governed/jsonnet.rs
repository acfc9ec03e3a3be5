//! Jsonnet runs in a worker process: a file that would take all the
//! machine's memory, or run for a minute, ends the render with an error
//! naming the limit and what raises it, within that limit.

use super::project;
use crate::support::bpvm;
use std::time::{Duration, Instant};

/// A string doubled 36 times, each copy made whole (64 GiB at the end).
const DOUBLING: &str =
    "local f(s, n) = if n == 0 then s else f(std.join('', [s, s]), n - 1);\nstd.length(f('x', 36))\n";

/// A fold over 300 million numbers (37 s with the engine in-process).
const FOLD: &str = "std.foldl(function(a, b) a + b, std.range(0, 3e8), 0)\n";

const CALL: &str = "${jsonnet(\"../bomb.jsonnet\")}";

/// Renders the project with `env` set: its exit code, standard error, and
/// how long it took.
fn render(dir: &std::path::Path, env: &[(&str, &str)]) -> (Option<i32>, String, Duration) {
    let started = Instant::now();
    let out = bpvm()
        .args(["render", "--project"])
        .arg(dir)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let took = started.elapsed();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        took,
    )
}

#[test]
fn a_doubling_string_ends_at_the_jsonnet_memory_limit() {
    let dir = project("jsonnet-doubling", CALL, &[("bomb.jsonnet", DOUBLING)]);
    let (code, err, _) = render(&dir, &[("BPVM_JSONNET_MEMORY_MIB", "64")]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("facets/base.yaml:3:") && err.contains(
            "jsonnet() failed on \"../bomb.jsonnet\": Jsonnet needed more than its memory limit of 64 MiB (set BPVM_JSONNET_MEMORY_MIB to raise it)"
        ),
        "{err}"
    );
}

#[test]
fn a_long_fold_ends_at_the_render_time_limit() {
    let dir = project("jsonnet-fold", CALL, &[("bomb.jsonnet", FOLD)]);
    let (code, err, took) = render(&dir, &[("BPVM_TIMEOUT_SECONDS", "2")]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains(
            "jsonnet() failed on \"../bomb.jsonnet\": Jsonnet ran past the render's time limit of 2 s (raise it with --timeout or BPVM_TIMEOUT_SECONDS)"
        ),
        "{err}"
    );
    assert!(took < Duration::from_secs(15), "took {took:?}");
}

#[test]
fn the_worker_reads_imports_inside_the_project_only() {
    let main = "{lib: (import 'lib.libsonnet').v, n: std.extVar('context').provider}";
    let dir = project(
        "jsonnet-imports",
        CALL,
        &[("bomb.jsonnet", main), ("lib.libsonnet", "{v: 'here'}")],
    );
    let out = bpvm()
        .args(["render", "-o", "json", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        text.contains("\"lib\": \"here\"") && text.contains("\"n\": \"aws\""),
        "{text}"
    );
    super::write(
        &dir.join("contexts/_template/bomb.jsonnet"),
        "importstr '../../../outside.txt'",
    );
    let (code, err, _) = render(&dir, &[]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("import path \"../../../outside.txt\" is outside the project"),
        "{err}"
    );
}

#[test]
fn a_worker_that_died_is_started_again_for_the_next_render() {
    // Context `a` blows the memory limit and kills the worker; `b`, rendered
    // after it on the same thread, gets a fresh worker.
    let main = format!("if std.extVar('context').bomb then (\n{DOUBLING}) else {{ok: 1}}");
    let dir = project("jsonnet-restart", CALL, &[("bomb.jsonnet", &main)]);
    for (name, bomb) in [("a", "true"), ("b", "false")] {
        std::fs::create_dir_all(dir.join("contexts").join(name)).unwrap();
        super::write(
            &dir.join("contexts").join(name).join("values.yaml"),
            &format!("bomb: {bomb}\n"),
        );
    }
    let out_dir = tempfile::tempdir().unwrap();
    let out = bpvm()
        .args(["batch", "--jobs", "1", "--out"])
        .arg(out_dir.path())
        .arg(&dir)
        .env("BPVM_JSONNET_MEMORY_MIB", "64")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("Jsonnet needed more than its memory limit of 64 MiB"),
        "{err}"
    );
    let written: Vec<_> = walk(out_dir.path());
    let b = written
        .iter()
        .find(|p| p.to_string_lossy().contains("/b"))
        .expect("b written");
    assert!(std::fs::read_to_string(b).unwrap().contains("ok: 1"), "{written:?}");
}

/// Every file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}
