//! `bpvm check` tuned by a team: rules' severities in `bpvm.yaml` (or the
//! `check:` section of `bpvm-batch.yaml`), everywhere and per path;
//! `bpvm:ignore` comments; the summary by rule; `--list-rules`.

use crate::shared;
use crate::support::{self, bpvm, text};
use std::path::Path;
use std::process::Output;

fn check(args: &[&str], dir: &Path) -> Output {
    bpvm()
        .arg("check")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// A project in `dir` whose facet reads `hq` (an unknown path) and whose
/// test file expects a key Windsor's runner ignores.
fn project(dir: &Path) {
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::create_dir_all(template.join("tests")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(
        template.join("schema.yaml"),
        "type: object\nadditionalProperties: false\nproperties:\n  ha: {type: boolean, default: false}\n",
    )
    .unwrap();
    std::fs::write(
        template.join("facets/ha.yaml"),
        "kind: Facet\nmetadata: {name: ha}\nwhen: hq == true\n",
    )
    .unwrap();
    std::fs::write(
        template.join("tests/ha.test.yaml"),
        "cases:\n  - name: ha\n    values: {ha: true}\n    expect:\n      config: {}\n",
    )
    .unwrap();
}

const UNKNOWN: &str = "contexts/_template/facets/ha.yaml:3:7: warning[unknown-path]: hq: no such property";
const IGNORED: &str = "contexts/_template/tests/ha.test.yaml:5:7: warning[test-ignored-key]";

fn headings(out: &Output) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .map(|l| l.trim_start_matches("repo/infra/"))
        .filter(|l| l.starts_with("contexts/"))
        .map(|l| l.split(": \"").next().unwrap_or(l).to_string())
        .collect()
}

#[test]
fn untuned_both_rules_warn_and_the_summary_counts_them_by_rule() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let out = check(&["."], dir.path());
    assert_eq!(headings(&out), [UNKNOWN, IGNORED]);
    assert!(
        text(&out.stdout).ends_with("2 warnings in 1 template: test-ignored-key 1, unknown-path 1\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_rule_switched_off_or_set_to_another_severity() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let config = "check:\n  rules:\n    unknown-path: off\n    test-ignored-key: error\n";
    std::fs::write(dir.path().join("bpvm.yaml"), config).unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert_eq!(
        headings(&out),
        ["contexts/_template/tests/ha.test.yaml:5:7: error[test-ignored-key]"]
    );
    assert!(text(&out.stdout).ends_with("1 error in 1 template: test-ignored-key 1\n"));

    std::fs::write(
        dir.path().join("bpvm.yaml"),
        "check:\n  rules:\n    unknown-path: note\n",
    )
    .unwrap();
    let out = check(&[".", "--deny-warnings"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        headings(&out),
        [
            "contexts/_template/facets/ha.yaml:3:7: note[unknown-path]: hq: no such property",
            IGNORED
        ]
    );
    assert!(
        text(&out.stdout).ends_with("1 warning, 1 note in 1 template: test-ignored-key 1, unknown-path 1\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn path_entries_apply_in_order_after_the_rules_and_the_last_wins() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let config = "check:
  rules:
    unknown-path: off
    test-ignored-key: off
  paths:
    - glob: \"contexts/*/facets/**\"
      rules: {unknown-path: error}
    - glob: \"contexts/_template/facets/ha.yaml\"
      rules: {unknown-path: warning}
    - glob: \"contexts/*/tests/*.yaml\"
      rules: {test-ignored-key: note}
    - glob: \"tests/**\"
      rules: {test-ignored-key: error}
";
    std::fs::write(dir.path().join("bpvm.yaml"), config).unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert_eq!(
        headings(&out),
        [
            UNKNOWN,
            "contexts/_template/tests/ha.test.yaml:5:7: note[test-ignored-key]"
        ]
    );
    // Globs are relative to the configuration's folder, whatever the PATH.
    let out = check(&["contexts/.."], dir.path());
    assert!(
        text(&out.stdout).starts_with(&format!("contexts/../{UNKNOWN}")),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn the_configuration_is_found_above_the_folder_up_to_the_repository_root() {
    let dir = tempfile::tempdir().unwrap();
    let infra = dir.path().join("repo/infra");
    project(&infra);
    std::fs::write(
        dir.path().join("bpvm.yaml"),
        "check:\n  rules:\n    unknown-path: error\n",
    )
    .unwrap();
    // Outside a repository only the folder checked is read.
    let out = check(&["repo/infra"], dir.path());
    assert_eq!(headings(&out), [UNKNOWN, IGNORED]);
    // In one, every folder up to its root (the one holding .git).
    std::fs::create_dir_all(dir.path().join("repo/.git")).unwrap();
    std::fs::write(
        dir.path().join("repo/bpvm.yaml"),
        "check:\n  rules:\n    unknown-path: off\n",
    )
    .unwrap();
    let out = check(&["repo/infra"], dir.path());
    assert_eq!(headings(&out), [IGNORED]);
    // bpvm-batch.yaml's check: section counts as bpvm.yaml does.
    std::fs::remove_file(dir.path().join("repo/bpvm.yaml")).unwrap();
    std::fs::write(
        dir.path().join("repo/bpvm-batch.yaml"),
        "targets:\n  - windsor: infra\ncheck:\n  rules:\n    test-ignored-key: off\n",
    )
    .unwrap();
    let out = check(&["repo/infra"], dir.path());
    assert_eq!(headings(&out), [UNKNOWN]);
    let out = bpvm()
        .args(["batch", "repo", "--out", "out"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(!text(&out.stderr).contains("unknown key"), "{}", text(&out.stderr));
}

#[test]
fn a_mistake_in_the_configuration_is_a_usage_error_at_its_position() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let config = "check:
  rule:
    unknown-path: off
  paths:
    - glob: \"contexts/**\"
      rules:
        unknown-paht: warn
        constant-when: Error
    - glob: \"a/{b\"
      rulez: {}
";
    std::fs::write(dir.path().join("bpvm.yaml"), config).unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        text(&out.stderr),
        "bpvm.yaml:2:3: error: unknown key rule; did you mean rules? (check has: rules, paths)
bpvm.yaml:7:9: error: unknown rule unknown-paht; did you mean unknown-path?
bpvm.yaml:8:24: error: unknown severity Error; did you mean error? (one of: off, note, warning, error)
bpvm.yaml:9:13: error: check.paths[1].glob: \"a/{b\" is no glob: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)
bpvm.yaml:10:7: error: unknown key rulez; did you mean rules? (a paths entry has: glob, rules)
"
    );
    std::fs::write(dir.path().join("bpvm.yaml"), "checks:\n  rules: {}\n").unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "bpvm.yaml:1:1: error: unknown key checks; did you mean check? (bpvm.yaml has: check)\n"
    );
    std::fs::write(
        dir.path().join("bpvm.yaml"),
        "check:\n  rules:\n    unknown-path: warn\n",
    )
    .unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(
        text(&out.stderr),
        "bpvm.yaml:3:19: error: unknown severity warn; did you mean warning? (one of: off, note, warning, error)\n"
    );
}

#[test]
fn comments_suppress_findings_and_the_formats_say_so() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let facet = "kind: Facet\nmetadata: {name: ha}\n# bpvm:ignore[unknown-path] hq is set by the platform team's wrapper\nwhen: hq == true  # bpvm:ignore[not-in-enum] nothing\n";
    std::fs::write(dir.path().join("contexts/_template/facets/ha.yaml"), facet).unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(
        headings(&out),
        [
            "contexts/_template/facets/ha.yaml:4:33: warning[unused-ignore]: `bpvm:ignore[not-in-enum]` suppresses nothing: no not-in-enum finding on this line",
            IGNORED
        ]
    );
    assert!(
        text(&out.stdout)
            .ends_with("2 warnings in 1 template: test-ignored-key 1, unused-ignore 1; 1 suppressed: unknown-path 1\n"),
        "{}",
        text(&out.stdout)
    );

    let out = check(&[".", "--format", "json"], dir.path());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["suppressed"][0]["rule"], "unknown-path");
    assert_eq!(doc["suppressed"][0]["line"], 4);
    assert_eq!(
        doc["suppressed"][0]["reason"],
        "hq is set by the platform team's wrapper"
    );
    assert_eq!(doc["summary"]["warnings"], 2);
    assert_eq!(doc["summary"]["suppressed"], 1);
    assert_eq!(
        doc["summary"]["rules"],
        serde_json::json!([
            {"rule": "test-ignored-key", "errors": 0, "warnings": 1, "notes": 0, "suppressed": 0},
            {"rule": "unused-ignore", "errors": 0, "warnings": 1, "notes": 0, "suppressed": 0},
            {"rule": "unknown-path", "errors": 0, "warnings": 0, "notes": 0, "suppressed": 1},
        ])
    );

    let out = check(&[".", "--format", "sarif"], dir.path());
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    let quiet: Vec<_> = results.iter().filter(|r| r["suppressions"].is_array()).collect();
    assert_eq!(quiet.len(), 1);
    assert_eq!(quiet[0]["ruleId"], "unknown-path");
    assert_eq!(
        quiet[0]["suppressions"],
        serde_json::json!([{"kind": "inSource", "justification": "hq is set by the platform team's wrapper"}])
    );
    assert_eq!(run["properties"]["summary"], doc["summary"]["rules"]);
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let unused = rules.iter().find(|r| r["id"] == "unused-ignore").unwrap();
    assert_eq!(unused["defaultConfiguration"]["level"], "warning");
    assert!(
        unused["shortDescription"]["text"]
            .as_str()
            .unwrap()
            .starts_with("A `bpvm:ignore[rule]` comment")
    );
}

#[test]
fn list_rules_gives_each_rule_its_severity_and_what_it_finds() {
    let out = check(&["--list-rules"], &support::repo());
    assert!(out.status.success());
    let listed = text(&out.stdout);
    assert!(
        listed.starts_with("invalid-template        error    The template does not load: a render would refuse it before evaluating anything.\n"),
        "{listed}"
    );
    assert!(listed.contains("\nunused-ignore           warning  A `bpvm:ignore[rule]` comment"));
    assert_eq!(listed.lines().count(), bpvm::check::rules().len());

    let out = check(&["--list-rules", "--format", "json"], &support::repo());
    let rules: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rules[1]["id"], "unknown-path");
    assert_eq!(rules[1]["severity"], "warning");
    assert_eq!(
        rules[1]["summary"],
        "An expression reads a path that nothing the template declares can provide."
    );
    let help = text(&check(&["--help"], &support::repo()).stdout);
    assert!(help.contains("docs/checks.md") && !help.contains("README"), "{help}");
}

/// The released Windsor core template passes `--deny-warnings` with the
/// three lines of `docs/checks.md`, and fails without them.
#[test]
fn the_v0_7_0_template_passes_deny_warnings_with_three_lines() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/windsor-core-v0.7.0");
    if !shared::present(&corpus) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    support::copy_tree(&corpus, dir.path());
    let out = check(&[".", "--deny-warnings"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout)
            .ends_with("35 warnings in 1 template: unknown-path 25, test-ignored-key 6, constant-when 4\n"),
        "{}",
        text(&out.stdout)
    );
    std::fs::write(dir.path().join("bpvm.yaml"), THREE_LINES).unwrap();
    assert_eq!(THREE_LINES.lines().count(), 3);
    let out = check(&[".", "--deny-warnings"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).ends_with("31 notes in 1 template: unknown-path 25, test-ignored-key 6\n"),
        "{}",
        text(&out.stdout)
    );
    let docs = std::fs::read_to_string(support::repo().join("docs/checks.md")).unwrap();
    assert!(docs.contains(THREE_LINES), "docs/checks.md shows another configuration");
}

const THREE_LINES: &str = "\
# Windsor reads `null` as nil; one-value enums hold conditions for the values to come.
check:
  rules: {unknown-path: note, test-ignored-key: note, constant-when: off}
";

/// The configuration is read as every file bpvm reads: a FIFO is refused,
/// not waited on, and a link out of its folder is not followed.
#[test]
fn a_configuration_that_is_no_regular_file_inside_its_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path());
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("bpvm.yaml"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = check(&["."], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "bpvm.yaml: error: cannot read: \"bpvm.yaml\" is a FIFO; only regular files are read\n"
    );
    std::fs::remove_file(dir.path().join("bpvm.yaml")).unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(
        outside.path().join("bpvm.yaml"),
        "check:\n  rules: {unknown-path: off}\n",
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path().join("bpvm.yaml"), dir.path().join("bpvm.yaml")).unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let folder = dir.path().canonicalize().unwrap();
    let want = format!(
        "bpvm.yaml: error: cannot read: \"bpvm.yaml\" is outside the folder {} (files are read only inside it; symlinks are followed while they stay inside)\n",
        folder.display()
    );
    assert_eq!(text(&out.stderr), want);
}
