//! `bpvm render` and `bpvm test` over a Windsor project.

use bpvm::Value;
use bpvm::windsor::current::{Current, Source};
use bpvm::windsor::{Project, output, render, test};
use std::path::{Path, PathBuf};

/// The output formats of `render`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// YAML, as Windsor prints blueprints
    Yaml,
    /// JSON with the same keys
    Json,
}

/// Which Windsor rules to render by.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Rules {
    /// The ones contexts/_template/metadata.yaml's cliVersion selects
    Auto,
    /// The seed facet format's (W1–W9)
    Seed,
    /// Windsor v0.9's
    #[value(name = "v0.9")]
    V09,
}

/// What `bpvm render` was asked.
pub struct RenderArgs {
    pub project: PathBuf,
    pub rules: Rules,
    pub compile_flux: bool,
    pub context: Option<String>,
    pub format: Format,
    pub out: Option<PathBuf>,
    pub explain: bool,
    pub schema_defaults: bool,
    pub outputs: Option<PathBuf>,
}

/// Which rules a render applies, and what chose them (W10).
fn rules(project: &Project, chosen: Rules) -> String {
    use bpvm::windsor::Format;
    let what = match &project.format {
        Format::Seed => "the seed facet format",
        Format::V09(_) => "Windsor v0.9",
    };
    let why = match (chosen, &project.format) {
        (Rules::Seed | Rules::V09, _) => "chosen by --rules".to_string(),
        (Rules::Auto, Format::Seed) => "contexts/_template/metadata.yaml has no cliVersion admitting 0.9".to_string(),
        (Rules::Auto, Format::V09(c)) => format!("contexts/_template/metadata.yaml cliVersion {c:?}"),
    };
    format!("rules: {what} ({why})")
}

/// The context to render: `given`, else the project's current one (an
/// unknown one is an error naming what chose it).
pub fn context(project: &Project, given: Option<&str>) -> Result<Current, String> {
    let windsor_context = std::env::var("WINDSOR_CONTEXT").ok();
    let current = project
        .current_context(given, windsor_context.as_deref())
        .map_err(|e| format!("error: {e}"))?;
    if current.source != Source::Given {
        project
            .check_context(&current.name)
            .map_err(|e| format!("error: {e} (the context was chosen by {})", current.source))?;
    }
    Ok(current)
}

pub fn load(project: &Path, rules: Rules) -> Result<Project, String> {
    if !project.is_dir() {
        return Err(format!("error: {} is not a folder", project.display()));
    }
    let format = match rules {
        Rules::Auto => None,
        Rules::Seed => Some(bpvm::windsor::Format::Seed),
        Rules::V09 => Some(bpvm::windsor::Format::V09("--rules v0.9".into())),
    };
    Project::load_as(project, format).map_err(|e| format!("error: {e}"))
}

pub fn render(args: RenderArgs) -> Result<(), String> {
    let project = load(&args.project, args.rules)?;
    let current = context(&project, args.context.as_deref())?;
    let name = current.name;
    let outputs = match &args.outputs {
        None => None,
        Some(p) => {
            let text = std::fs::read_to_string(p).map_err(|e| format!("error: cannot read {}: {e}", p.display()))?;
            Some(Value::from_yaml(&text).map_err(|e| format!("error: {}: {e}", p.display()))?)
        }
    };
    let rendered =
        render::render_files(&project, &name, args.schema_defaults, outputs).map_err(|e| format!("error: {e}"))?;
    if args.explain {
        eprintln!("context: {name} (chosen by {})", current.source);
        eprintln!("{}", rules(&project, args.rules));
        for line in &rendered.explain {
            eprintln!("{line}");
        }
    }
    let blueprint = if args.compile_flux {
        output::compile_flux(&rendered.blueprint)
    } else {
        rendered.blueprint
    };
    let text = match args.format {
        Format::Yaml => output::to_yaml(&blueprint),
        Format::Json => output::to_json(&blueprint),
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
    pub rules: Rules,
    pub paths: Vec<String>,
    pub case: Option<String>,
    pub schema_defaults: bool,
}

/// Runs the cases; `Ok(false)` when any failed.
pub fn test(args: TestArgs) -> Result<bool, String> {
    let project = load(&args.project, args.rules)?;
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
    eprintln!("{}", rules(&project, args.rules));
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
            anstream::println!("{} {}", crate::paint::mark(true), case.name);
        } else {
            failed += 1;
            anstream::println!("{} {}", crate::paint::mark(false), case.name);
            for d in diffs {
                println!("    {d}");
            }
        }
        for w in &case.warnings {
            println!("    warning: {w}");
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}
