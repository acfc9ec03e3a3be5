//! A Windsor project's context, rendered as `bpvm render --project DIR
//! --context NAME` prints it.

use crate::options::{OUTPUTS, Options};
use bpvm::Value;
use bpvm::windsor::{Format, Project, output, render};
use std::path::Path;

/// The keys of `options_json` for a Windsor render.
pub const KEYS: &[&str] = &[
    "output",
    "no_schema_defaults",
    "rules",
    "compile_flux",
    "terraform_outputs",
    "allow_env",
    "show_secrets",
];

/// The rules `--rules` names.
const RULES: &[&str] = &["auto", "seed", "v0.9"];

/// Renders `context` (None: the project's default) of the project in
/// `dir`, returning what the CLI prints on stdout.
pub fn render(dir: &str, context: Option<&str>, options: Option<&str>) -> Result<String, String> {
    let options = Options::parse(options, KEYS)?;
    let format = options.choice("output", OUTPUTS)?;
    let rules = options.choice("rules", RULES)?;
    let schema_defaults = !options.switch("no_schema_defaults")?;
    let compile_flux = options.switch("compile_flux")?;
    let secrets = match options.switch("show_secrets")? {
        true => bpvm::windsor::Secrets::Shown,
        false => bpvm::windsor::Secrets::Masked,
    };
    let outputs_file = options.text("terraform_outputs")?;
    let allow_env = options
        .given("allow_env")
        .then(|| options.texts("allow_env"))
        .transpose()?;
    let dir = Path::new(dir);
    if !dir.is_dir() {
        return Err(format!("error: {} is not a folder", dir.display()));
    }
    let chosen = match rules {
        "seed" => Some(Format::Seed),
        "v0.9" => Some(Format::V09),
        _ => None,
    };
    let mut project = Project::load_as(dir, chosen).map_err(|e| e.to_string())?;
    if let Some(patterns) = allow_env {
        // As the CLI's flag: the patterns join BPVM_ALLOW_ENV's.
        let mut allow = project.allow_env.take().unwrap_or_default();
        allow.extend(patterns);
        project.allow_env = Some(allow);
    }
    let windsor_context = std::env::var("WINDSOR_CONTEXT").ok();
    let name = project
        .current_context(context, windsor_context.as_deref())
        .map_err(|e| e.to_string())?
        .name;
    let outputs = match outputs_file {
        None => None,
        Some(p) => {
            let text = std::fs::read_to_string(&p).map_err(|e| format!("error: cannot read {p}: {e}"))?;
            Some(Value::from_yaml(&text).map_err(|e| format!("error: {p}: {e}"))?)
        }
    };
    let rendered =
        render::render_files_with(&project, &name, schema_defaults, outputs, secrets).map_err(|e| e.to_string())?;
    let blueprint = if compile_flux {
        output::compile_flux(&rendered.blueprint)
    } else {
        rendered.blueprint
    };
    Ok(match format {
        "json" => output::to_json(&blueprint),
        _ => output::to_yaml(&blueprint),
    })
}
