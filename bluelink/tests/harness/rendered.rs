//! A case's blueprint loaded and rendered with the case's inputs.

use bpvm_bluelink::{load, render};
use bpvm_harness::Case;
use bpvm_runtime::Value;
use std::path::Path;

fn options(case: &Case, dir: &Path) -> render::Options {
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
        now: case.text("now").map(|t| t.parse().expect("now is RFC 3339")),
        cwd: Some(match case.text("cwd") {
            Some(c) => dir.join(c),
            None => dir.to_path_buf(),
        }),
        root: Some(match case.text("root") {
            Some(r) => dir.join(r),
            None => dir.to_path_buf(),
        }),
        allow_http: Vec::new(),
    }
}

/// The file name of the case's blueprint in `dir`: its `blueprint`, else
/// `blueprint.json` when there is one, else `blueprint.yaml`.
pub fn blueprint_name(case: &Case, dir: &Path) -> String {
    match case.text("blueprint") {
        Some(name) => name.to_string(),
        None if dir.join("blueprint.json").exists() => "blueprint.json".into(),
        None => "blueprint.yaml".into(),
    }
}

/// What a case's blueprint renders to: the document and the deferred
/// references, or the error lines.
pub type Rendered = Result<(Value, Vec<String>), Vec<String>>;

/// Renders the case's blueprint in `dir`.
pub fn render(case: &Case, dir: &Path) -> Rendered {
    render_named(case, dir, &blueprint_name(case, dir))
}

/// Renders the blueprint `name` in `dir` with the case's inputs.
pub fn render_named(case: &Case, dir: &Path, name: &str) -> Rendered {
    let lines = |e: bpvm_bluelink::Errors| e.0.iter().map(bpvm_bluelink::Error::described).collect::<Vec<_>>();
    let bp = load::load(&dir.join(name), name).map_err(lines)?;
    let out = render::render(&bp, &options(case, dir)).map_err(lines)?;
    let deferred = out.deferred.iter().map(|d| d.reference.clone()).collect();
    Ok((out.document, deferred))
}
