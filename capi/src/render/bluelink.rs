//! A Bluelink blueprint, validated and materialised as `bpvm render
//! BLUEPRINT` prints it.

use crate::options::{OUTPUTS, Options};
use bpvm::Value;
use bpvm::bluelink::{load, render};
use bpvm::runtime::Map;
use std::path::{Path, PathBuf};

/// The keys of `options_json` for a Bluelink render.
pub const KEYS: &[&str] = &[
    "output",
    "var",
    "vars",
    "datasources",
    "resource_state",
    "show_secrets",
    "seed",
    "now",
    "root",
    "allow_http",
];

/// Reads a YAML or JSON data file given by `flag`: a mapping of `what`.
fn data(flag: &str, path: &str, what: &str) -> Result<Map, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("error: {flag} {path}: cannot read it: {e}"))?;
    render::mapping(&text, what).map_err(|e| format!("error: {flag} {path}: {e}"))
}

/// Renders the blueprint at `path`, returning what the CLI prints on stdout.
pub fn render(path: &str, options: Option<&str>) -> Result<String, String> {
    let options = Options::parse(options, KEYS)?;
    let format = options.choice("output", OUTPUTS)?;
    let abs = Path::new(path)
        .canonicalize()
        .map_err(|e| format!("error: {path}: cannot read the blueprint: {e}"))?;
    let bp = load::load(&abs, path).map_err(|e| format!("{e}"))?;
    let mut variables = Vec::new();
    if let Some(file) = options.text("vars")? {
        for (k, v) in data("--vars", &file, "variable names to values")?.iter() {
            variables.push((k.as_str().to_string(), render::Input::Value(v.clone())));
        }
    }
    for v in options.texts("var")? {
        let Some((k, text)) = v.split_once('=') else {
            return Err(format!("error: --var {v:?}: expected NAME=VALUE"));
        };
        variables.push((k.to_string(), render::Input::Text(text.to_string())));
    }
    let now = match options.text("now")? {
        None => None,
        Some(t) => Some(
            t.parse()
                .map_err(|e| format!("error: --now {t:?} is not an RFC 3339 time: {e}"))?,
        ),
    };
    let root = match options.text("root")? {
        Some(r) => Path::new(&r)
            .canonicalize()
            .map_err(|e| format!("error: --root {r}: {e}"))?,
        None => abs.parent().map(PathBuf::from).unwrap_or_default(),
    };
    let opts = render::Options {
        variables,
        datasources: match options.text("datasources")? {
            None => None,
            Some(p) => Some(Value::Map(data(
                "--datasources",
                &p,
                "data source names (or types) to their data",
            )?)),
        },
        resource_state: match options.text("resource_state")? {
            None => None,
            Some(p) => Some(Value::Map(data(
                "--resource-state",
                &p,
                "resource names to their deploy-time fields",
            )?)),
        },
        show_secrets: options.switch("show_secrets")?,
        seed: options.count("seed")?,
        now,
        cwd: None,
        root: Some(root),
        allow_http: options.texts("allow_http")?,
    };
    let rendered = render::render(&bp, &opts).map_err(|e| format!("{e}"))?;
    Ok(match format {
        "json" => bpvm::runtime::text::to_json(&rendered.document),
        _ => bpvm::runtime::text::to_yaml(&rendered.document),
    })
}
