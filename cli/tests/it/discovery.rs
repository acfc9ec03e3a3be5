//! What `check` and `batch` search: `--exclude` and `exclude:` in
//! `bpvm-batch.yaml` leave paths out (a glob that matches nothing is
//! warned about), and output bpvm wrote with `--out` says so and is never
//! taken for a template, so that committed rendered output needs no
//! ignore file.

use crate::support::{Scratch, bpvm, copy_tree, examples, scratch_dir, text};
use std::path::Path;
use std::process::Output;

fn run(dir: &Path, args: &[&str]) -> Output {
    bpvm()
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const BLUEPRINT: &str = "version: 2023-04-20\nresources: {q: {type: aws/sqs/queue, spec: {name: q}}}\n";

/// `apps/api.yaml`, `legacy/old.yaml` and `apps/x/fixtures/f.yaml`: three
/// blueprints, of which only the first is wanted.
fn three_blueprints(name: &str) -> Scratch {
    let dir = scratch_dir(name);
    for rel in ["apps/api.yaml", "legacy/old.yaml", "apps/x/fixtures/f.yaml"] {
        write(&dir, rel, BLUEPRINT);
    }
    dir
}

/// The summary line of a batch run (its stderr's last line), without the time.
fn rendered(out: &Output) -> String {
    let stderr = text(&out.stderr);
    let last = stderr.lines().last().unwrap_or_default().to_string();
    last.split(" in ").next().unwrap_or_default().to_string()
}

#[test]
fn exclude_leaves_paths_out_of_check_and_batch() {
    let dir = three_blueprints("exclude-flag");
    let out = run(&dir, &["check", "."]);
    assert_eq!(text(&out.stdout), "no problems in 3 templates\n");
    let excluded = ["--exclude", "legacy", "--exclude", "**/fixtures/**"];
    let out = run(&dir, &[&["check", "."][..], &excluded].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "no problems in 1 template\n");
    assert_eq!(text(&out.stderr), "");
    let out = run(&dir, &[&["batch", "."][..], &excluded].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(rendered(&out), "1 rendered, 0 failed");
    // Excluding everything leaves nothing, and finding nothing fails.
    let out = run(&dir, &["batch", ".", "--exclude", "*"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("error: no Windsor context or Bluelink blueprint to render under .\n"),
        "{stderr}"
    );
}

#[test]
fn an_exclusion_that_matches_nothing_is_warned_about() {
    let dir = three_blueprints("exclude-nothing");
    for command in ["check", "batch"] {
        let out = run(&dir, &[command, ".", "--exclude", "legacy/**", "--exclude", "legcy/**"]);
        assert_eq!(out.status.code(), Some(0), "{command}: {}", text(&out.stderr));
        let want =
            "warning: --exclude \"legcy/**\" matches nothing under . (a mistyped exclusion would exclude nothing)\n";
        assert!(text(&out.stderr).starts_with(want), "{command}: {}", text(&out.stderr));
        assert!(
            !text(&out.stderr).contains("legacy/**"),
            "{command}: {}",
            text(&out.stderr)
        );
    }
    // A template given by its path is not searched: nothing is excluded.
    let out = run(&dir, &["check", "apps/api.yaml", "--exclude", "apps"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let want = "warning: --exclude \"apps\" matches nothing under apps/api.yaml (a mistyped exclusion would exclude nothing)\n";
    assert_eq!(text(&out.stderr), want);
}

#[test]
fn an_exclusion_that_is_not_a_relative_glob_is_refused() {
    let dir = scratch_dir("exclude-bad");
    let out = run(&dir, &["check", ".", "--exclude", "/abs/**"]);
    assert_eq!(out.status.code(), Some(2));
    let want = "error: invalid value '/abs/**' for '--exclude <GLOB>': \"/abs/**\": a glob is a path relative to the folder searched, with / separators, inside it\n";
    assert!(text(&out.stderr).starts_with(want), "{}", text(&out.stderr));
    let out = run(&dir, &["batch", ".", "--exclude", "a/[b"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("\"a/[b\" is not a glob: unclosed character class; missing ']'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn exclude_in_the_manifest_leaves_paths_out() {
    let dir = three_blueprints("exclude-manifest");
    write(
        &dir,
        "bpvm-batch.yaml",
        "exclude:\n  - legacy/**\n  - apps/*/fixtures\n  - nowhere\n",
    );
    let out = run(&dir, &["check", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "no problems in 1 template\n");
    let want = "warning: ./bpvm-batch.yaml:4:5: exclude[2]: \"nowhere\" matches nothing here (a mistyped exclusion would exclude nothing)\n";
    assert_eq!(text(&out.stderr), want);
    let out = run(&dir, &["batch", "."]);
    assert_eq!(rendered(&out), "1 rendered, 0 failed");
    assert!(text(&out.stderr).starts_with(want), "{}", text(&out.stderr));
    // With targets listed, exclude drops those under the paths it names.
    write(
        &dir,
        "bpvm-batch.yaml",
        "targets:\n  - bluelink: apps/api.yaml\n  - bluelink: legacy/old.yaml\nexclude: [legacy]\n",
    );
    let out = run(&dir, &["batch", "."]);
    assert_eq!(rendered(&out), "1 rendered, 0 failed", "{}", text(&out.stderr));
}

#[test]
fn mistakes_in_the_manifests_exclude_are_placed() {
    let dir = three_blueprints("exclude-manifest-bad");
    let cases = [
        (
            "exclud: [legacy]\n",
            "./bpvm-batch.yaml:1:1: error: exclud: unknown key (did you mean \"exclude\"?); bpvm-batch.yaml has: targets, exclude, check\n",
        ),
        (
            "exclude: legacy\n",
            "./bpvm-batch.yaml:1:10: error: exclude: expected a list of globs (paths relative to the folder of bpvm-batch.yaml), found a string\n",
        ),
        (
            "exclude:\n  - ../up\n  - 3\n",
            "./bpvm-batch.yaml:2:5: error: exclude[0]: \"../up\": a glob is a path relative to the folder searched, with / separators, inside it\n./bpvm-batch.yaml:3:5: error: exclude[1]: expected a glob, found an integer\n",
        ),
        (
            "exclude: []\n",
            "./bpvm-batch.yaml:1:10: error: exclude: the list is empty: it would exclude nothing\n",
        ),
    ];
    for (manifest, want) in cases {
        write(&dir, "bpvm-batch.yaml", manifest);
        let out = run(&dir, &["check", "."]);
        assert_eq!(out.status.code(), Some(1), "{manifest}");
        assert!(text(&out.stderr).starts_with(want), "{manifest}: {}", text(&out.stderr));
    }
}

/// A repository with the example Windsor project (one context) and the
/// example Bluelink blueprint (one variable file).
fn repository(name: &str) -> Scratch {
    let dir = scratch_dir(name);
    copy_tree(&examples().join("windsor"), &dir.join("platform"));
    copy_tree(&examples().join("bluelink"), &dir.join("apps"));
    dir
}

#[test]
fn committed_rendered_output_is_never_taken_for_a_template() {
    let dir = repository("committed-output");
    let out = run(&dir, &["batch", ".", "--out", "rendered"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(rendered(&out), "2 rendered, 0 failed");
    let json = run(&dir, &["batch", ".", "--out", "rendered-json", "--json"]);
    assert_eq!(json.status.code(), Some(0), "{}", text(&json.stderr));
    assert!(!dir.join(".ignore").exists() && !dir.join(".gitignore").exists());
    let out = run(&dir, &["check", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).ends_with(" in 2 templates\n"),
        "{}",
        text(&out.stdout)
    );
    let out = run(&dir, &["batch", ".", "--out", "rendered", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(rendered(&out), "2 rendered, 0 failed");
    let out = run(&dir, &["batch", ".", "--out", "rendered-json", "--json", "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
    let out = run(&dir, &["batch", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(rendered(&out), "2 rendered, 0 failed");
    // A hand edit under the output folder is drift, header and all.
    let file = dir.join("rendered/apps/blueprint.yaml");
    let edited = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("# Rendered", "# Edited", 1);
    std::fs::write(&file, edited).unwrap();
    let out = run(&dir, &["batch", ".", "--out", "rendered", "--check"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("-# Edited by bpvm from apps/blueprint.yaml"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn output_written_with_out_carries_the_rendered_mark() {
    let dir = repository("rendered-mark");
    let out = run(&dir, &["batch", ".", "--out", "yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = |rel: &str| {
        let text = std::fs::read_to_string(dir.join(rel)).unwrap();
        text.lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(
        first("yaml/apps/blueprint.yaml"),
        "# Rendered by bpvm from apps/blueprint.yaml (variables apps/blueprint.vars.yaml); edit the source, not this file."
    );
    assert_eq!(
        first("yaml/platform/local.yaml"),
        "# Rendered by bpvm from platform (context local); edit the source, not this file."
    );
    assert!(!dir.join("yaml/.bpvm-rendered").exists());
    // JSON has no comment: the document is as `render` prints it, and the
    // folder carries the mark.
    let out = run(&dir, &["batch", ".", "--out", "json", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(dir.join("json/apps/blueprint.json")).unwrap();
    let printed = run(
        &dir,
        &[
            "render",
            "apps/blueprint.yaml",
            "--vars",
            "apps/blueprint.vars.yaml",
            "--datasources",
            "apps/blueprint.datasources.yaml",
            "--json",
        ],
    );
    assert_eq!(written, text(&printed.stdout));
    let mark = std::fs::read_to_string(dir.join("json/.bpvm-rendered")).unwrap();
    assert!(mark.starts_with("Written by bpvm batch --out: "), "{mark}");
    // `render --out`: YAML marked, JSON and stdout as printed.
    let args = [
        "render",
        "apps/blueprint.yaml",
        "--vars",
        "apps/blueprint.vars.yaml",
        "--datasources",
        "apps/blueprint.datasources.yaml",
    ];
    let stdout = text(&run(&dir, &args).stdout);
    assert!(!stdout.starts_with('#'), "{stdout}");
    let out = run(&dir, &[&args[..], &["--out", "one.yaml"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let header = "# Rendered by bpvm from apps/blueprint.yaml; edit the source, not this file.\n";
    assert_eq!(
        std::fs::read_to_string(dir.join("one.yaml")).unwrap(),
        format!("{header}{stdout}")
    );
    let out = run(&dir, &[&args[..], &["--json", "--out", "one.json"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(std::fs::read_to_string(dir.join("one.json")).unwrap(), written);
    let out = run(&dir, &["render", "--project", "platform", "--out", "w.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let w = std::fs::read_to_string(dir.join("w.yaml")).unwrap();
    assert!(
        w.starts_with("# Rendered by bpvm from platform (context local); edit"),
        "{w}"
    );
    // Marked YAML beside the templates is not one of them (JSON written
    // by `render --out` cannot say so: it is removed first).
    std::fs::remove_file(dir.join("one.json")).unwrap();
    let out = run(&dir, &["check", "."]);
    assert!(
        text(&out.stdout).ends_with(" in 2 templates\n"),
        "{}",
        text(&out.stdout)
    );
}
