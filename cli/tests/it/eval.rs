//! `bpvm eval --rules`: a Windsor expression by Windsor v0.9's rules
//! unless the seed format's are asked for; Bluelink has neither.

use crate::support::bpvm;

fn eval(args: &[&str]) -> (String, String, Option<i32>) {
    let out = bpvm().arg("eval").args(args).output().unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).trim().to_string();
    (text(&out.stdout), text(&out.stderr), out.status.code())
}

#[test]
fn a_windsor_expression_follows_the_v09_rules_unless_told() {
    // expr-lang keeps the right operand of `&&` as it is.
    assert_eq!(eval(&["true && missing"]).0, "null");
    assert_eq!(eval(&["--rules", "v0.9", "true && missing"]).0, "null");
    // The seed format counts nil as false, and `&&` gives a bool.
    assert_eq!(eval(&["--rules", "seed", "true && missing"]).0, "false");
    assert_eq!(eval(&["--rules", "seed", "!missing"]).0, "true");
    let (_, err, code) = eval(&["!missing"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("'!' needs a bool, got nil"), "{err}");
}

#[test]
fn rules_that_do_not_exist_are_a_usage_error_naming_those_that_do() {
    let (_, err, code) = eval(&["--rules", "v1", "1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("invalid value 'v1' for '--rules <RULES>'"), "{err}");
    assert!(err.contains("[possible values: seed, v0.9]"), "{err}");
}

#[test]
fn a_bluelink_expression_is_read_by_its_own_rules_whatever_the_flag() {
    let (out, _, code) = eval(&["--dialect", "bluelink", "--rules", "seed", "and(true, false)"]);
    assert_eq!((out.as_str(), code), ("false", Some(0)));
}
