//! `bpvm test`: a Windsor template's test suites, a ✓ or ✗ per case.

use crate::args::Rules;
use crate::{exit, load, paint};
use bpvm::windsor::{Project, test};
use std::path::PathBuf;
use std::process::ExitCode;

/// Run the template's test suites (contexts/_template/tests/**/*.test.yaml).
///
/// Prints ✓ or ✗ per case, with what differed, then "N passed, M failed".
/// Exit status 1 if any case failed.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm test --project examples/windsor
  bpvm test --project examples/windsor 'dev adds the dashboard and observability'
  bpvm test --project examples/windsor --path contexts/_template/tests/aws.test.yaml")]
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
    /// Pin now() to this instant, e.g. 2024-05-06T07:08:09Z, so that
    /// cases that read the clock give the same result every run
    /// (default: the real clock).
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,
}

pub fn run(args: Args) -> ExitCode {
    exit::passed(load::windsor::at_now(args.now.as_deref(), || test(&args)))
}

/// Runs the cases; `Ok(false)` when any failed.
fn test(args: &Args) -> Result<bool, String> {
    let project = load::windsor::project(&args.project, args.rules)?;
    load::windsor::warn(&project.warnings, args.strict)?;
    let cases = test::discover(&project, &args.paths).map_err(|e| paint::safe(&error_lines(&e.to_string())))?;
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
    if chosen.is_empty() {
        return Err(match name {
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
        if run_case(&project, case, !args.no_schema_defaults, args.strict) {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// Every line of `errors` as `error: …`.
fn error_lines(errors: &str) -> String {
    errors
        .lines()
        .map(|l| format!("error: {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs one case and prints its mark, what differed and its warnings
/// (values the schema refuses: errors with `strict`); whether it passed.
fn run_case(project: &Project, case: &test::Case, schema_defaults: bool, strict: bool) -> bool {
    let refused = bpvm::windsor::validate::case(project, &case.file, case.index, case.values());
    // By --strict a refused value fails the render, as in Windsor's own
    // runner: a case that expects an error then passes.
    let diffs = if strict && !refused.is_empty() {
        Vec::new()
    } else {
        test::run(project, case, schema_defaults)
    };
    let passed = if strict && !refused.is_empty() {
        case.expects_error()
    } else {
        diffs.is_empty()
    };
    anstream::println!("{} {}", paint::mark(passed), paint::escaped(&case.name));
    for d in diffs {
        println!("    {}", paint::escaped(&d.to_string()));
    }
    for r in &refused {
        println!("    {}", paint::escaped(&bpvm::windsor::warning_line(r, strict)));
    }
    for w in &case.warnings {
        println!("    {}", paint::escaped(&bpvm::windsor::warning_line(w, false)));
    }
    passed
}
