//! `--allow-env PATTERN` and `BPVM_ALLOW_ENV`: with either, `env()`
//! reads only the variables they allow, in every command that renders;
//! a refused read is an error naming the variable and the flag.

use crate::support::bpvm;
use std::path::Path;
use std::process::Output;

/// A project whose facet reads `CI_REGION` and `CI_TOKEN`, with a test
/// case that expects them.
fn project() -> tempfile::TempDir {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::create_dir_all(template.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("contexts/local")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "context: local\n").unwrap();
    std::fs::write(
        template.join("facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform:\n  - path: vpc\n    inputs:\n      region: '${env(\"CI_REGION\")}'\n      token: '${env(\"CI_TOKEN\") ?? \"none\"}'\n",
    )
    .unwrap();
    std::fs::write(
        template.join("tests/env.test.yaml"),
        "cases:\n  - name: reads both\n    env: {CI_REGION: eu, CI_TOKEN: t}\n    expect: {terraform: [{path: vpc, inputs: {region: eu, token: t}}]}\n",
    )
    .unwrap();
    scratch
}

/// `bpvm ARGS` in `dir`, with the two variables set and `allow` as
/// `BPVM_ALLOW_ENV` (unset when `None`).
fn run(dir: &Path, args: &[&str], allow: Option<&str>) -> Output {
    let mut cmd = bpvm();
    cmd.args(args)
        .current_dir(dir)
        .env("CI_REGION", "eu-west-1")
        .env("CI_TOKEN", "s3cr3t")
        .env_remove("BPVM_ALLOW_ENV");
    if let Some(a) = allow {
        cmd.env("BPVM_ALLOW_ENV", a);
    }
    cmd.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

const REFUSED: &str = "env(\"CI_TOKEN\") is refused: the variable is not on the allow-list CI_REG*; allow it with --allow-env CI_TOKEN or in BPVM_ALLOW_ENV";

#[test]
fn without_a_list_any_variable_is_read_as_windsor_does() {
    let scratch = project();
    let dir = scratch.path();
    let out = run(dir, &["render", "--project", "."], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("token: s3cr3t"), "{}", text(&out.stdout));
}

#[test]
fn the_flag_and_the_variable_refuse_what_they_do_not_allow() {
    let scratch = project();
    let dir = scratch.path();
    for (args, allow) in [
        (&["render", "--project", ".", "--allow-env", "CI_REG*"][..], None),
        (&["--allow-env", "CI_REG*", "render", "--project", "."][..], None),
        (&["render", "--project", "."][..], Some("CI_REG*")),
    ] {
        let out = run(dir, args, allow);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(err.contains("terraform[vpc].inputs.token"), "{err}");
        assert!(err.contains(REFUSED), "{err}");
        assert!(!err.contains("s3cr3t") && out.stdout.is_empty(), "{err}");
    }
    // What is allowed renders; the flag adds to the variable's list.
    let out = run(
        dir,
        &["render", "--project", ".", "--allow-env", "CI_TOKEN"],
        Some("CI_REG*"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("region: eu-west-1"));
    // An empty list refuses every variable.
    let out = run(dir, &["render", "--project", "."], Some(""));
    assert!(text(&out.stderr).contains("env(\"CI_REGION\") is refused: the variable is not on an empty allow-list"));
}

#[test]
fn every_command_that_renders_keeps_to_the_list() {
    let scratch = project();
    let dir = scratch.path();
    let allow = Some("CI_REG*");
    let test = run(dir, &["test", "--project", "."], allow);
    assert_eq!(test.status.code(), Some(1), "{}", text(&test.stdout));
    assert!(text(&test.stdout).contains(REFUSED), "{}", text(&test.stdout));
    // explain traces a failed render and warns of the failure, as
    // Windsor's does: the read is refused all the same.
    let explain = run(dir, &["explain", "--project", ".", "terraform.vpc.inputs.token"], allow);
    assert_eq!(explain.status.code(), Some(0));
    assert!(
        text(&explain.stderr).starts_with("contexts/_template/facets/base.yaml:7:17: warning: "),
        "{}",
        text(&explain.stderr)
    );
    assert!(text(&explain.stderr).contains(REFUSED), "{}", text(&explain.stderr));
    assert!(text(&explain.stdout).contains(REFUSED), "{}", text(&explain.stdout));
    assert!(!text(&explain.stdout).contains("s3cr3t"), "{}", text(&explain.stdout));
    let batch = run(dir, &["batch", "."], allow);
    assert_eq!(batch.status.code(), Some(1));
    assert!(text(&batch.stderr).contains(REFUSED), "{}", text(&batch.stderr));
    let graph = run(dir, &["graph", "--project", "."], allow);
    assert_eq!(graph.status.code(), Some(1));
    assert!(text(&graph.stderr).contains(REFUSED), "{}", text(&graph.stderr));
}
