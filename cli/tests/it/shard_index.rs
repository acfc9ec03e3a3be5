//! `bpvm batch --shard-index I/N`: the shard counted from 0, for an index
//! a container without a shell cannot add 1 to (Kubernetes' job
//! completion index).

use crate::support::{bpvm, scratch_examples, text};
use std::path::Path;

/// The ids a batch of the shipped examples renders, by its shard flag.
fn ids(dir: &Path, shard: &[&str]) -> Vec<String> {
    let out = bpvm()
        .args(["batch", "examples", "--report", "report.json"])
        .args(shard)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let records = report["records"].as_array().expect("records");
    records.iter().map(|r| r["id"].as_str().unwrap().to_string()).collect()
}

#[test]
fn an_index_from_zero_is_the_shard_after_it() {
    let dir = scratch_examples();
    for (index, shard) in [("0/3", "1/3"), ("1/3", "2/3"), ("2/3", "3/3")] {
        let by_index = ids(dir.path(), &["--shard-index", index]);
        assert_eq!(by_index, ids(dir.path(), &["--shard", shard]), "--shard-index {index}");
    }
}

#[test]
fn an_index_past_the_last_shard_is_refused() {
    let out = bpvm()
        .args(["batch", "examples", "--shard-index", "3/3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "invalid value '3/3' for '--shard-index <I/N>': shard index 3/3: I is from 0 to N-1 (0-based, like 0/3 … 2/3)"
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_index_and_a_shard_together_are_refused() {
    let out = bpvm()
        .args(["batch", "examples", "--shard-index", "0/2", "--shard", "1/2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("cannot be used with"),
        "{}",
        text(&out.stderr)
    );
}
