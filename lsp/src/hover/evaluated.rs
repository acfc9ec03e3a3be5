//! A Windsor project evaluated in one context, once, for every hover
//! until the project is edited: the scope its expressions see, where each
//! value came from, and the facets included.

use bpvm::Environment;
use bpvm::windsor::Project;
use bpvm::windsor::origins::Origins;
use bpvm::windsor::render::render_files;
use bpvm::windsor::scope::traced;
use std::path::Path;

/// A project's context, evaluated.
pub struct Evaluated {
    /// The context's name.
    pub context: String,
    /// What chose it (`.windsor/context`, `WINDSOR_CONTEXT`, …).
    pub chosen_by: String,
    /// The values expressions read: the context's, with the config
    /// blocks' when the render succeeded.
    pub scope: Environment,
    /// Where each value of the context came from.
    pub origins: Origins,
    /// The files of the facets included (relative to the project);
    /// `None` when the render failed.
    pub included: Option<Vec<String>>,
    /// Why the render failed, when it did.
    pub failure: Option<String>,
}

/// Evaluates the project at `dir` in context `selected`, else in the
/// context `bpvm render` would choose. An error says why the project
/// or its context cannot be read.
pub fn evaluate(dir: &Path, selected: Option<&str>) -> Result<Evaluated, String> {
    let said = |errors: bpvm::Problems<bpvm::windsor::Error>| {
        errors.0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
    };
    let project = Project::load(dir).map_err(said)?;
    let environment = std::env::var("WINDSOR_CONTEXT").ok();
    let current = project
        .current_context(selected, environment.as_deref())
        .map_err(|e| e.to_string())?;
    let (values, origins) = traced(&project, &current.name).map_err(|e| e.to_string())?;
    let (scope, included, failure) = match render_files(&project, &current.name, true, None) {
        Ok(r) => {
            let files = r
                .included
                .iter()
                .filter_map(|&i| project.facets.get(i))
                .map(|f| f.file.clone());
            (r.scope, Some(files.collect()), None)
        }
        Err(errors) => (values, None, Some(said(errors))),
    };
    let scope = Environment::from_value(bpvm::Value::Map(scope))?;
    let chosen_by = match selected {
        Some(_) => "the editor".to_string(),
        None => current.source.to_string(),
    };
    Ok(Evaluated {
        context: current.name,
        chosen_by,
        scope,
        origins,
        included,
        failure,
    })
}
