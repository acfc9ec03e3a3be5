//! A template loaded and compiled once, and each of its targets rendered
//! from it the way `bpvm render` renders it.

use super::target::{Files, Kind, Target};
use bpvm_bluelink::{Blueprint, load, render as bluelink};
use bpvm_runtime::root::Root;
use bpvm_runtime::{Map, Value, text};
use bpvm_windsor::{Project, render as windsor};
use std::path::Path;

/// The text a batch writes for each target.
///
/// ```
/// use bpvm::batch::Format;
/// assert_eq!(Format::default().extension(), "yaml");
/// assert_eq!(Format::Json.extension(), "json");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Format {
    /// YAML, as `bpvm render` prints by default.
    #[default]
    Yaml,
    /// Indented JSON, as `bpvm render -o json` prints.
    Json,
}

impl Format {
    /// The output files' extension: `yaml` or `json`.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Yaml => "yaml",
            Format::Json => "json",
        }
    }

    fn print(self, v: &Value) -> String {
        match self {
            Format::Yaml => text::to_yaml(v),
            Format::Json => text::to_json(v),
        }
    }
}

/// One target rendered: its text, byte for byte what `bpvm render`
/// prints, and what `bpvm render` would say on stderr besides.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The rendered blueprint.
    pub text: String,
    /// Notes that are not errors: Bluelink values left as written until
    /// deploy time.
    pub notes: Vec<String>,
}

/// A target rendered, and what of its template it did not use.
#[derive(Debug)]
pub(crate) struct Rendered {
    pub output: Output,
    /// The Windsor facet files (relative to the project) whose condition
    /// held in no inclusion round: the render depends on what decides
    /// that alone (`bpvm_windsor::facet_left_out`).
    pub left_out: Vec<String>,
}

/// A Windsor project or a Bluelink blueprint, loaded and compiled.
#[derive(Debug)]
pub(crate) enum Template {
    Windsor(Box<Project>),
    Bluelink(Box<Blueprint>),
}

impl Template {
    /// Loads the template `target` renders. The error is what `bpvm
    /// render` prints for it.
    pub(crate) fn load(target: &Target) -> Result<Template, String> {
        match &target.kind {
            Kind::Windsor { .. } => Template::project(&target.template),
            Kind::Bluelink { .. } => {
                let root = root(target)?;
                let path = std::path::absolute(&target.template).unwrap_or_else(|_| target.template.clone());
                load::load_in(&root, &path, &shown(&target.template))
                    .map(|bp| Template::Bluelink(Box::new(bp)))
                    .map_err(|e| e.to_string())
            }
        }
    }

    /// Loads the Windsor project at `dir` (for its targets, or its tests
    /// alone).
    pub(crate) fn project(dir: &Path) -> Result<Template, String> {
        Project::load(dir)
            .map(|p| Template::Windsor(Box::new(p)))
            .map_err(|e| e.to_string())
    }

    /// Renders `target` from this template (the one [`Template::load`]
    /// loaded for it). With `strict`, what a Windsor target is warned
    /// about (a newer Windsor's field, a value the schema refuses) fails it.
    pub(crate) fn render(&self, target: &Target, format: Format, strict: bool) -> Result<Rendered, String> {
        match (self, &target.kind) {
            (Template::Windsor(project), Kind::Windsor { context }) => render_windsor(project, context, format, strict),
            (Template::Bluelink(bp), Kind::Bluelink { files, .. }) => {
                render_bluelink(bp, target, files, format).map(|output| Rendered {
                    output,
                    left_out: Vec::new(),
                })
            }
            _ => Err(format!(
                "error: {}: the template is not a {}",
                target.id,
                target.language()
            )),
        }
    }
}

/// A Bluelink target, as `bpvm render BLUEPRINT --root PATH` with the
/// Context `context` of `project`, as `bpvm render` renders it: what
/// loading the template and checking the context's values warn about
/// first (notes, also when the render then fails), errors by `strict`.
fn render_windsor(project: &Project, context: &str, format: Format, strict: bool) -> Result<Rendered, String> {
    let refused = bpvm_windsor::validate::context(project, context);
    let warned: Vec<&bpvm_windsor::Error> = project.warnings.iter().chain(&refused).collect();
    let notes: Vec<String> = warned.iter().map(|w| bpvm_windsor::warning_line(w, strict)).collect();
    if strict && !notes.is_empty() {
        return Err(notes.join("\n"));
    }
    let rendered = windsor::render_files(project, context, true, None).map_err(|e| {
        let mut lines = notes.clone();
        lines.push(e.to_string());
        lines.join("\n")
    })?;
    let text = match format {
        Format::Yaml => bpvm_windsor::output::to_yaml(&rendered.blueprint),
        Format::Json => bpvm_windsor::output::to_json(&rendered.blueprint),
    };
    let left_out = project
        .facets
        .iter()
        .enumerate()
        .filter(|(i, _)| !rendered.took_part.contains(i))
        .map(|(_, f)| f.file.clone())
        .collect();
    Ok(Rendered {
        output: Output { text, notes },
        left_out,
    })
}

/// target's `--vars`, `--datasources` and `--resource-state` renders it.
fn render_bluelink(bp: &Blueprint, target: &Target, files: &Files, format: Format) -> Result<Output, String> {
    let root = root(target)?;
    let variables = match &files.vars {
        None => Vec::new(),
        Some(path) => data(&root, path, "variable names to values")?
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), bluelink::Input::Value(v.clone())))
            .collect(),
    };
    let read = |path: &Option<std::path::PathBuf>, what: &str| -> Result<Option<Value>, String> {
        path.as_deref()
            .map(|p| data(&root, p, what).map(Value::Map))
            .transpose()
    };
    let opts = bluelink::Options {
        variables,
        datasources: read(&files.datasources, "data source names (or types) to their data")?,
        resource_state: read(&files.resource_state, "resource names to their deploy-time fields")?,
        root: Some(root.dir().to_path_buf()),
        ..bluelink::Options::default()
    };
    let rendered = bluelink::render(bp, &opts).map_err(|e| e.to_string())?;
    let notes = rendered
        .deferred
        .iter()
        .map(|d| {
            format!(
                "{}: {}: {} is left as written until deploy time",
                d.file, d.path, d.reference
            )
        })
        .collect();
    Ok(Output {
        text: format.print(&rendered.document),
        notes,
    })
}

/// The folder a Bluelink target's files must stay inside: the folder it
/// was found under.
fn root(target: &Target) -> Result<Root, String> {
    Root::new(&target.base, "batch folder").map_err(|e| format!("error: {}: {e}", shown(&target.base)))
}

/// A data file beside a blueprint, read through `root`.
fn data(root: &Root, path: &Path, what: &str) -> Result<Map, String> {
    let name = shown(path);
    let text = root
        .read_string(
            root.dir(),
            &std::path::absolute(path)
                .unwrap_or_else(|_| path.to_path_buf())
                .to_string_lossy(),
        )
        .map_err(|e| format!("error: {name}: cannot read it: {e}"))?;
    bluelink::mapping(&text, what).map_err(|e| format!("error: {name}: {e}"))
}

/// A path as messages show it: without a leading `./`.
fn shown(path: &Path) -> String {
    path.strip_prefix(".").unwrap_or(path).display().to_string()
}
