//! `bpvm batch` over a generated monorepo: several Windsor projects with
//! several contexts, Bluelink blueprints with variable sets, data, an
//! include and a deliberately broken target of each language.
//!
//! The batch is run as users run it, through the `bpvm` binary, and held
//! to what `bpvm render` prints for each target.

use crate::support::files::write;
use bpvm::batch::{Record, RecordKind, Report, Status};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Copies the files under `from` to `to`.
pub(crate) use bpvm_harness::copy_tree;

/// The `bpvm` binary of this build, built once if this test runs alone.
pub(crate) fn bpvm() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| {
        let exe = std::env::current_exe().unwrap();
        // target/<profile>/deps/it-… → target/<profile>/bpvm
        let profile_dir = exe.parent().unwrap().parent().unwrap();
        let release = profile_dir.file_name().is_some_and(|n| n == "release");
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "--quiet", "-p", "bpvm-cli"]);
        if release {
            build.arg("--release");
        }
        let status = build.current_dir(env!("CARGO_MANIFEST_DIR")).status().unwrap();
        assert!(status.success(), "cargo build -p bpvm-cli failed");
        profile_dir.join("bpvm")
    })
}

fn run(args: &[&str], cwd: &Path) -> Output {
    Command::new(bpvm()).args(args).current_dir(cwd).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub(crate) fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

/// The shipped Windsor example as a project at `rel`, with `contexts`
/// (name, values.yaml).
fn project(root: &Path, rel: &str, contexts: &[(&str, &str)]) {
    let dir = root.join(rel);
    copy_tree(
        &examples().join("windsor/contexts/_template"),
        &dir.join("contexts/_template"),
    );
    std::fs::copy(examples().join("windsor/windsor.yaml"), dir.join("windsor.yaml")).unwrap();
    for (name, values) in contexts {
        write(&dir, &format!("contexts/{name}/values.yaml"), values);
    }
}

/// Every target id of [`monorepo`], in order.
const IDS: [&str; 11] = [
    "apps/broken",
    "apps/orders/blueprint",
    "apps/orders/blueprint@eu",
    "apps/orders/blueprint@us",
    "apps/queue",
    "platform/aws/local",
    "platform/aws/prod",
    "platform/aws/staging",
    "platform/edge/a",
    "platform/edge/b",
    "platform/edge/broken",
];

/// The two targets that fail: a Bluelink reference to no variable, and a
/// Windsor context whose values are not YAML.
const BROKEN: [&str; 2] = ["apps/broken", "platform/edge/broken"];

fn monorepo(root: &Path) {
    project(
        root,
        "platform/aws",
        &[
            (
                "local",
                "provider: aws\ndev: true\ncluster: {name: sandbox, workers: {count: 3}}\n",
            ),
            (
                "staging",
                "provider: aws\ncluster: {name: staging, workers: {count: 2}}\n",
            ),
            (
                "prod",
                "provider: aws\ndns: {domain: example.org}\ncluster: {name: prod, workers: {count: 6}}\n",
            ),
        ],
    );
    project(
        root,
        "platform/edge",
        &[
            ("a", "provider: aws\ncluster: {name: edge-a}\n"),
            ("b", "dev: true\n"),
            ("broken", "provider: [aws\n"),
        ],
    );
    // A blueprint with an included child, data sources and three sets.
    let orders = root.join("apps/orders");
    std::fs::create_dir_all(&orders).unwrap();
    for file in ["blueprint.yaml", "storage.yaml", "blueprint.datasources.yaml"] {
        std::fs::copy(examples().join("bluelink").join(file), orders.join(file)).unwrap();
    }
    write(
        &orders,
        "blueprint.vars.yaml",
        "environment: production\ndatabasePassword: correct-horse\n",
    );
    write(
        &orders,
        "blueprint.eu.vars.yaml",
        "environment: production\ndatabasePassword: eu-pass\nregion: eu-central-1\neventTypes: '[\"created\"]'\n",
    );
    write(
        &orders,
        "blueprint.us.vars.json",
        "{\"environment\": \"production\", \"databasePassword\": \"us\", \"region\": \"us-east-1\"}\n",
    );
    write(
        root,
        "apps/queue.yaml",
        "version: 2025-11-02\nvariables:\n  env: {type: string, default: dev}\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: 'orders-${variables.env}', fifo: true}\n",
    );
    write(
        root,
        "apps/broken.yaml",
        "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: '${variables.nope}'}\n",
    );
}

/// What `bpvm render` prints for target `id` of [`monorepo`] at `root`.
fn render_alone(root: &Path, id: &str, format: &str) -> Output {
    let (template, rest) = id.rsplit_once('/').unwrap();
    if template.starts_with("platform/") {
        return run(
            &["render", "--project", template, "--context", rest, "-o", format],
            root,
        );
    }
    let (stem, set) = match rest.split_once('@') {
        Some((stem, set)) => (stem, Some(set)),
        None => (rest, None),
    };
    let blueprint = format!("{template}/{stem}.yaml");
    let mut args = vec!["render".to_string(), blueprint, "-o".into(), format.into()];
    args.extend(["--root".into(), ".".into()]);
    let vars = match set {
        None => format!("{template}/{stem}.vars.yaml"),
        Some("us") => format!("{template}/{stem}.us.vars.json"),
        Some(set) => format!("{template}/{stem}.{set}.vars.yaml"),
    };
    if root.join(&vars).exists() {
        args.extend(["--vars".into(), vars]);
    }
    let datasources = format!("{template}/{stem}.datasources.yaml");
    if root.join(&datasources).exists() {
        args.extend(["--datasources".into(), datasources]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&args, root)
}

/// Every file under `dir`, relative, with its bytes.
pub(crate) fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

fn report(path: &Path) -> Report {
    Report::from_json(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn ids(records: &[Record]) -> Vec<&str> {
    records.iter().map(|r| r.id.as_str()).collect()
}

#[test]
fn every_target_renders_as_bpvm_render_prints_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    let outs = tempfile::tempdir().unwrap();
    for format in ["yaml", "json"] {
        let out = outs.path().join(format);
        let out = out.to_str().unwrap();
        let batch = run(&["batch", ".", "--out", out, "-o", format, "--report", "r.json"], root);
        assert_eq!(batch.status.code(), Some(1), "{}", text(&batch.stderr));
        let records = report(&root.join("r.json")).records;
        assert_eq!(ids(&records), IDS);
        let mut written = tree(Path::new(out));
        // JSON output has no comment: its folder says it is output.
        if format == "json" {
            assert!(written.remove(bpvm::batch::RENDERED_FOLDER).is_some());
        }
        let expected: BTreeSet<String> = IDS
            .iter()
            .filter(|id| !BROKEN.contains(id))
            .map(|id| format!("{id}.{format}"))
            .collect();
        assert_eq!(written.keys().cloned().collect::<BTreeSet<_>>(), expected);
        for id in IDS {
            let alone = render_alone(root, id, format);
            match written.get(&format!("{id}.{format}")) {
                Some(bytes) => {
                    assert!(alone.status.success(), "{id}: {}", text(&alone.stderr));
                    // YAML output's first line says it is output.
                    let written = text(bytes);
                    let body = match written.split_once('\n') {
                        Some((first, body)) if format == "yaml" => {
                            assert!(first.starts_with(bpvm::batch::RENDERED), "{id}: {first}");
                            body
                        }
                        _ => written.as_str(),
                    };
                    assert_eq!(body, text(&alone.stdout), "{id} ({format})");
                }
                None => assert!(!alone.status.success(), "{id} rendered alone"),
            }
        }
    }
}

#[test]
fn a_failing_target_is_reported_while_the_others_render() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    let batch = run(&["batch", "--out", "out", "--report", "r.json"], root);
    assert_eq!(batch.status.code(), Some(1));
    let stderr = text(&batch.stderr);
    // Each failure with exactly `bpvm render`'s diagnostics, in id order.
    let mut expected = String::new();
    for id in BROKEN {
        let alone = render_alone(root, id, "yaml");
        let kind = if id.starts_with("apps/") { "bluelink" } else { "windsor" };
        expected.push_str(&format!("✗ {id} ({kind})\n"));
        for line in text(&alone.stderr).lines() {
            expected.push_str(&format!("    {line}\n"));
        }
    }
    assert!(stderr.starts_with(&expected), "{stderr}\n---expected---\n{expected}");
    assert!(expected.contains("apps/broken.yaml:5:"), "{expected}");
    assert!(expected.contains("contexts/broken/values.yaml"), "{expected}");
    let summary = stderr.lines().last().unwrap();
    assert!(summary.starts_with("9 rendered, 2 failed in "), "{summary}");
    let records = report(&root.join("r.json")).records;
    for r in &records {
        let failed = BROKEN.contains(&r.id.as_str());
        assert_eq!(r.status, if failed { Status::Failed } else { Status::Ok }, "{}", r.id);
        assert_eq!(r.diagnostics.is_empty(), !failed, "{}", r.id);
    }
    assert_eq!(tree(&root.join("out")).len(), 9);
}

#[test]
fn fail_fast_stops_at_the_first_failure() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    let batch = run(&["batch", "--jobs", "1", "--fail-fast", "--report", "r.json"], root);
    assert_eq!(batch.status.code(), Some(1));
    // One worker takes targets in order; apps/broken is the first.
    assert_eq!(ids(&report(&root.join("r.json")).records), ["apps/broken"]);
    let stderr = text(&batch.stderr);
    assert!(
        stderr.contains("0 rendered, 1 failed in ") && stderr.contains("stopped at the first failure (--fail-fast)"),
        "{stderr}"
    );
}

#[test]
fn check_passes_on_fresh_output_and_finds_edits_missing_and_stale_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    for id in BROKEN {
        let path = if id.starts_with("apps/") {
            root.join(format!("{id}.yaml"))
        } else {
            root.join("platform/edge/contexts/broken")
        };
        if path.is_dir() {
            std::fs::remove_dir_all(path).unwrap();
        } else {
            std::fs::remove_file(path).unwrap();
        }
    }
    let wrote = run(&["batch", "--out", "out"], root);
    assert!(wrote.status.success(), "{}", text(&wrote.stderr));

    let fresh = run(&["batch", "--out", "out", "--check"], root);
    assert!(fresh.status.success(), "{}", text(&fresh.stderr));
    assert_eq!(text(&fresh.stdout), "");
    assert!(text(&fresh.stderr).contains("9 rendered, 0 failed in "));

    // An edit to a context's values: a unified diff, and nothing written.
    let before = tree(&root.join("out"));
    write(
        root,
        "platform/aws/contexts/staging/values.yaml",
        "provider: aws\ncluster: {name: staging, workers: {count: 5}}\n",
    );
    // A file of the output folder that no target renders any more.
    write(root, "out/platform/aws/retired.yaml", "kind: Blueprint\n");
    // And a target whose output is missing.
    std::fs::remove_file(root.join("out/apps/queue.yaml")).unwrap();
    let drift = run(&["batch", "--out", "out", "--check", "--report", "r.json"], root);
    assert_eq!(drift.status.code(), Some(1));
    let diff = text(&drift.stdout);
    assert!(
        diff.contains("--- /dev/null\n+++ out/apps/queue.yaml (rendered)\n@@ -0,0 +1,"),
        "{diff}"
    );
    assert!(
        diff.contains("--- out/platform/aws/staging.yaml\n+++ out/platform/aws/staging.yaml (rendered)\n@@ "),
        "{diff}"
    );
    assert!(diff.contains("\n-    workers: 2\n"), "{diff}");
    assert!(diff.contains("\n+    workers: 5\n"), "{diff}");
    let stderr = text(&drift.stderr);
    assert!(
        stderr.contains("stale: out/platform/aws/retired.yaml: no target renders it"),
        "{stderr}"
    );
    assert!(stderr.contains("; 2 drifted, 1 stale"), "{stderr}");
    let mut after = tree(&root.join("out"));
    after.remove("platform/aws/retired.yaml");
    let mut expected = before.clone();
    expected.remove("apps/queue.yaml");
    assert_eq!(after, expected, "--check wrote something");
    let records = report(&root.join("r.json")).records;
    let drifted: Vec<&str> = records
        .iter()
        .filter(|r| r.status == Status::Drift)
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(drifted, ["apps/queue", "platform/aws/staging"]);
}

#[test]
fn shards_are_disjoint_and_together_the_whole_batch() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    let whole = run(&["batch", "--test", "--report", "whole.json"], root);
    assert_eq!(whole.status.code(), Some(1));
    let whole = report(&root.join("whole.json"));
    // Two projects' four test cases each are records too.
    assert_eq!(whole.counts().tests, 8);
    for n in [1, 2, 3, 7] {
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        let mut reports = Vec::new();
        for k in 1..=n {
            let file = format!("shard-{k}-of-{n}.json");
            let shard = format!("{k}/{n}");
            run(&["batch", "--test", "--shard", &shard, "--report", &file], root);
            let part = report(&root.join(&file));
            assert_eq!(part.shard.as_deref(), Some(shard.as_str()));
            for r in &part.records {
                assert!(
                    seen.insert(r.id.clone(), k).is_none(),
                    "{} is in two shards of {n}",
                    r.id
                );
            }
            reports.push(file);
        }
        let all: Vec<&str> = seen.keys().map(String::as_str).collect();
        assert_eq!(all, ids(&whole.records), "the shards of {n}");

        // merge-reports gives the whole batch's report.
        let mut args = vec!["batch", "merge-reports"];
        args.extend(reports.iter().map(String::as_str));
        let merged = run(&args, root);
        assert_eq!(merged.status.code(), Some(1), "failures in the merged report");
        let merged = Report::from_json(&text(&merged.stdout)).unwrap();
        let strip = |r: &Record| (r.id.clone(), r.kind, r.status, r.diagnostics.clone());
        assert_eq!(
            merged.records.iter().map(strip).collect::<Vec<_>>(),
            whole.records.iter().map(strip).collect::<Vec<_>>()
        );
        if n > 1 {
            let missing = run(&["batch", "merge-reports", &reports[0]], root);
            assert_eq!(missing.status.code(), Some(1));
            assert_eq!(
                text(&missing.stderr),
                format!("error: shard 2/{n} is missing (the reports are of shards 1/{n})\n")
            );
        }
    }
}

#[test]
fn junit_reports_read_as_junit() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    run(
        &["batch", "--test", "--report", "r.xml", "--report-format", "junit"],
        root,
    );
    run(&["batch", "--test", "--shard", "1/2", "--report", "1.json"], root);
    run(&["batch", "--test", "--shard", "2/2", "--report", "2.json"], root);
    let merged = run(
        &["batch", "merge-reports", "1.json", "2.json", "--report-format", "junit"],
        root,
    );
    for xml in [
        std::fs::read_to_string(root.join("r.xml")).unwrap(),
        text(&merged.stdout),
    ] {
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let top = doc.root_element();
        assert_eq!(top.tag_name().name(), "testsuites");
        assert_eq!(top.attribute("tests"), Some("19"));
        assert_eq!(top.attribute("failures"), Some("2"));
        let suites: Vec<(&str, &str)> = top
            .children()
            .filter(|n| n.has_tag_name("testsuite"))
            .map(|s| (s.attribute("name").unwrap(), s.attribute("tests").unwrap()))
            .collect();
        assert_eq!(suites, [("windsor", "6"), ("bluelink", "5"), ("test", "8")]);
        let failed: Vec<(&str, String)> = doc
            .descendants()
            .filter(|n| n.has_tag_name("failure"))
            .map(|f| {
                (
                    f.parent().unwrap().attribute("name").unwrap(),
                    f.text().unwrap_or("").to_string(),
                )
            })
            .collect();
        assert_eq!(failed.len(), 2);
        assert_eq!(failed[0].0, "platform/edge/broken");
        assert!(failed[1].1.contains("variables.nope"), "{}", failed[1].1);
        let cases = doc.descendants().filter(|n| n.has_tag_name("testcase")).count();
        assert_eq!(cases, 19);
    }
}

#[test]
fn one_worker_and_two_write_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    run(&["batch", "--jobs", "1", "--out", "one"], root);
    run(&["batch", "--jobs", "2", "--out", "two"], root);
    let one = tree(&root.join("one"));
    assert_eq!(one.len(), 9);
    assert_eq!(one, tree(&root.join("two")));
}

#[test]
fn test_cases_are_records_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    // A case that fails: the example's expectation, contradicted.
    let tests = root.join("platform/edge/contexts/_template/tests/aws.test.yaml");
    let suite = std::fs::read_to_string(&tests).unwrap();
    std::fs::write(
        &tests,
        suite.replacen("workers: 4, endpoint", "workers: 5, endpoint", 1),
    )
    .unwrap();
    let batch = run(&["batch", "platform", "--test", "--report", "r.json"], root);
    assert_eq!(batch.status.code(), Some(1));
    let records = report(&root.join("r.json")).records;
    let tests: Vec<&Record> = records.iter().filter(|r| r.kind == RecordKind::Test).collect();
    assert_eq!(tests.len(), 8);
    let failed: Vec<&str> = tests
        .iter()
        .filter(|r| r.status == Status::Failed)
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(
        failed,
        ["edge/contexts/_template/tests/aws.test.yaml::aws builds network, cluster and gitops in order"]
    );
    let stderr = text(&batch.stderr);
    assert!(stderr.contains("; 8 test cases, 1 failed"), "{stderr}");
    assert!(stderr.contains("workers"), "{stderr}");
}

#[test]
fn the_output_folder_inside_a_searched_folder_is_not_searched() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    std::fs::remove_file(root.join("apps/broken.yaml")).unwrap();
    std::fs::remove_dir_all(root.join("platform/edge/contexts/broken")).unwrap();
    let first = run(&["batch", "--out", "rendered"], root);
    assert!(first.status.success(), "{}", text(&first.stderr));
    // The rendered Bluelink blueprints declare a version: were the output
    // folder searched, they would be targets of the next run.
    let again = run(&["batch", "--out", "rendered", "--report", "r.json"], root);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert_eq!(report(&root.join("r.json")).records.len(), 9);
}

#[test]
fn output_never_leaves_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    let outside = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.join("out")).unwrap();
    std::os::unix::fs::symlink(outside.path(), root.join("out/apps")).unwrap();
    let batch = run(&["batch", "--out", "out"], root);
    assert_eq!(batch.status.code(), Some(1));
    let stderr = text(&batch.stderr);
    assert!(
        stderr.contains(
            "error: --out out/apps: is not a folder (a symlink or a file); bpvm writes only inside the output folder"
        ),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}
