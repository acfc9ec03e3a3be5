//! `bpvm render` and `bpvm test` over a Windsor project.

use crate::args::{Format, Rules};
use crate::load;
use bpvm::Value;
use bpvm::windsor::{output, render, test};
use std::path::PathBuf;

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

pub fn render(args: RenderArgs) -> Result<(), String> {
    let project = load::windsor::project(&args.project, args.rules)?;
    let current = load::windsor::context(&project, args.context.as_deref())?;
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
        eprintln!("{}", load::windsor::rules(&project, args.rules));
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
    let project = load::windsor::project(&args.project, args.rules)?;
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
    eprintln!("{}", load::windsor::rules(&project, args.rules));
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
