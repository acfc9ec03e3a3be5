//! Windsor's command-line habits: `--json`, `bpvm test NAME`, and exit
//! statuses as Windsor's where they mean the same (1 for a failed render
//! or test), 2 for a usage error.

use crate::support;
use std::process::Output;

fn bpvm(args: &[&str]) -> Output {
    support::bpvm()
        .args(args)
        .current_dir(support::repo())
        .env_remove("WINDSOR_CONTEXT")
        .output()
        .unwrap()
}

#[test]
fn json_is_dash_o_json() {
    for (flag, more) in [
        (vec!["render", "--project", "examples/windsor"], vec![]),
        (
            vec!["render", "examples/bluelink/blueprint.yaml"],
            vec!["--vars", "examples/bluelink/blueprint.vars.yaml", "--seed", "7"],
        ),
    ] {
        let json = bpvm(&[flag.clone(), vec!["--json"], more.clone()].concat());
        let long = bpvm(&[flag.clone(), vec!["-o", "json"], more.clone()].concat());
        assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
        assert!(json.stdout.starts_with(b"{"), "{flag:?}");
        assert_eq!(json.stdout, long.stdout, "{flag:?}");
    }
    let both = bpvm(&["render", "--project", "examples/windsor", "--json", "-o", "yaml"]);
    assert_eq!(both.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&both.stderr).contains("the argument '--json' cannot be used with '--output <FORMAT>'")
    );
}

#[test]
fn batch_takes_json_too() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let run = bpvm(&["batch", "examples", "--json", "--out", dir]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let local = std::fs::read_to_string(out.path().join("windsor/local.json")).unwrap();
    assert!(local.starts_with("{\n  \"kind\": \"Blueprint\""), "{local}");
}

#[test]
fn test_runs_the_case_named_like_windsor_test() {
    let name = "dev adds the dashboard and observability";
    let one = bpvm(&["test", "--project", "examples/windsor", name]);
    let stdout = String::from_utf8_lossy(&one.stdout);
    assert!(one.status.success(), "{stdout}");
    assert!(stdout.ends_with(&format!("✓ {name}\n1 passed, 0 failed\n")), "{stdout}");
    // --case is the same; giving both is a usage error.
    let case = bpvm(&["test", "--project", "examples/windsor", "--case", name]);
    assert_eq!(case.stdout, one.stdout);
    let both = bpvm(&["test", "--project", "examples/windsor", name, "--case", name]);
    assert_eq!(both.status.code(), Some(2));
    // Exactly the name, as Windsor matches it.
    let part = bpvm(&["test", "--project", "examples/windsor", "dev adds"]);
    assert_eq!(part.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&part.stderr).ends_with("error: no test case is named \"dev adds\"\n"));
}

#[test]
fn test_reads_only_the_files_given_by_path() {
    let out = bpvm(&[
        "test",
        "--project",
        "examples/windsor",
        "--path",
        "contexts/_template/tests/aws.test.yaml",
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("4 passed, 0 failed\n"));
    let none = bpvm(&[
        "test",
        "--project",
        "examples/windsor",
        "--path",
        "contexts/_template/tests/none.test.yaml",
    ]);
    assert_eq!(none.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&none.stderr).contains("none.test.yaml"),
        "{}",
        String::from_utf8_lossy(&none.stderr)
    );
}
