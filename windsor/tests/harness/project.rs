//! A case's project written to a folder, and rendered.

use bpvm_runtime::{Map, Value};
use bpvm_windsor::{Format, Project, render, scope};
use std::path::Path;

/// `case` with the file's default `files` under its own.
pub fn with_defaults(case: &Map, defaults: Option<&Map>) -> Map {
    let Some(defaults) = defaults else {
        return case.clone();
    };
    let mut files = defaults.clone();
    if let Some(own) = case.get("files").and_then(Value::as_map) {
        for (k, v) in own.iter() {
            files.insert(k.clone(), v.clone());
        }
    }
    let mut case = case.clone();
    case.insert("files", Value::Map(files));
    case
}

fn write_project(dir: &Path, case: &Map) -> Result<(), String> {
    let template = dir.join("contexts/_template");
    let write = |path: &Path, text: &str| {
        std::fs::create_dir_all(path.parent().unwrap()).map_err(|e| e.to_string())?;
        std::fs::write(path, text).map_err(|e| e.to_string())
    };
    write(&dir.join("windsor.yaml"), "version: v1alpha1\n")?;
    std::fs::create_dir_all(template.join("facets")).map_err(|e| e.to_string())?;
    for (key, folder) in [
        ("facets", template.join("facets")),
        ("tests", template.join("tests")),
        ("files", template.clone()),
    ] {
        let Some(files) = case.get(key).and_then(Value::as_map) else {
            continue;
        };
        for (name, text) in files.iter() {
            let text = text.as_str().ok_or(format!("{} is text", name.as_str()))?;
            write(&folder.join(name.as_str()), text)?;
        }
    }
    if let Some(user) = case.get("user") {
        let user = user.as_str().ok_or("user is text")?;
        write(&dir.join("contexts/test/blueprint.yaml"), user)?;
    }
    Ok(())
}

/// The rules a case asks for (`rules: seed` or `rules: v0.9`); none: the
/// ones its facets select.
fn rules(case: &Map) -> Result<Option<Format>, String> {
    match case.get("rules") {
        None => Ok(None),
        Some(Value::Str(s)) if &**s == "seed" => Ok(Some(Format::Seed)),
        Some(Value::Str(s)) if &**s == "v0.9" => Ok(Some(Format::V09("rules: v0.9".into()))),
        Some(other) => Err(format!("rules must be seed or v0.9, got {}", other.to_json())),
    }
}

/// The blueprint the case's project renders in `dir` and the warnings its
/// loading gave, or the error of its load or render.
pub fn render(dir: &Path, case: &Map) -> Result<(Value, Vec<String>), String> {
    write_project(dir, case)?;
    let project = Project::load_as(dir, rules(case)?).map_err(|e| e.to_string())?;
    let warnings = project.warnings.iter().map(|w| w.to_string()).collect();
    let values = match case.get("values") {
        None | Some(Value::Null) => Value::Map(Map::new()),
        Some(v) => v.clone(),
    };
    let defaults = !matches!(case.get("schemaDefaults"), Some(Value::Bool(false)));
    let ctx = scope::context(&project, "test", scope::Values::Given(values), defaults).map_err(|e| e.to_string())?;
    let opts = render::Options {
        outputs: case.get("terraformOutputs").cloned(),
        environment: case.get("env").and_then(Value::as_map).cloned(),
        operator: case.get("operator").cloned(),
        ..Default::default()
    };
    render::render(&project, "test", ctx, &opts)
        .map(|r| (r.blueprint, warnings))
        .map_err(|e| e.to_string())
}

/// What `bpvm test`'s runner makes of the case's test files (`tests`):
/// each test case's name, then `passed` or what it found wrong.
pub fn test(dir: &Path, case: &Map) -> Result<Value, String> {
    write_project(dir, case)?;
    let project = Project::load_as(dir, rules(case)?).map_err(|e| e.to_string())?;
    let cases = bpvm_windsor::test::discover(&project, &[]).map_err(|e| e.to_string())?;
    let mut report = Map::new();
    for c in &cases {
        let found = bpvm_windsor::test::run(&project, c, true);
        let result = match found.is_empty() {
            true => Value::from("passed"),
            false => Value::List(found.iter().map(|d| Value::from(d.as_str())).collect()),
        };
        report.insert(c.name.as_str(), result);
    }
    Ok(Value::Map(report))
}
