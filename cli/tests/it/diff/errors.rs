//! What stops `bpvm diff`, or one target of it: each message checked.

use super::fixture::Fixture;
use super::{cleaned, diff, expect, masked};
use crate::support::text;

#[test]
fn a_target_that_fails_to_render_shows_its_error_and_exits_2() {
    let f = Fixture::committed("broken");
    f.write(
        "infra/contexts/_template/facets/base.yaml",
        &std::fs::read_to_string(f.dir().join("infra/contexts/_template/facets/base.yaml"))
            .unwrap()
            .replace("${size}", "${size +}"),
    );
    let out = diff(f.dir(), &["HEAD"], f.tmp());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    masked(&out);
    expect("render-error.diff", &text(&out.stdout));
    cleaned(f.tmp());
    // Broken at the revision, fixed in the work tree: the error is the revision's.
    f.commit("broken");
    f.write(
        "infra/contexts/_template/facets/base.yaml",
        &text(
            f.git(&["show", "HEAD~1:infra/contexts/_template/facets/base.yaml"])
                .as_bytes(),
        ),
    );
    let out = diff(f.dir(), &["HEAD", "--format", "json"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let errors = &doc["targets"][0]["errors"];
    assert!(errors["after"].is_null(), "{doc}");
    let before = errors["before"].as_str().unwrap();
    assert!(
        before.starts_with("infra/contexts/_template/facets/base.yaml:"),
        "{before}"
    );
    assert!(!before.contains(&f.tmp().display().to_string()), "{before}");
    cleaned(f.tmp());
}

#[test]
fn an_unknown_revision_gets_a_did_you_mean() {
    let f = Fixture::committed("bad-rev");
    let out = diff(f.dir(), &["mian"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: unknown revision \"mian\": no branch, tag or commit of that name (did you mean \"main\"?)\n"
    );
    assert_eq!(text(&out.stdout), "");
    cleaned(f.tmp());
}

#[test]
fn outside_a_git_repository_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let out = diff(dir.path(), &["HEAD"], tmp.path());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: .: not in a git repository (no .git in it or in a folder above it)\n"
    );
}

#[test]
fn a_path_outside_the_repository_is_refused() {
    let f = Fixture::committed("outside");
    let elsewhere = tempfile::tempdir().unwrap();
    let out = diff(f.dir(), &["HEAD", "infra", elsewhere.path().to_str().unwrap()], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.contains(": not inside the git work tree at "), "{said}");
    cleaned(f.tmp());
}

#[test]
fn a_markdown_limit_below_a_thousand_is_bad_usage() {
    let f = Fixture::committed("limit");
    let out = diff(f.dir(), &["HEAD", "--format", "markdown", "--max-chars", "10"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("10 is not in 1000.."),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_mistake_in_bpvm_batch_yaml_stops_the_diff_with_its_place() {
    let f = Fixture::committed("manifest");
    f.write(
        "bpvm-batch.yaml",
        "targets:\n  - windsor: infra\n    contexts: [dev, prd]\n",
    );
    let out = diff(f.dir(), &["HEAD"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: cannot find the targets in the work tree:\n\
         bpvm-batch.yaml:3:21: targets[0].contexts[1]: no context \"prd\" in infra (did you mean \"prod\"?); it has: dev, prod\n"
    );
    cleaned(f.tmp());
    // Committed, the same mistake is the revision's, named alike.
    f.commit("manifest");
    f.write("bpvm-batch.yaml", "targets:\n  - windsor: infra\n");
    let out = diff(f.dir(), &["HEAD"], f.tmp());
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: cannot find the targets at HEAD:\n\
         bpvm-batch.yaml:3:21: targets[0].contexts[1]: no context \"prd\" in infra (did you mean \"prod\"?); it has: dev, prod\n"
    );
    cleaned(f.tmp());
}

#[test]
fn no_temporary_folder_is_an_error_that_says_so() {
    let f = Fixture::committed("no-tmp");
    let out = diff(f.dir(), &["HEAD"], &f.dir().join("no/such/folder"));
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.starts_with("error: cannot make a folder for the revision's files: "),
        "{said}"
    );
}

#[test]
fn an_interrupted_diff_removes_the_revisions_files() {
    let f = Fixture::committed("interrupted");
    // Long strings to render at both sides: long enough to be caught in the act.
    let big = "      big: ${repeat('a', 30000000)}\n";
    f.write(
        "infra/contexts/_template/facets/base.yaml",
        &(std::fs::read_to_string(f.dir().join("infra/contexts/_template/facets/base.yaml")).unwrap() + big),
    );
    f.commit("big");
    let mut caught = 0;
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let mut child = std::process::Command::new(crate::support::BPVM)
            .args(["diff", "HEAD"])
            .current_dir(f.dir())
            .env("TMPDIR", f.tmp())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        // The revision's files written: interrupt (while it renders).
        let written = || {
            let made = std::fs::read_dir(f.tmp()).unwrap().next();
            made.is_some_and(|d| d.unwrap().path().join("0/infra/contexts/prod/values.yaml").exists())
        };
        while !written() {
            assert!(start.elapsed().as_secs() < 30, "no temporary folder");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let sent = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        // A run that ended before the signal came is no test of it.
        if status.code() == Some(0) {
            continue;
        }
        assert_eq!(status.code(), Some(code), "{signal}");
        cleaned(f.tmp());
        caught += 1;
    }
    assert!(caught > 0, "every run ended before its signal");
}
