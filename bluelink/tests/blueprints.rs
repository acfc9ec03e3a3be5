//! Bluelink blueprint rendering, table-driven: each case in
//! `tests/blueprints/*.yaml` is a blueprint (inline `files:`, or a fixture
//! folder `dir:` with an expected output file) rendered with chosen
//! variables and data, and either the whole document it renders to, or the
//! errors it must fail with.
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
//! mistake in the case and fails it.
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

use bpvm_bluelink::{load, render};
use bpvm_runtime::Map;
use bpvm_runtime::Value;
use std::path::{Path, PathBuf};

fn text(case: &Map, key: &str) -> Option<String> {
    case.get(key).and_then(Value::as_str).map(str::to_string)
}

/// The folder a case's files are in.
fn folder_of(case: &Map, fixtures: &Path, scratch: &Path) -> PathBuf {
    if let Some(dir) = text(case, "dir") {
        return fixtures.join(dir);
    }
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch).unwrap();
    if let Some(files) = case.get("files").and_then(Value::as_map) {
        for (name, body) in files.iter() {
            let path = scratch.join(name.as_str());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, body.as_str().expect("file contents are text")).unwrap();
        }
    }
    scratch.canonicalize().unwrap()
}

fn options(case: &Map, dir: &Path) -> render::Options {
    let mut variables = Vec::new();
    if let Some(vars) = case.get("vars").and_then(Value::as_map) {
        for (k, v) in vars.iter() {
            let input = match v {
                Value::Str(s) => render::Input::Text(s.to_string()),
                other => render::Input::Value(other.clone()),
            };
            variables.push((k.as_str().to_string(), input));
        }
    }
    render::Options {
        variables,
        datasources: case.get("datasources").cloned(),
        resource_state: case.get("state").cloned(),
        show_secrets: case.get("show_secrets") == Some(&Value::Bool(true)),
        seed: case.get("seed").and_then(|v| match v {
            Value::Int(i) => u64::try_from(*i).ok(),
            _ => None,
        }),
        now: text(case, "now").map(|t| t.parse().expect("now is RFC 3339")),
        cwd: Some(match text(case, "cwd") {
            Some(c) => dir.join(c),
            None => dir.to_path_buf(),
        }),
        root: Some(match text(case, "root") {
            Some(r) => dir.join(r),
            None => dir.to_path_buf(),
        }),
        allow_http: Vec::new(),
    }
}

/// Renders a case: the document and the deferred references, or the
/// error lines.
fn run(case: &Map, dir: &Path) -> Result<(Value, Vec<String>), Vec<String>> {
    let name = text(case, "blueprint").unwrap_or_else(|| {
        if dir.join("blueprint.json").exists() {
            "blueprint.json".into()
        } else {
            "blueprint.yaml".into()
        }
    });
    let lines = |e: bpvm_bluelink::Errors| e.0.iter().map(ToString::to_string).collect::<Vec<_>>();
    let bp = load::load(&dir.join(&name), &name).map_err(lines)?;
    let out = render::render(&bp, &options(case, dir)).map_err(lines)?;
    let deferred = out.deferred.iter().map(|d| d.reference.clone()).collect();
    Ok((out.document, deferred))
}

fn check(case: &Map, dir: &Path, got: Result<(Value, Vec<String>), Vec<String>>) -> Result<(), String> {
    let expected = match (case.get("output"), text(case, "expect")) {
        (Some(v), _) => Some(v.clone()),
        (None, Some(file)) => {
            let body = std::fs::read_to_string(dir.join(&file)).map_err(|e| format!("cannot read {file}: {e}"))?;
            Some(Value::from_yaml(&body).map_err(|e| format!("{file}: {e}"))?)
        }
        (None, None) => None,
    };
    let errors: Option<Vec<String>> = match case.get("error") {
        Some(Value::Str(s)) => Some(vec![s.to_string()]),
        Some(Value::List(items)) => Some(items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect()),
        _ => None,
    };
    match (got, expected, errors) {
        (Ok((doc, deferred)), Some(want), None) => {
            if doc != want {
                return Err(format!(
                    "rendered\n{}\nwanted\n{}",
                    bpvm_runtime::text::to_yaml(&doc),
                    bpvm_runtime::text::to_yaml(&want)
                ));
            }
            let want_deferred: Vec<String> = match case.get("deferred") {
                Some(Value::List(items)) => items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect(),
                _ => Vec::new(),
            };
            if deferred != want_deferred {
                return Err(format!("deferred {deferred:?}, wanted {want_deferred:?}"));
            }
            Ok(())
        }
        (Err(lines), None, Some(want)) => {
            if lines.len() != want.len() || lines.iter().zip(&want).any(|(l, w)| !l.contains(w.as_str())) {
                return Err(format!(
                    "errors\n  {}\nwanted lines containing\n  {}",
                    lines.join("\n  "),
                    want.join("\n  ")
                ));
            }
            Ok(())
        }
        (Ok((doc, _)), None, Some(want)) => Err(format!(
            "rendered, wanted errors {want:?}:\n{}",
            bpvm_runtime::text::to_yaml(&doc)
        )),
        (Err(lines), Some(_), None) => Err(format!("failed:\n  {}", lines.join("\n  "))),
        _ => Err("a case has exactly one of output/expect and error".into()),
    }
}

/// The fields a case may have.
const CASE_FIELDS: &[&str] = &[
    "name",
    "from",
    "seed_wins",
    "note",
    "files",
    "dir",
    "blueprint",
    "vars",
    "datasources",
    "state",
    "show_secrets",
    "cwd",
    "root",
    "seed",
    "now",
    "output",
    "expect",
    "error",
    "deferred",
];

/// What is wrong with a case as written (not with what it renders).
fn malformed(case: &Map, stem: &str, reference: bool) -> Option<String> {
    if let Some((k, _)) = case.iter().find(|(k, _)| !CASE_FIELDS.contains(&k.as_str())) {
        return Some(format!("unknown case field {:?}", k.as_str()));
    }
    for key in ["from", "seed_wins", "note"] {
        if case
            .get(key)
            .is_some_and(|v| v.as_str().is_none_or(|s| s.trim().is_empty()))
        {
            return Some(format!("{key} is a non-empty string"));
        }
    }
    let from = text(case, "from");
    match (reference, from) {
        (true, None) => Some("a reference case names its test: from: \"<file>_test.go: <TestName>\"".into()),
        (true, Some(f)) if !f.starts_with(&format!("{stem}_test.go: Test")) => {
            Some(format!("from {f:?} is not a test of {stem}_test.go"))
        }
        (false, Some(_)) => Some("`from` names a reference test; such cases go in tests/blueprints/reference".into()),
        _ => None,
    }
}

/// Runs every case file of a suite folder; returns (passed, failures).
fn suite(folder: &Path, reference: bool, scratch: &Path) -> (usize, Vec<String>) {
    let mut files: Vec<_> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|f| f.is_file() && f.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    let (mut passed, mut failures) = (0, Vec::new());
    for file in &files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let doc = Value::from_yaml(&std::fs::read_to_string(file).unwrap()).unwrap();
        let Some(Value::List(cases)) = doc.as_map().and_then(|m| m.get("cases")) else {
            panic!("{}: no cases", file.display())
        };
        for case in cases {
            let case = case.as_map().expect("a case is a mapping");
            let label = format!(
                "{}{} / {}",
                if reference { "reference/" } else { "" },
                file.file_name().unwrap().to_string_lossy(),
                text(case, "name").unwrap_or_default()
            );
            if let Some(why) = malformed(case, &stem, reference) {
                failures.push(format!("{label}: {why}"));
                continue;
            }
            let dir = folder_of(case, folder, scratch);
            match check(case, &dir, run(case, &dir)) {
                Ok(()) => passed += 1,
                Err(why) => failures.push(format!("{label}: {why}")),
            }
        }
    }
    (passed, failures)
}

#[test]
fn blueprint_render_cases() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blueprints");
    let scratch = std::env::temp_dir().join(format!("bpvm-blueprints-{}", std::process::id()));
    let (passed, mut failures) = suite(&fixtures, false, &scratch);
    let (ref_passed, ref_failures) = suite(&fixtures.join("reference"), true, &scratch);
    failures.extend(ref_failures);
    let _ = std::fs::remove_dir_all(&scratch);
    let total = passed + ref_passed + failures.len();
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n\n{}",
        failures.len(),
        total,
        failures.join("\n\n")
    );
    assert!(passed > 0 && ref_passed > 0);
    println!("{passed} blueprint cases and {ref_passed} reference cases passed");
}
