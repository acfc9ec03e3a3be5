//! `bpvm test`: a Windsor template's test suites, a ✓ or ✗ per case.
//!
//! `case` runs one case into a report record, `failures` lists the
//! failed ones again at the end; the report file is the one `bpvm batch`
//! writes. `watching` runs the cases again on each saved input
//! (`--watch`).

mod case;
mod failures;
mod watching;

use crate::args::{AllowEmpty, ReportFormat, Rules};
use crate::{exit, load, paint};
use bpvm::batch::{Report, Status};
use bpvm::windsor::test;
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the template's test suites (contexts/_template/tests/**/*.test.yaml).
///
/// Prints ✓ or ✗ per case, with what differed, then "N passed, M failed",
/// then each failed case again, one line each (file:line: name: why), so
/// that a long CI log ends with what failed. Exit status 1 if any case
/// failed, or if there is no case at all (unless --allow-empty).
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm test --project examples/windsor
  bpvm test --project examples/windsor 'dev adds the dashboard and observability'
  bpvm test --project examples/windsor --path contexts/_template/tests/aws.test.yaml
  bpvm test --project examples/windsor --report test-report.json
  bpvm test --project examples/windsor --report junit.xml --report-format junit
  mkdir -p t/contexts/_template/tests && touch t/windsor.yaml && bpvm test --project t --allow-empty")]
pub struct Args {
    /// The project folder.
    #[arg(long, value_name = "DIR", default_value = ".")]
    project: PathBuf,
    /// Only the case with exactly this name, as `windsor test NAME`.
    #[arg(value_name = "NAME")]
    name: Option<String>,
    /// The same as NAME.
    #[arg(long, value_name = "NAME", conflicts_with = "name")]
    case: Option<String>,
    /// Do not apply the defaults of contexts/_template/schema.yaml
    /// (seed rules; a v0.9 case applies them when it sets
    /// applySchemaDefaults).
    #[arg(long)]
    no_schema_defaults: bool,
    /// Which Windsor rules to test by: the ones the template's facets
    /// are written for (read from their forms), the seed format's, or
    /// v0.9's.
    #[arg(long, value_enum, default_value = "auto")]
    rules: Rules,
    /// Only the cases of this test file or folder, relative to the
    /// project (repeatable).
    #[arg(long = "path", value_name = "PATH")]
    paths: Vec<String>,
    /// Make every warning an error: what loading the template warns
    /// about (an unknown field), expectation keys Windsor's runner would
    /// ignore, and a case's values the schema refuses (the case fails) —
    /// for CI that wants the template clean, where Windsor would run it
    /// anyway.
    #[arg(long)]
    strict: bool,
    /// Print the values computed from a value the schema marks sensitive
    /// as they are in what a failing case prints, instead of ********
    /// (a case always compares the real values).
    #[arg(long)]
    show_secrets: bool,
    /// Pin now() to this instant, e.g. 2024-05-06T07:08:09Z, so that
    /// cases that read the clock give the same result every run
    /// (default: the real clock).
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,
    /// Write a report of the run, one record per case, atomically: the
    /// shape `bpvm batch --test --report` writes. Nothing is written when
    /// the cases cannot be found.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// The report's format.
    #[arg(long, value_enum, default_value = "json", requires = "report")]
    report_format: ReportFormat,
    #[command(flatten)]
    empty: AllowEmpty,
    /// After the run, watch the files it read and run the cases again
    /// each time one is saved (or a file appears in a folder it listed);
    /// failures are printed and watching goes on. Ctrl-C stops (exit
    /// status 130).
    #[arg(long)]
    watch: bool,
}

pub fn run(args: Args) -> ExitCode {
    if args.watch {
        return watching::watch(args);
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
        crate::write::atomically("--report", path, &args.report_format.text(&report))?;
    }
    Ok(failed == 0)
}
