//! `bpvm render` and `bpvm test` over a Windsor project.

use bpvm::Value;
use bpvm::windsor::{Project, output, render, scope, test};
use std::path::{Path, PathBuf};

/// The output formats of `render`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// YAML, as Windsor prints blueprints
    Yaml,
    /// JSON with the same keys
    Json,
}

/// What `bpvm render` was asked.
pub struct RenderArgs {
    pub project: PathBuf,
    pub context: Option<String>,
    pub format: Format,
    pub out: Option<PathBuf>,
    pub explain: bool,
    pub schema_defaults: bool,
    pub outputs: Option<PathBuf>,
}

/// Which rules a render applies, and which the template targets (W10).
fn rules(project: &Project) -> String {
    match &project.format {
        bpvm::windsor::Format::Seed => "rules: the seed facet format".to_string(),
        v09 => format!(
            "rules: the seed facet format; the template targets {v09}, whose composition rules bpvm does not have yet"
        ),
    }
}

fn load(project: &Path) -> Result<Project, String> {
    if !project.is_dir() {
        return Err(format!("error: {} is not a folder", project.display()));
    }
    Project::load(project).map_err(|e| format!("error: {e}"))
}

pub fn render(args: RenderArgs) -> Result<(), String> {
    let project = load(&args.project)?;
    let name = args.context.unwrap_or_else(|| project.default_context());
    let ctx = scope::context(&project, &name, scope::Values::Files, args.schema_defaults)
        .map_err(|e| format!("error: {e}"))?;
    let outputs = match &args.outputs {
        None => None,
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("error: cannot read {}: {e}", p.display()))?;
            Some(Value::from_yaml(&text).map_err(|e| format!("error: {}: {e}", p.display()))?)
        }
    };
    let rendered = render::render(
        &project,
        &name,
        ctx,
        &render::Options {
            outputs,
            environment: None,
        },
    )
    .map_err(|e| format!("error: {e}"))?;
    if args.explain {
        eprintln!("{}", rules(&project));
        for line in &rendered.explain {
            eprintln!("{line}");
        }
    }
    let text = match args.format {
        Format::Yaml => output::to_yaml(&rendered.blueprint),
        Format::Json => output::to_json(&rendered.blueprint),
    };
    match &args.out {
        None => {
            print!("{text}");
            Ok(())
        }
        Some(path) => crate::write::atomically("--out", path, &text),
    }
}

/// What `bpvm test` was asked.
pub struct TestArgs {
    pub project: PathBuf,
    pub paths: Vec<String>,
    pub case: Option<String>,
    pub schema_defaults: bool,
}

/// Runs the cases; `Ok(false)` when any failed.
pub fn test(args: TestArgs) -> Result<bool, String> {
    let project = load(&args.project)?;
    let cases = test::discover(&project, &args.paths).map_err(|e| format!("error: {e}"))?;
    let chosen: Vec<&test::Case> = cases
        .iter()
        .filter(|c| args.case.as_ref().is_none_or(|n| &c.name == n))
        .collect();
    if chosen.is_empty() {
        return Err(match &args.case {
            Some(n) => format!("error: no test case is named {n:?}"),
            None => "error: no test cases found".into(),
        });
    }
    // Which rules the cases run by, on stderr: stdout stays the report.
    eprintln!("{}", rules(&project));
    let (mut passed, mut failed) = (0, 0);
    let mut file = "";
    for case in chosen {
        if case.file != file {
            file = &case.file;
            println!("{file}");
        }
        let diffs = test::run(&project, case, args.schema_defaults);
        if diffs.is_empty() {
            passed += 1;
            println!("✓ {}", case.name);
        } else {
            failed += 1;
            println!("✗ {}", case.name);
            for d in diffs {
                println!("    {d}");
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}
