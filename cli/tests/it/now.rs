//! `--now` pins what `now()` gives in Windsor expressions for `bpvm
//! eval`, `bpvm render` and `bpvm test`, so that their output is the
//! same every run; a value that is no RFC 3339 instant is refused.

use crate::support::{self, Scratch, bpvm, run_in_project, text};

const NOW: &str = "2024-05-06T07:08:09Z";

/// A project whose one facet stamps an input with the day `now()` gives,
/// and whose one test expects the day of [`NOW`].
fn project(name: &str) -> Scratch {
    let dir = support::scratch_dir(name);
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::create_dir_all(template.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("contexts/dev")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(
        template.join("facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\n\
         terraform: [{path: vpc, inputs: {day: \"${now().Format('2006-01-02')}\", at: \"${now()}\"}}]\n",
    )
    .unwrap();
    std::fs::write(
        template.join("tests/base.test.yaml"),
        "cases:\n- name: stamped\n  expect: {terraform: [{path: vpc, inputs: {day: \"2024-05-06\"}}]}\n",
    )
    .unwrap();
    dir
}

const REFUSED: &str = "error: --now \"yesterday\" is not an RFC 3339 time such as 2024-05-06T07:08:09Z\n";

#[test]
fn eval_now_gives_the_pinned_instant() {
    let out = bpvm()
        .args(["eval", "--now", NOW, "[now(), now().Year(), string(now())]"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "[\"2024-05-06T07:08:09Z\",2024,\"2024-05-06 07:08:09 +0000 UTC\"]\n"
    );
    // An offset is kept: the clock reads as it does there.
    let out = bpvm()
        .args(["eval", "--now", "2024-05-06T09:08:09+02:00", "now().Hour()"])
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout), "9\n");
    let out = bpvm().args(["eval", "--now", "yesterday", "now()"]).output().unwrap();
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(1), REFUSED.to_string()));
}

#[test]
fn render_now_gives_the_pinned_instant() {
    let dir = project("now-render");
    for rules in ["seed", "v0.9"] {
        let out = run_in_project(
            &dir,
            &[
                "render",
                "--context",
                "dev",
                "--rules",
                rules,
                "--now",
                NOW,
                "-o",
                "json",
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("\"day\": \"2024-05-06\""), "{stdout}");
        assert!(stdout.contains("\"at\": \"2024-05-06T07:08:09Z\""), "{stdout}");
    }
    let out = run_in_project(&dir, &["render", "--context", "dev", "--now", "yesterday"]);
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(1), REFUSED.to_string()));
}

#[test]
fn test_now_gives_the_pinned_instant() {
    let dir = project("now-test");
    let out = run_in_project(&dir, &["test", "--now", NOW]);
    assert!(out.status.success(), "{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        text(&out.stdout).contains("✓ stamped\n1 passed, 0 failed\n"),
        "{}",
        text(&out.stdout)
    );
    let out = run_in_project(&dir, &["test", "--now", "yesterday"]);
    assert_eq!((out.status.code(), text(&out.stderr)), (Some(1), REFUSED.to_string()));
}
