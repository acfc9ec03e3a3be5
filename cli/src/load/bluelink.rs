//! A Bluelink blueprint, and the render options its flags give.

use crate::args::BluelinkFlags;
use bpvm::Value;
use bpvm::bluelink::blueprint::Blueprint;
use bpvm::bluelink::{load, render};
use bpvm::runtime::Map;
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

/// The blueprint at `path`, loaded and validated.
pub fn blueprint(path: &Path) -> Result<Blueprint, String> {
    let name = path.display().to_string();
    let abs = path
        .canonicalize()
        .map_err(|e| format!("error: {name}: cannot read the blueprint: {e}"))?;
    load::load(&abs, &name).map_err(|e| format!("{e}"))
}

/// The render options the flags give, for the blueprint `bp`.
pub fn options(flags: &BluelinkFlags, bp: &Blueprint) -> Result<render::Options, String> {
    // Of several bad flags, the first in this order is reported: the
    // variables, --now, the data files, --root.
    let variables = variables(flags)?;
    let now = now(flags.now.as_deref())?;
    Ok(render::Options {
        variables,
        datasources: flags
            .datasources
            .as_deref()
            .map(|p| data("--datasources", p, "data source names (or types) to their data").map(Value::Map))
            .transpose()?,
        resource_state: flags
            .resource_state
            .as_deref()
            .map(|p| data("--resource-state", p, "resource names to their deploy-time fields").map(Value::Map))
            .transpose()?,
        show_secrets: flags.show_secrets,
        seed: flags.seed,
        now,
        cwd: None,
        root: Some(root(flags, &bp.path)?),
        allow_http: flags.allow_http.clone(),
    })
}

/// The variables of `--vars FILE`, then of each `--var NAME=VALUE` (a
/// later one wins).
fn variables(flags: &BluelinkFlags) -> Result<Vec<(String, render::Input)>, String> {
    let mut variables = Vec::new();
    if let Some(path) = &flags.vars_file {
        for (k, v) in data("--vars", path, "variable names to values")?.iter() {
            variables.push((k.as_str().to_string(), render::Input::Value(v.clone())));
        }
    }
    for v in &flags.vars {
        let Some((k, text)) = v.split_once('=') else {
            return Err(format!("error: --var {v:?}: expected NAME=VALUE"));
        };
        variables.push((k.to_string(), render::Input::Text(text.to_string())));
    }
    Ok(variables)
}

/// The instant `--now` pins datetime() to, if given.
pub fn now(given: Option<&str>) -> Result<Option<DateTime<Utc>>, String> {
    let Some(t) = given else {
        return Ok(None);
    };
    let instant =
        DateTime::parse_from_rfc3339(t).map_err(|e| format!("error: --now {t:?} is not an RFC 3339 time: {e}"))?;
    Ok(Some(instant.with_timezone(&Utc)))
}

/// Reads a YAML or JSON data file given by a flag: a mapping of `what`
/// (an empty file is an empty mapping).
fn data(flag: &str, path: &Path, what: &str) -> Result<Map, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("error: {flag} {}: cannot read it: {e}", path.display()))?;
    render::mapping(&text, what).map_err(|e| format!("error: {flag} {}: {e}", path.display()))
}

/// The folder files must stay inside (B11, D8): `--root`, else the
/// blueprint's own folder, wherever bpvm runs from.
fn root(flags: &BluelinkFlags, blueprint: &Path) -> Result<PathBuf, String> {
    match &flags.root {
        Some(r) => r
            .canonicalize()
            .map_err(|e| format!("error: --root {}: {e}", r.display())),
        None => Ok(blueprint.parent().map(PathBuf::from).unwrap_or_default()),
    }
}
