//! A Bluelink expression case that expects a result checks clean against
//! the types of its environment: what a render does, the checker does not
//! refuse.

use bpvm::checker::{Checker, Fields, Keys, Ty};
use bpvm::{Compiler, Dialect, Value};
use bpvm_harness::{Case, CaseFile, Difference, Failure};
use std::cell::RefCell;

thread_local! {
    /// One checker per thread, reused: it keeps what it learnt of the
    /// dialect's operations.
    static CHECKER: RefCell<Checker> = RefCell::new(Checker::new(Compiler::new(Dialect::Bluelink)));
}

/// The expression a case checks: its `expr`, when it expects a result.
fn expression(case: &bpvm::runtime::Map) -> Option<&str> {
    case.get("result")?;
    case.get("expr")?.as_str()
}

/// How many cases of `file` are checked.
pub fn count(file: &CaseFile) -> usize {
    match file.get("cases") {
        Some(Value::List(cases)) => cases
            .iter()
            .filter_map(Value::as_map)
            .filter(|c| expression(c).is_some())
            .count(),
        _ => 0,
    }
}

/// Adds the checker's issues with the case's expression to `failure`.
pub fn check(case: &Case, failure: &mut Failure) {
    let Some(expr) = expression(&case.fields) else { return };
    let envs = case.file.get("envs").and_then(Value::as_map);
    let scope = match (case.text("env"), envs) {
        (Some(name), Some(envs)) => envs.get(name).map_or(Ty::Any, |v| Ty::of(v, Keys::Exact)),
        _ => Ty::map(Fields::default()),
    };
    match CHECKER.with_borrow_mut(|checker| checker.expression(expr, &scope)) {
        Ok(found) if found.issues.is_empty() => {}
        Ok(found) => failure.differences.push(Difference {
            what: "the checker's issues".into(),
            expected: String::new(),
            actual: found
                .issues
                .iter()
                .map(|i| i.message.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            fix: None,
        }),
        Err(d) => failure
            .problems
            .push(format!("the checker cannot read it: {}", d.message)),
    }
}
