//! `bpvm check --format sarif` writes logs that the SARIF 2.1.0 JSON schema
//! accepts, as code scanning requires of an upload.
//!
//! The schema is OASIS's, not ours, and is not in the repository: the test
//! reads it from `BPVM_SARIF_SCHEMA`, which `.ci/run` sets from
//! `tests/check/sarif-schema.sh`. Without it the test runs that script when
//! `npm` is on the PATH; when it still has no schema it fails under `CI`,
//! and elsewhere says it skipped on stderr.

use bpvm::check::{Checked, Finding, Report, sarif};
use bpvm::checker::rules::{INVALID_TEMPLATE, NOT_IN_ENUM, SHARED, TYPE_MISMATCH, UNKNOWN_PATH};
use serde_json::Value;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The SARIF schema's path, or None (after saying so) when there is none
/// and the test should return.
fn schema(test: &str) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("BPVM_SARIF_SCHEMA") {
        return Some(PathBuf::from(path));
    }
    let fetched = fetch();
    if fetched.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: no SARIF schema under CI: set BPVM_SARIF_SCHEMA (tests/check/sarif-schema.sh prints its path)"
        );
        let _ = writeln!(
            std::io::stderr(),
            "skipped: {test}: no SARIF schema (set BPVM_SARIF_SCHEMA or install npm)"
        );
    }
    fetched
}

/// The schema from `tests/check/sarif-schema.sh`, when `npm` is there to
/// fetch it with and the script succeeds.
fn fetch() -> Option<PathBuf> {
    let npm = Command::new("npm")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !npm.is_ok_and(|s| s.success()) {
        return None;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("tests/check/sarif-schema.sh"))
        .stderr(Stdio::inherit())
        .output()
        .ok()?;
    let path = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
    (out.status.success() && path.is_file()).then_some(path)
}

fn template(language: &'static str, folder: &str, findings: Vec<Finding>) -> Checked {
    Checked {
        language,
        folder: folder.into(),
        findings,
        suppressed: Vec::new(),
    }
}

/// Findings of both severities, with and without a position, a suggestion,
/// a YAML path and a source line, in three templates.
fn report() -> Report {
    let mut typo = Finding::new(
        &UNKNOWN_PATH,
        "facets/aws.yaml",
        "terraform[0].inputs.cidr",
        "cluster.wokers: no such property",
    )
    .at(9, 15)
    .suggest("cluster.workers");
    typo.width = 14;
    typo.source = Some("    cidr: ${{ cluster.wokers }}".into());
    let mut mismatch = Finding::new(
        &TYPE_MISMATCH,
        "facets/aws.yaml",
        "when",
        "'1' + 2: a text and a number",
    )
    .at(12, 9);
    mismatch.width = 7;
    let enum_value = Finding::new(
        &NOT_IN_ENUM,
        "facets/gcp yaml/é.yaml",
        "when",
        "'gke' is not one of eks, aks",
    )
    .at(3, 0)
    .suggest("eks");
    let broken = Finding::new(&INVALID_TEMPLATE, "blueprint.yaml", "", "not a mapping");
    let unplaced = Finding::new(&INVALID_TEMPLATE, "blueprint.yaml", "resources.db", "no type");
    Report {
        templates: vec![
            template("windsor", "./infra/windsor", vec![typo, mismatch, enum_value]),
            template("bluelink", "apps/web", vec![broken, unplaced]),
            template("bluelink", "apps/empty", vec![]),
        ],
    }
}

/// Every way `log` breaks the schema at `path`.
fn violations(path: &Path, log: &str) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut schema: Value = serde_json::from_str(&text).expect("the SARIF schema is JSON");
    // The schema's pattern for a language (of a run, a tool and so on) ends
    // in `{2}]?$`: a bare `]`, which the meta-schema's `regex` format
    // refuses. `\]` is the same pattern, written as that format accepts.
    escape_brackets(&mut schema);
    let validator = jsonschema::options()
        .should_validate_formats(true)
        // Draft 4 has no `uri-reference` format, which the schema gives an
        // artifact's `uri`: here it is a check for RFC 3986's characters.
        .with_format("uri-reference", |uri: &str| {
            uri.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=%".contains(&b))
        })
        .build(&schema)
        .expect("the SARIF schema compiles");
    let log: Value = serde_json::from_str(log).expect("a SARIF log is JSON");
    validator
        .iter_errors(&log)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Every `pattern` in `schema` with `}]?` written `}\]?`.
fn escape_brackets(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match value {
                    Value::String(pattern) if key == "pattern" => *pattern = pattern.replace("}]?", "}\\]?"),
                    _ => escape_brackets(value),
                }
            }
        }
        Value::Array(values) => values.iter_mut().for_each(escape_brackets),
        _ => {}
    }
}

#[test]
fn sarif_logs_match_the_sarif_2_1_0_schema() {
    let Some(path) = schema("sarif_logs_match_the_sarif_2_1_0_schema") else {
        return;
    };
    // The schema itself must catch a broken log, or passing means nothing.
    let broken = r#"{"version": "2.0.0", "runs": [{"tool": {"driver": {}}, "results": [{"level": "fatal"}]}]}"#;
    assert!(violations(&path, broken).len() >= 3, "{:?}", violations(&path, broken));

    let report = report();
    let full = sarif(&report, SHARED);
    let log: Value = serde_json::from_str(&full).unwrap();
    assert_eq!(log["runs"][0]["results"].as_array().map(Vec::len), Some(5));
    assert_eq!(violations(&path, &full), Vec::<String>::new(), "{full}");

    // A rule the caller leaves out is still described.
    let few = sarif(&report, &[&TYPE_MISMATCH]);
    assert_eq!(violations(&path, &few), Vec::<String>::new(), "{few}");

    let empty = sarif(&Report::default(), SHARED);
    assert_eq!(violations(&path, &empty), Vec::<String>::new(), "{empty}");
    let nothing_found = Report {
        templates: vec![template("windsor", "infra", vec![])],
    };
    let none = sarif(&nothing_found, &[]);
    assert_eq!(violations(&path, &none), Vec::<String>::new(), "{none}");
}
