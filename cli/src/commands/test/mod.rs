//! `bpvm test`: a Windsor template's test suites, a ✓ or ✗ per case.
//!
//! `args` is the command line (a leaf); `case` runs one case into a
//! report record, `failures` lists the failed ones again at the end; the
//! report file is the one `bpvm batch` writes. `watching` runs the cases
//! again on each saved input (`--watch`), given the run to repeat.

mod args;
mod case;
mod failures;
mod watching;

use crate::{exit, load, paint};
pub use args::Args;
use bpvm::batch::{Report, Status};
use bpvm::windsor::test;
use std::process::ExitCode;

pub fn run(args: Args) -> ExitCode {
    if args.watch {
        return watching::watch(args, once);
    }
    exit::passed(once(&args))
}

/// One run of the cases: `Ok(false)` when any failed.
fn once(args: &Args) -> Result<bool, String> {
    load::windsor::at_now(args.now.as_deref(), || test(args))
}

/// What an empty run says: where cases were looked for.
fn nothing_found(args: &Args) -> String {
    let tests = args.project.join("contexts/_template/tests");
    let under = if args.paths.is_empty() {
        String::new()
    } else {
        format!(" (only --path {})", args.paths.join(", --path "))
    };
    format!(
        "error: no test cases found: no *.test.yaml file with a case under {}{under}",
        tests.display()
    )
}

/// Runs the cases; `Ok(false)` when any failed.
fn test(args: &Args) -> Result<bool, String> {
    let project = load::windsor::project(&args.project, args.rules)?;
    load::windsor::warn(&project.warnings, args.strict)?;
    let cases = test::discover(&project, &args.paths).map_err(|e| paint::safe(&e.to_string()))?;
    if args.strict {
        let ignored: Vec<String> = cases
            .iter()
            .flat_map(|c| &c.warnings)
            .map(|w| bpvm::windsor::warning_line(w, true))
            .collect();
        if !ignored.is_empty() {
            return Err(paint::safe(&ignored.join("\n")));
        }
    }
    let name = args.name.as_ref().or(args.case.as_ref());
    let chosen: Vec<&test::Case> = cases.iter().filter(|c| name.is_none_or(|n| &c.name == n)).collect();
    if let (true, Some(n)) = (chosen.is_empty(), name) {
        return Err(format!("error: no test case is named {n:?}"));
    }
    args.empty.accepts(chosen.len(), &nothing_found(args))?;
    // Which rules the cases run by, on stderr: stdout stays the report.
    eprintln!("{}", load::windsor::rules(&project, args.rules));
    let mut records = Vec::with_capacity(chosen.len());
    let mut file = "";
    for c in &chosen {
        if c.file != file {
            file = &c.file;
            println!("{}", project.root.shown(file));
        }
        records.push(case::run(
            &project,
            c,
            !args.no_schema_defaults,
            args.strict,
            args.show_secrets,
        ));
    }
    let failed = records.iter().filter(|r| r.status != Status::Ok).count();
    println!("{} passed, {failed} failed", records.len() - failed);
    failures::print(&project, &chosen, &records);
    let report = Report::new(records, None);
    if let Some(path) = &args.report {
        args.report_format.write("--report", path, &report)?;
    }
    Ok(failed == 0)
}
