//! A case's project written to a folder, and rendered.

use bpvm_runtime::{Map, Value};
use bpvm_windsor::{Error, Format, Project, render, scope};
use std::path::Path;

/// `errors` as a case states them: each `file:line:column: path: message`
/// with its file relative to the project (the project is loaded from a
/// scratch folder, which messages name as given).
fn described<'e>(dir: &Path, errors: impl IntoIterator<Item = &'e Error>) -> String {
    let lines: Vec<String> = errors.into_iter().map(Error::described).collect();
    relative(dir, &lines.join("\n"))
}

/// `text` with the scratch folder `dir` taken off the paths it names.
fn relative(dir: &Path, text: &str) -> String {
    text.replace(&format!("{}/", dir.display()), "")
}

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
    for (key, folder) in [("facets", template.join("facets")), ("files", template.clone())] {
        let Some(files) = case.get(key).and_then(Value::as_map) else {
            continue;
        };
        for (name, text) in files.iter() {
            let text = text.as_str().ok_or(format!("{} is text", name.as_str()))?;
            write(&folder.join(name.as_str()), text)?;
        }
    }
    if let Some(Value::Str(values)) = case.get("values") {
        write(&dir.join("contexts/test/values.yaml"), values)?;
    }
    if let Some(Value::Str(tests)) = case.get("testFile") {
        write(&template.join("tests/case.test.yaml"), tests)?;
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
        Some(Value::Str(s)) if &**s == "v0.9" => Ok(Some(Format::V09)),
        Some(other) => Err(format!("rules must be seed or v0.9, got {}", other.to_json())),
    }
}

/// The blueprint the case's project renders in `dir` and the warnings its
/// loading gave, or the error of its load or render.
pub fn render(dir: &Path, case: &Map) -> Result<(Value, Vec<String>), String> {
    write_project(dir, case)?;
    let project = Project::load_as(dir, rules(case)?).map_err(|e| described(dir, &e.0))?;
    let warnings = project.warnings.iter().map(|w| described(dir, [w])).collect();
    let values = match case.get("values") {
        None | Some(Value::Null) => scope::Values::Given(Value::Map(Map::new())),
        // Text: the context's values.yaml, read as the project reads it.
        Some(Value::Str(_)) => scope::Values::Files,
        Some(v) => scope::Values::Given(v.clone()),
    };
    let defaults = !matches!(case.get("schemaDefaults"), Some(Value::Bool(false)));
    let ctx = scope::context(&project, "test", values, defaults).map_err(|e| described(dir, [&e]))?;
    let opts = render::Options {
        outputs: case.get("terraformOutputs").cloned(),
        environment: case.get("env").and_then(Value::as_map).cloned(),
        operator: case.get("operator").cloned(),
        secrets: match case.get("showSecrets") {
            Some(Value::Bool(true)) => bpvm_windsor::Secrets::Shown,
            _ => bpvm_windsor::Secrets::Masked,
        },
        ..Default::default()
    };
    render::render(&project, "test", ctx, &opts)
        .map(|r| (r.blueprint, warnings))
        .map_err(|e| described(dir, &e.0))
}

/// What `bpvm test` reports for the case's `testFile` in `dir`: a line
/// per case, `✓ name` or `✗ name: what differed; …`, then its warnings.
pub fn test_results(dir: &Path, case: &Map) -> Result<Vec<String>, String> {
    write_project(dir, case)?;
    let project = Project::load_as(dir, rules(case)?).map_err(|e| described(dir, &e.0))?;
    let cases = bpvm_windsor::test::discover(&project, &[]).map_err(|e| described(dir, &e.0))?;
    let mut lines = Vec::new();
    for c in &cases {
        lines.push(match bpvm_windsor::test::run(&project, c, true) {
            diffs if diffs.is_empty() => format!("✓ {}", c.name),
            diffs => format!("✗ {}: {}", c.name, relative(dir, &diffs.join("; "))),
        });
        lines.extend(c.warnings.iter().map(|w| format!("warning: {}", described(dir, [w]))));
    }
    Ok(lines)
}
