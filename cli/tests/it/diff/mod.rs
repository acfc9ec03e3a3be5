//! `bpvm diff`: a git repository made here (a Windsor project in the
//! v0.9 format with two contexts, a shared facet and a sensitive value;
//! a Bluelink blueprint with an include and a secret variable) committed,
//! then changed in the work tree, compared with the expected output in
//! `expected/` in each format. `BPVM_BLESS=1` writes what bpvm printed
//! into those files instead (read the diff before committing them).

mod errors;
mod fixture;

use crate::support::{bpvm, text};
use fixture::Fixture;
use std::path::Path;
use std::process::Output;

/// Every secret value the fixture ever holds: none may be printed.
const SECRETS: &[&str] = &["s3cret-dev", "s3cret-prod", "n3w-dev", "n3w-prod", "hunter2", "hunter3"];

/// `bpvm diff ARGS` in `dir`, without colour, with its temporary files
/// in `tmp`.
fn diff(dir: &Path, args: &[&str], tmp: &Path) -> Output {
    bpvm()
        .arg("diff")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("TMPDIR", tmp)
        .output()
        .unwrap()
}

/// `actual` against `expected/NAME`, or written there under `BPVM_BLESS=1`.
fn expect(name: &str, actual: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/it/diff/expected")
        .join(name);
    if std::env::var_os("BPVM_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&file, actual).unwrap();
        return;
    }
    let expected =
        std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e} (BPVM_BLESS=1 writes it)", file.display()));
    assert!(
        expected == actual,
        "{name} differs from what bpvm printed (BPVM_BLESS=1 rewrites it):\n--- expected\n{expected}\n--- printed\n{actual}"
    );
}

/// No secret value anywhere in `out`.
fn masked(out: &Output) {
    let all = text(&out.stdout) + &text(&out.stderr);
    for secret in SECRETS {
        assert!(!all.contains(secret), "{secret} printed:\n{all}");
    }
}

/// Nothing left in the temporary folder.
fn cleaned(tmp: &Path) {
    let left: Vec<_> = std::fs::read_dir(tmp)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn a_change_in_every_format_with_secrets_masked() {
    let f = Fixture::committed("change");
    f.change();
    for (format, file) in [
        ("unified", "change.diff"),
        ("markdown", "change.md"),
        ("json", "change.json"),
    ] {
        let out = diff(f.dir(), &["HEAD", "--format", format], f.tmp());
        assert_eq!(out.status.code(), Some(1), "{format}: {}", text(&out.stderr));
        assert_eq!(text(&out.stderr), "", "{format}");
        masked(&out);
        expect(file, &text(&out.stdout));
    }
    cleaned(f.tmp());
    // The JSON is a document programs read.
    let out = diff(f.dir(), &["HEAD", "--format", "json"], f.tmp());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["counts"]["added"], 1);
    assert_eq!(doc["counts"]["removed"], 1);
}

#[test]
fn a_path_narrows_the_diff_and_names_the_targets_under_it() {
    let f = Fixture::committed("path");
    f.change();
    let out = diff(f.dir(), &["HEAD", "infra"], f.tmp());
    assert_eq!(out.status.code(), Some(1));
    masked(&out);
    expect("path.diff", &text(&out.stdout));
    // The same from inside the folder: ids are under where bpvm runs.
    let inside = diff(&f.dir().join("infra"), &["HEAD"], f.tmp());
    let shown = text(&out.stdout)
        .replace("infra/", "")
        .replace("source: infra (", "source: . (");
    assert_eq!(text(&inside.stdout), shown);
}

#[test]
fn a_second_commit_is_compared_with_the_merge_base() {
    let f = Fixture::committed("merge-base");
    f.git(&["checkout", "-q", "-b", "feature"]);
    f.change();
    f.commit("the change");
    // The work tree is the feature's head: the change shows against the
    // merge base, and nothing against HEAD.
    let out = diff(f.dir(), &["main...HEAD"], f.tmp());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    masked(&out);
    expect("change.diff", &text(&out.stdout).replace("main...HEAD", "HEAD"));
    let same = diff(f.dir(), &["HEAD"], f.tmp());
    assert_eq!((same.status.code(), text(&same.stdout)), (Some(0), String::new()));
    let md = diff(f.dir(), &["HEAD", "--format", "markdown"], f.tmp());
    assert_eq!(
        text(&md.stdout),
        "### Rendered diff against `HEAD`\n\nNo rendered output changed (4 targets compared).\n"
    );
    cleaned(f.tmp());
}

#[test]
fn only_a_secret_changed_is_said_without_the_values() {
    let f = Fixture::committed("secret-only");
    f.write("infra/contexts/prod/values.yaml", "size: 3\ntoken: n3w-prod\n");
    f.write("app/orders.vars.yaml", "env: prod\npassword: hunter3\n");
    for (format, file) in [
        ("unified", "secret.diff"),
        ("markdown", "secret.md"),
        ("json", "secret.json"),
    ] {
        let out = diff(f.dir(), &["HEAD", "--format", format], f.tmp());
        assert_eq!(out.status.code(), Some(1), "{format}");
        masked(&out);
        expect(file, &text(&out.stdout));
    }
}

#[test]
fn a_linked_work_tree_is_compared_too() {
    let f = Fixture::committed("linked");
    let linked = tempfile::tempdir().unwrap();
    let at = linked.path().join("wt");
    f.git(&["worktree", "add", "-q", "-b", "other", at.to_str().unwrap()]);
    std::fs::write(
        at.join("infra/contexts/dev/values.yaml"),
        "size: 2\ntoken: s3cret-dev\n",
    )
    .unwrap();
    let out = diff(&at.join("infra"), &["HEAD", "."], f.tmp());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    masked(&out);
    assert!(
        text(&out.stdout).starts_with("diff --bpvm a/dev b/dev\nsource: . (context dev)\n--- a/dev\n"),
        "{}",
        text(&out.stdout)
    );
    cleaned(f.tmp());
}

#[test]
fn an_absolute_path_names_targets_as_a_relative_one_does() {
    let f = Fixture::committed("absolute");
    f.change();
    let absolute = f.dir().join("infra");
    let out = diff(f.dir(), &["HEAD", absolute.to_str().unwrap()], f.tmp());
    assert_eq!(out.status.code(), Some(1));
    expect("path.diff", &text(&out.stdout));
}

#[test]
fn a_folder_new_or_gone_in_the_work_tree_adds_or_removes_its_targets() {
    let f = Fixture::committed("folders");
    f.write(
        "fresh/api.yaml",
        "version: 2023-04-20\nresources: {q: {type: aws/sqs/queue, spec: {}}}\n",
    );
    let out = diff(f.dir(), &["HEAD", "fresh"], f.tmp());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "diff --bpvm a/fresh/api b/fresh/api\nsource: fresh/api.yaml\nnew target\n--- /dev/null\n+++ b/fresh/api\n@@ -0,0 +1,5 @@\n+version: \"2023-04-20\"\n+resources:\n+  q:\n+    type: aws/sqs/queue\n+    spec: {}\n"
    );
    std::fs::remove_dir_all(f.dir().join("app")).unwrap();
    let out = diff(f.dir(), &["HEAD", "app", "--format", "json"], f.tmp());
    assert_eq!(out.status.code(), Some(1), "{}{}", text(&out.stdout), text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["targets"][0]["id"], "app/orders");
    assert_eq!(doc["targets"][0]["change"], "removed");
    cleaned(f.tmp());
}

#[test]
fn the_unified_diff_is_coloured_only_where_asked_and_the_text_is_the_same() {
    let f = Fixture::committed("colour");
    f.change();
    let run = |env: &[(&str, &str)]| {
        let mut cmd = bpvm();
        cmd.args(["diff", "HEAD"])
            .current_dir(f.dir())
            .env("TMPDIR", f.tmp())
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR");
        for (k, v) in env {
            cmd.env(k, v);
        }
        text(&cmd.output().unwrap().stdout)
    };
    let piped = run(&[]);
    let forced = run(&[("CLICOLOR_FORCE", "1")]);
    let refused = run(&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    assert!(!piped.contains('\x1b') && !refused.contains('\x1b'));
    assert!(forced.contains("\x1b[32m+    size: 2\x1b[0m\n"), "{forced:?}");
    assert!(forced.contains("\x1b[31m-    size: 1\x1b[0m\n"), "{forced:?}");
    let plain: String = {
        let mut out = String::new();
        let mut rest = forced.as_str();
        while let Some(i) = rest.find('\x1b') {
            out.push_str(&rest[..i]);
            let end = rest[i..].find('m').map_or(rest.len(), |j| i + j + 1);
            rest = &rest[end..];
        }
        out + rest
    };
    assert_eq!(plain, piped);
}
