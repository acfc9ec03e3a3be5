//! `bpvm bench`: one JSON row per expression, bound or (`--unbound`) not,
//! by either rules, and the errors it stops on.

use crate::support::{bpvm, scratch_dir};

fn bench(args: &[&str]) -> std::process::Output {
    let scratch = scratch_dir("bench");
    let env = scratch.join("env.yaml");
    std::fs::write(&env, "provider: aws\ncluster: {name: prod}\n").unwrap();
    bpvm()
        .args(["bench", "--seconds", "0.02", "--json", "--env"])
        .arg(&env)
        .args(args)
        .output()
        .unwrap()
}

fn rows(out: &std::process::Output) -> Vec<serde_json::Value> {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn bound_and_unbound_measure_every_expression_without_allocating() {
    let exprs = ["provider == 'aws'", "cluster.name + '-' + (region ?? 'eu')"];
    for unbound in [false, true] {
        let mut args: Vec<&str> = exprs.to_vec();
        if unbound {
            args.insert(0, "--unbound");
        }
        let rows = rows(&bench(&args));
        assert_eq!(rows.len(), 2);
        for (row, expr) in rows.iter().zip(exprs) {
            assert_eq!(row["expr"], expr);
            assert!(row["ns_per_eval"].as_f64().unwrap() > 0.0, "{row}");
            assert_eq!(row["allocs_per_eval"].as_f64(), Some(0.0), "{row}");
        }
    }
}

#[test]
fn an_expression_that_fails_stops_the_bench_with_its_error() {
    let out = bench(&["provider + 1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error: 1:1: '+' cannot be applied to string and int\n"),
        "{err}"
    );
    assert!(err.contains("1 | provider + 1\n  | ^^^^^^^^^^^^"), "{err}");
}

#[test]
fn seconds_out_of_range_are_a_usage_error_not_a_crash() {
    for seconds in ["1e300", "inf", "NaN", "0", "3601"] {
        let out = bpvm().args(["bench", "--seconds", seconds, "1"]).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{seconds}: {err}");
        assert!(
            err.contains(&format!(
                "invalid value '{seconds}' for '--seconds <S>': expected a number of seconds more than 0 and at most 3600"
            )),
            "{err}"
        );
    }
}

#[test]
fn rules_choose_how_nil_counts_as_eval_does() {
    // Windsor v0.9's rules (the default): `!` needs a bool, and nil is not one.
    let v09 = bench(&["!missing"]);
    assert!(!v09.status.success());
    let err = String::from_utf8_lossy(&v09.stderr);
    assert!(
        err.contains("error: 1:2: '!' needs a bool, got nil (from 'missing')"),
        "{err}"
    );
    // The seed format's: nil counts as false.
    let seed = bench(&["--rules", "seed", "!missing"]);
    assert_eq!(rows(&seed)[0]["allocs_per_eval"], 0.0);
}
