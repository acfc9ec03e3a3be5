//! A Windsor project by the rules asked for, and the context to render.

use crate::args::Rules;
use bpvm::windsor::Project;
use bpvm::windsor::current::{Current, Source};
use std::path::Path;

/// The project in the folder `dir`, read by `rules`.
pub fn project(dir: &Path, rules: Rules) -> Result<Project, String> {
    if !dir.is_dir() {
        return Err(format!("error: {} is not a folder", dir.display()));
    }
    let format = match rules {
        Rules::Auto => None,
        Rules::Seed => Some(bpvm::windsor::Format::Seed),
        Rules::V09 => Some(bpvm::windsor::Format::V09),
    };
    Project::load_as(dir, format).map_err(|e| e.to_string())
}

/// Prints each of `warnings` to stderr; with `strict` they are errors
/// instead, all of them reported.
pub fn warn(warnings: &[bpvm::windsor::Error], strict: bool) -> Result<(), String> {
    let lines = warnings.iter().map(|w| bpvm::windsor::warning_line(w, strict));
    if strict && !warnings.is_empty() {
        return Err(crate::paint::safe(&lines.collect::<Vec<_>>().join("\n")));
    }
    for line in lines {
        anstream::eprintln!("{}", crate::paint::diagnostic(&line));
    }
    Ok(())
}

/// The context to render: `given`, else the project's current one (an
/// unknown one is an error naming what chose it).
pub fn context(project: &Project, given: Option<&str>) -> Result<Current, String> {
    let windsor_context = std::env::var("WINDSOR_CONTEXT").ok();
    let current = project
        .current_context(given, windsor_context.as_deref())
        .map_err(|e| e.to_string())?;
    if current.source != Source::Given {
        project
            .check_context(&current.name)
            .map_err(|e| e.printed("error", &format!(" (the context was chosen by {})", current.source)))?;
    }
    Ok(current)
}

/// Which rules a render applies, and what chose them (W10).
pub fn rules(project: &Project, chosen: Rules) -> String {
    let why = match chosen {
        Rules::Seed | Rules::V09 => "chosen by --rules",
        Rules::Auto => &project.format_reason,
    };
    format!("rules: {} ({why})", project.format)
}

/// Runs `f` with `now()` pinned to `--now` when it is given (the real
/// clock otherwise), so that a render's output is the same every run.
pub fn at_now<R>(given: Option<&str>, f: impl FnOnce() -> Result<R, String>) -> Result<R, String> {
    let now = match given {
        Some(t) => Some(bpvm::runtime::time::clock::rfc3339(t).map_err(|e| format!("error: --now {e}"))?),
        None => None,
    };
    bpvm::runtime::time::clock::pinned(now, f)
}

/// How `--show-secrets` has a render show values computed from a
/// sensitive value.
pub fn secrets(show: bool) -> bpvm::windsor::Secrets {
    match show {
        true => bpvm::windsor::Secrets::Shown,
        false => bpvm::windsor::Secrets::Masked,
    }
}
