//! `check` on real Bluelink blueprints: the blueprints the repository
//! ships, and every blueprint the render cases (`tests/blueprints/`)
//! render, have no findings; and no expression the dialect's cases
//! evaluate has an issue. (Each rule's cases, in
//! `tests/check/bluelink/<rule-id>.yaml` of the workspace, run with the
//! Windsor rules' by the workspace's `tests/check.rs`.)

use bpvm_bluelink::check::check;
use bpvm_checker::{Checker, Fields, Keys, Ty};
use bpvm_compiler::{Compiler, Dialect};
use bpvm_runtime::{Map, Value};
use std::path::{Path, PathBuf};

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// Writes `files` (name → text) under `dir`.
fn write_files(dir: &Path, files: &Map) -> Result<(), String> {
    for (name, body) in files.iter() {
        let path = dir.join(name.as_str());
        std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| e.to_string())?;
        let body = body.as_str().ok_or(format!("{} is text", name.as_str()))?;
        std::fs::write(&path, body).map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[test]
fn the_shipped_examples_have_no_findings() {
    let dir = manifest().join("../examples/bluelink");
    let mut checked = 0;
    for file in yaml_files(&dir) {
        let text = std::fs::read_to_string(&file).unwrap();
        // The folder also holds the variables and data a render is given.
        if !text.lines().any(|l| l.starts_with("version:")) {
            continue;
        }
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let found: Vec<String> = check(&file, &name).iter().map(ToString::to_string).collect();
        assert_eq!(found, Vec::<String>::new(), "{name}");
        checked += 1;
    }
    assert!(checked >= 2, "the examples were not found");
}

/// The folder a render case's blueprint is in: its `dir`, or its `files`
/// written to `scratch`.
fn render_case_folder(case: &Map, suite: &Path, scratch: &Path) -> PathBuf {
    if let Some(dir) = case.get("dir").and_then(Value::as_str) {
        return suite.join(dir);
    }
    if let Some(files) = case.get("files").and_then(Value::as_map) {
        write_files(scratch, files).unwrap();
    }
    scratch.to_path_buf()
}

#[test]
fn every_blueprint_the_render_cases_render_has_no_findings() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for suite in [
        manifest().join("tests/blueprints"),
        manifest().join("tests/blueprints/reference"),
    ] {
        for file in yaml_files(&suite) {
            let doc = Value::from_yaml(&std::fs::read_to_string(&file).unwrap()).unwrap();
            let Some(Value::List(cases)) = doc.as_map().and_then(|m| m.get("cases")) else {
                continue;
            };
            for case in cases.iter().filter_map(Value::as_map) {
                if case.get("output").is_none() && case.get("expect").is_none() {
                    continue;
                }
                let scratch = tempfile::tempdir().unwrap();
                let dir = render_case_folder(case, &suite, scratch.path());
                let name = match case.get("blueprint").and_then(Value::as_str) {
                    Some(b) => b.to_string(),
                    None if dir.join("blueprint.json").exists() => "blueprint.json".into(),
                    None => "blueprint.yaml".into(),
                };
                let found = check(&dir.join(&name), &name);
                checked += 1;
                if !found.is_empty() {
                    let case_name = case.get("name").and_then(Value::as_str).unwrap_or_default();
                    let lines: Vec<String> = found.iter().map(ToString::to_string).collect();
                    failures.push(format!("{} / {case_name}:\n  {}", file.display(), lines.join("\n  ")));
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} render cases found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The expression cases of the Bluelink dialect (`tests/cases/bluelink`
/// of the workspace) that evaluate without an error: checked against the
/// types of their environments, none has an issue — what a render does
/// the checker does not refuse.
#[test]
fn every_expression_that_evaluates_checks_clean() {
    let root = manifest().join("../tests/cases/bluelink");
    let mut files = yaml_files(&root);
    files.extend(yaml_files(&root.join("reference/functions")));
    files.extend(yaml_files(&root.join("reference/substitutions")));
    let mut checker = Checker::new(Compiler::new(Dialect::Bluelink));
    let (mut checked, mut failures) = (0, Vec::new());
    for file in files {
        let doc = Value::from_yaml(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let Some(doc) = doc.as_map() else { continue };
        let envs = doc.get("envs").and_then(Value::as_map);
        let Some(Value::List(cases)) = doc.get("cases") else {
            continue;
        };
        for case in cases.iter().filter_map(Value::as_map) {
            let (Some(expr), Some(_)) = (case.get("expr").and_then(Value::as_str), case.get("result")) else {
                continue;
            };
            let scope = match (case.get("env").and_then(Value::as_str), envs) {
                (Some(name), Some(envs)) => envs.get(name).map_or(Ty::Any, |v| Ty::of(v, Keys::Exact)),
                _ => Ty::map(Fields::default()),
            };
            checked += 1;
            match checker.expression(expr, &scope) {
                Ok(found) if found.issues.is_empty() => {}
                Ok(found) => {
                    let messages: Vec<&str> = found.issues.iter().map(|i| i.message.as_str()).collect();
                    failures.push(format!("{}: {expr}: {messages:?}", file.display()));
                }
                Err(d) => failures.push(format!("{}: {expr}: {}", file.display(), d.message)),
            }
        }
    }
    assert!(checked > 500, "only {checked} expression cases found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
