//! What the cases translated from a reference's own tests add
//! (`tests/cases/*/reference/`):
//!
//! - `from` (every case): the test it translates, `<file>_test.go: <Test>`
//!   or `docs/<page>.md`, so a reader can find the original;
//! - `differs` (optional): why bpvm deliberately gives another outcome
//!   than the reference; the case's `result`/`error` is then bpvm's and
//!   `reference` (`{result: …}` or `{error: …}`) is the reference's. A
//!   difference that is no longer one (bpvm now gives what `reference`
//!   gives) fails, so the list of differences never goes stale.

use super::Outcome;
use bpvm::Value;
use bpvm_harness::{Case, Failure};

/// Whether `case` sits in a reference translation (a `reference/` folder).
pub fn is_reference(case: &Case) -> bool {
    case.file.path.components().any(|c| c.as_os_str() == "reference")
}

/// The problems of a reference case's `from`/`differs` fields, given what
/// it gave.
pub fn check(case: &Case, outcome: &Outcome, failure: &mut Failure) {
    if case.text("from").is_none_or(str::is_empty) {
        failure
            .problems
            .push("a reference case needs `from:` naming its test".into());
    }
    let Some(why) = case.get("differs") else {
        if case.get("reference").is_some() {
            failure
                .problems
                .push("`reference` belongs to a case that `differs`".into());
        }
        return;
    };
    if why.as_str().is_none_or(str::is_empty) {
        failure.problems.push("`differs` must say why".into());
    }
    match case.get("reference").and_then(Value::as_map) {
        Some(theirs) if agrees(theirs, outcome) => failure
            .problems
            .push("bpvm now gives what the reference gives: drop `differs` and `reference`".into()),
        Some(theirs) if theirs.get("result").is_some() || theirs.get("error").is_some() => {}
        _ => failure
            .problems
            .push("`differs` needs `reference: {result: …}` or `{error: …}`".into()),
    }
}

fn agrees(theirs: &bpvm_runtime::Map, outcome: &Outcome) -> bool {
    match (outcome, theirs.get("result"), theirs.get("error")) {
        (Ok(ours), Some(want), None) => ours.to_json() == want.to_json(),
        (Err(_), None, Some(_)) => true,
        _ => false,
    }
}
