//! `bpvm render` of a Windsor project's context.

use super::args::Args;
use crate::args::Format;
use crate::{load, paint};
use bpvm::Value;
use bpvm::windsor::{output, render};
use std::path::Path;

/// Renders the context `args` names (else the project's current one).
pub fn render(args: &Args) -> Result<(), String> {
    let target = &args.windsor;
    let project = load::windsor::project(&target.project, target.rules)?;
    load::windsor::warn(&project.warnings, target.strict)?;
    let current = load::windsor::context(&project, target.context.as_deref())?;
    let name = current.name;
    // Before rendering: when the render then fails, the value that made
    // it fail has been named first.
    load::windsor::warn(&bpvm::windsor::validate::context(&project, &name), target.strict)?;
    let secrets = load::windsor::secrets(args.bluelink.show_secrets);
    let outputs = args.terraform_outputs.as_deref().map(terraform_outputs).transpose()?;
    let rendered = render::render_files_with(&project, &name, !args.no_schema_defaults, outputs, secrets)
        .map_err(|e| e.to_string())?;
    if args.explain {
        let context = format!("context: {name} (chosen by {})", current.source);
        eprintln!("{}", paint::safe(&context));
        eprintln!("{}", load::windsor::rules(&project, target.rules));
        for line in &rendered.explain {
            eprintln!("{}", paint::safe(line));
        }
    }
    let blueprint = if args.compile_flux {
        output::compile_flux(&rendered.blueprint)
    } else {
        rendered.blueprint
    };
    let text = match args.output.chosen() {
        Format::Yaml => output::to_yaml(&blueprint),
        Format::Json => output::to_json(&blueprint),
    };
    let source = format!("{} (context {name})", target.project.display());
    let text = args.marked(&source, text);
    crate::write::output(args.out.as_deref(), &text)
}

/// `--terraform-outputs FILE`: the outputs by component.
fn terraform_outputs(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))?;
    Value::from_yaml(&text).map_err(|e| format!("error: {}: {e}", path.display()))
}
