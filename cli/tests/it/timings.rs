//! `bpvm batch --shard K/N --timings REPORT`: shards balanced by the
//! durations of a previous report.

use crate::support::{bpvm, scratch_examples, text};
use std::path::Path;

/// The ids shard `shard` renders with `--timings report`.
fn ids(dir: &Path, shard: &str, report: &str) -> Vec<String> {
    let out = bpvm()
        .args([
            "batch",
            "examples",
            "--report",
            "out.json",
            "--shard",
            shard,
            "--timings",
            report,
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("out.json")).unwrap()).unwrap();
    let records = report["records"].as_array().expect("records");
    records.iter().map(|r| r["id"].as_str().unwrap().to_string()).collect()
}

/// A report where `slow` took 9 s and the others 1 s, one missing.
fn skewed(dir: &Path, slow: &str) {
    let ids = [
        "bluelink/blueprint",
        "windsor-v0.9/local",
        "windsor-v0.9/staging",
        "windsor/local",
    ];
    let records: Vec<String> = ids
        .iter()
        .filter(|id| **id != "windsor-v0.9/staging")
        .map(|id| {
            let seconds = if *id == slow { 9.0 } else { 1.0 };
            format!(r#"{{"id": "{id}", "kind": "windsor", "status": "ok", "seconds": {seconds}}}"#)
        })
        .collect();
    let report = format!(r#"{{"bpvm": "0.1.0", "records": [{}]}}"#, records.join(", "));
    std::fs::write(dir.join("timings.json"), report).unwrap();
}

#[test]
fn the_slow_target_has_a_shard_to_itself() {
    let dir = scratch_examples();
    skewed(dir.path(), "windsor/local");
    assert_eq!(ids(dir.path(), "1/2", "timings.json"), ["windsor/local"]);
    // The target the report lacks counts as the median (1 s) and joins
    // the lighter shard.
    assert_eq!(
        ids(dir.path(), "2/2", "timings.json"),
        ["bluelink/blueprint", "windsor-v0.9/local", "windsor-v0.9/staging"]
    );
    skewed(dir.path(), "bluelink/blueprint");
    assert_eq!(ids(dir.path(), "1/2", "timings.json"), ["bluelink/blueprint"]);
}

#[test]
fn an_empty_report_splits_by_count_and_every_target_once() {
    let dir = scratch_examples();
    std::fs::write(dir.path().join("empty.json"), r#"{"bpvm": "0.1.0", "records": []}"#).unwrap();
    let mut all: Vec<String> = (1..=3)
        .flat_map(|k| ids(dir.path(), &format!("{k}/3"), "empty.json"))
        .collect();
    assert_eq!(ids(dir.path(), "1/3", "empty.json").len(), 2);
    all.sort();
    assert_eq!(
        all,
        [
            "bluelink/blueprint",
            "windsor-v0.9/local",
            "windsor-v0.9/staging",
            "windsor/local"
        ]
    );
}

#[test]
fn a_missing_or_wrong_report_is_an_error() {
    let dir = scratch_examples();
    let run = |report: &str| {
        bpvm()
            .args(["batch", "examples", "--shard", "1/2", "--timings", report])
            .current_dir(dir.path())
            .output()
            .unwrap()
    };
    let out = run("missing.json");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --timings missing.json: cannot read it: No such file or directory (os error 2)\n"
    );
    std::fs::write(dir.path().join("junit.xml"), "<testsuites/>").unwrap();
    let out = run("junit.xml");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "error: --timings junit.xml: not a bpvm batch report: expected value at line 1 column 1\n"
    );
}

#[test]
fn timings_without_a_shard_are_refused() {
    let out = bpvm()
        .args(["batch", "examples", "--timings", "report.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the following required arguments were not provided"),
        "{stderr}"
    );
    assert!(stderr.contains("--shard <K/N>|--shard-index <I/N>"), "{stderr}");
}
