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

/// A check that CONTRIBUTING.md's table of each reference file's cases (the
/// rows `` | `<source>` (`<file>.yaml`) | agree | translated | … ``) says
/// what the files hold: `agree` counts the cases without `differs`.
pub fn contributing_counts(suite: &mut bpvm_harness::Suite, dir: &std::path::Path) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let contributing = std::fs::read_to_string(root.join("CONTRIBUTING.md")).unwrap_or_default();
    let mut rows = Vec::new();
    for path in bpvm_harness::yaml_files(dir, false) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let counted = counts(&path);
        let row = contributing
            .lines()
            .find(|l| l.contains(&format!("(`{name}`)")))
            .map(str::to_string);
        rows.push((name, counted, row));
    }
    suite.check("windsor::reference::contributing_counts_match_the_files", move || {
        for (name, (agree, translated), row) in rows {
            let row = row.ok_or(format!(
                "CONTRIBUTING.md has no row for `{name}` in its table of test suites"
            ))?;
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let said = (cells.get(2).copied(), cells.get(3).copied());
            let (a, t) = (agree.to_string(), translated.to_string());
            if said != (Some(a.as_str()), Some(t.as_str())) {
                return Err(format!(
                    "CONTRIBUTING.md says {row:?}; `{name}` has {agree} agreeing of {translated}"
                ));
            }
        }
        Ok(())
    });
}

/// A reference file's cases without `differs`, and all of them.
fn counts(path: &std::path::Path) -> (usize, usize) {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let doc = bpvm_runtime::Value::from_yaml(&text).unwrap_or_default();
    let cases = match doc.as_map().and_then(|m| m.get("cases")) {
        Some(Value::List(cases)) => cases.as_slice(),
        _ => &[],
    };
    let differ = cases
        .iter()
        .filter(|c| c.as_map().is_some_and(|m| m.get("differs").is_some()))
        .count();
    (cases.len() - differ, cases.len())
}
