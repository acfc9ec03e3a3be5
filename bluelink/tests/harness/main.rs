//! Bluelink blueprint rendering, table-driven: each case in
//! `tests/blueprints/*.yaml` is a blueprint (inline `files:`, or a fixture
//! folder `dir:` with an expected output file) rendered with chosen
//! variables and data, and either the whole document it renders to, or the
//! errors it must fail with. Each case is the test
//! `blueprints::<file>::<case>`, or `blueprints::reference::<file>::<case>`
//! (`bpvm-harness` names them, prints a diff when one fails and, under
//! `BPVM_BLESS=1`, writes what they gave back into their files).
//!
//! A binary of its own: its tests are made at run time from the case
//! files, so it has `harness = false` (Cargo.toml) and its own `main`.
//!
//! Case fields: `name`; `files` (name → text, written to a scratch folder)
//! or `dir` (a folder next to the case file); `blueprint` (default
//! blueprint.yaml, else blueprint.json); `vars` (a string is command-line
//! text, parsed to the declared type; anything else a typed value);
//! `datasources`, `state` (resource state), `show_secrets`, `cwd` (what
//! cwd() returns, relative to the case folder), `root` (the folder files
//! must stay in, default the case folder), `seed`, `now`; then one
//! of `output` (the document), `expect` (a file with the document),
//! `error` (text every problem's line must include, in order: a string or
//! a list); and optionally `deferred` (the references left as written)
//! and `note` (why the case is written as it is). Any other field is a
//! mistake in the case and fails it ([`fields`]).
//!
//! A case that renders (has `output` or `expect`) also has no findings
//! from `check`: what renders, the checker does not refuse.
//!
//! `tests/blueprints/reference/*.yaml` are Bluelink's own validation tests
//! (`libs/blueprint/validation/*_test.go`) translated into cases, one case
//! file per reference test file (`core_variable_validation.yaml` for
//! `core_variable_validation_test.go`); their fixture folders are under
//! `reference/fixtures/` (only `*.yaml` files directly in a suite folder
//! are case files). Each of their cases names the test it comes from,
//! `from: "<file>_test.go: <TestName>"`, and where the reference's result
//! contradicts seeds 002/003 or a decision, bpvm's result is expected and
//! `seed_wins` quotes the words that decide it. The tests left out (they
//! need a provider plugin, or test a Go helper with no blueprint form) are
//! listed in `reference/README.md`.
//!
//! `tests/blueprints/lang/*.yaml` are the `.bp` language's cases (see
//! [`lang`]), Bluelink's own `libs/blueprint/lang` tests among them; the
//! README there lists what is translated and what is left out.
//!
//! Blessing writes `output` (or the file `expect` names in a fixture
//! folder), `deferred` and `error` (every line in full).

mod expected;
mod fields;
mod lang;
mod rendered;
mod roundtrip;

use bpvm_harness::{Case, Failure, Suite};
use bpvm_runtime::Value;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn main() {
    let mut suite = Suite::new();
    let blueprints = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blueprints");
    let mut counts = Vec::new();
    let listed = Arc::new(roundtrip::listed_refusals());
    let round_trip = Arc::new(move |case: &Case| roundtrip::run(case, &listed));
    for (kind, folder, reference) in [
        ("blueprints", blueprints.clone(), false),
        ("blueprints::reference", blueprints.join("reference"), true),
    ] {
        let run = Arc::new(move |case: &Case| run(case, reference));
        let (mut count, mut rendering) = (0, 0);
        for (prefix, path) in suite.files(kind, &folder, false) {
            let Some(file) = suite.file(&prefix, &path) else {
                continue;
            };
            count += suite.cases(&prefix, &file, "cases", &run);
            if let Some(rendering) = roundtrip::rendering_cases(&file) {
                suite.cases(&format!("roundtrip::{prefix}"), &rendering, "cases", &round_trip);
            }
            rendering += expected::rendering(&file);
        }
        counts.push((count, rendering));
    }
    let examples = roundtrip::examples();
    let shipped = examples.len();
    for file in examples {
        let stem = file.trim_end_matches(".yaml").replace(['.', '-'], "_");
        suite.check(&format!("roundtrip::examples::{stem}"), move || {
            roundtrip::example(&file)
        });
    }
    suite.check("roundtrip::examples_are_found", move || {
        (shipped >= 2)
            .then_some(())
            .ok_or(format!("{shipped} example blueprints"))
    });
    let lang_run = Arc::new(|case: &Case| match case.get("bp") {
        Some(_) => lang::parse_case(case),
        None => run(case, false),
    });
    for (prefix, path) in suite.files("blueprints::lang", &blueprints.join("lang"), false) {
        if let Some(file) = suite.file(&prefix, &path) {
            suite.cases(&prefix, &file, "cases", &lang_run);
        }
    }
    let [(cases, rendering), (reference_cases, reference_rendering)] = counts[..] else {
        unreachable!("two folders")
    };
    suite.check("blueprints::both_folders_have_cases", move || {
        (cases > 0 && reference_cases > 0)
            .then_some(())
            .ok_or(format!("{cases} cases and {reference_cases} reference cases"))
    });
    suite.check(
        "blueprints::more_than_100_rendering_cases_are_checked_for_findings",
        move || {
            let checked = rendering + reference_rendering;
            (checked > 100)
                .then_some(())
                .ok_or(format!("only {checked} render cases found"))
        },
    );
    suite.run()
}

fn run(case: &Case, reference: bool) -> Result<(), Failure> {
    let stem = case.file.path.file_stem().unwrap().to_string_lossy().to_string();
    if let Some(why) = fields::malformed(&case.fields, &stem, reference) {
        return Err(Failure::problem(why));
    }
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = folder_of(case, scratch.path())?;
    let mut failure = expected::compare(case, &dir, rendered::render(case, &dir));
    if expected::renders(&case.fields) {
        expected::no_findings(case, &dir, &mut failure);
    }
    failure.result()
}

/// The folder a case's files are in: its `dir` next to the case file, or
/// its `files` written to `scratch`.
fn folder_of(case: &Case, scratch: &Path) -> Result<PathBuf, String> {
    if let Some(dir) = case.text("dir") {
        return Ok(case.file.folder().join(dir));
    }
    if let Some(files) = case.get("files").and_then(Value::as_map) {
        for (name, body) in files.iter() {
            let path = scratch.join(name.as_str());
            std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| e.to_string())?;
            let body = body.as_str().ok_or(format!("{} is text", name.as_str()))?;
            std::fs::write(&path, body).map_err(|e| e.to_string())?;
        }
    }
    scratch.canonicalize().map_err(|e| e.to_string())
}
