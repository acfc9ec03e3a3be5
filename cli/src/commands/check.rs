//! `bpvm check`: the report of `bpvm::check`, in the format asked for,
//! with a progress bar on a terminal while many templates are checked.

use crate::args::{AllowEmpty, ExcludeArgs};
use crate::{exit, paint};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

/// Find every mistake in templates before anything renders
///
/// Checks each Windsor project and Bluelink blueprint under PATHs (a
/// project folder, a blueprint file, or folders searched as `bpvm
/// batch` searches them) without rendering: every expression against
/// the template's schema or declarations for every context at once
/// (paths nothing provides, operations the types rule out, conditions
/// that are constant or never hold), config blocks nothing reads,
/// `dependsOn` names and files that are not there, and context and
/// test values the schema refuses. Exits 1 when it finds an error (or
/// a warning, with --deny-warnings), 0 otherwise; 2 when the
/// configuration has a mistake. Finding no template at all is an error
/// too (a job pointed at the wrong folder must not pass), unless
/// --allow-empty.
///
/// A `check:` section in bpvm.yaml (or bpvm-batch.yaml), found in the
/// folder checked or above it up to the repository's root, sets rules'
/// severities (off, note, warning, error) everywhere or per path glob;
/// a `# bpvm:ignore[rule-id] reason` comment suppresses a rule on its
/// line or the line below. --list-rules lists the rules; docs/checks.md
/// describes each, the configuration and the comments.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm check examples/windsor
  bpvm check examples --format json
  bpvm check examples/windsor --format sarif > bpvm.sarif
  bpvm check examples/windsor --deny-warnings
  bpvm check examples --exclude 'windsor/**'
  bpvm check --list-rules
  mkdir -p empty && bpvm check empty --allow-empty

Folders are searched as `bpvm batch` searches them: hidden folders,
.git, target and node_modules are passed over, and so are what a
.gitignore or .ignore file ignores (also outside a Git repository),
what --exclude or exclude: in bpvm-batch.yaml matches, and output bpvm
rendered. See docs/discovery.md.")]
pub struct Args {
    /// Projects, blueprints or folders to search (default: the current folder).
    #[arg(value_name = "PATH", default_value = ".")]
    paths: Vec<PathBuf>,
    /// How findings are written.
    #[arg(long, value_enum, default_value = "human")]
    format: Form,
    /// Fail on warnings too.
    #[arg(long)]
    deny_warnings: bool,
    /// List the rules (id, default severity, what each finds) and exit.
    #[arg(long)]
    list_rules: bool,
    #[command(flatten)]
    exclude: ExcludeArgs,
    #[command(flatten)]
    empty: AllowEmpty,
}

/// How findings (and, with --list-rules, the rules) are written.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Form {
    /// For people: file:line:column, the line and a caret.
    Human,
    /// JSON: the findings, those suppressed, and counts by rule.
    Json,
    /// SARIF 2.1.0, for code review tools.
    Sarif,
}

pub fn run(args: Args) -> ExitCode {
    if args.list_rules {
        let rules = bpvm::check::rules();
        match args.format {
            Form::Human => print!("{}", bpvm::check::listing(&rules)),
            Form::Json => print!("{}", bpvm::check::listing_json(&rules)),
            Form::Sarif => print!("{}", bpvm::check::sarif(&Default::default(), &rules)),
        }
        return ExitCode::SUCCESS;
    }
    let tunings = match bpvm::check::tunings(&args.paths) {
        Ok(t) => t,
        Err(errors) => {
            let lines: Vec<String> = errors.iter().map(|e| e.printed()).collect();
            return exit::usage(&lines.join("\n"));
        }
    };
    exit::passed(check(&args, &tunings))
}

/// Checks the PATHs: whether the run passes (no errors; no warnings either
/// with `deny_warnings`).
fn check(args: &Args, tunings: &[Option<bpvm::check::tune::Tuning>]) -> Result<bool, String> {
    let (paths, form, deny_warnings) = (&args.paths, args.format, args.deny_warnings);
    let bar = progress_bar();
    let search = bpvm::batch::Search {
        exclude: args.exclude.globs.clone(),
        ..Default::default()
    };
    let (result, warnings) = bpvm::check::check_searching(paths, &search, tunings, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    for warning in &warnings {
        anstream::eprint!("{}", paint::diagnostic(&format!("warning: {warning}\n")));
    }
    let report = result.map_err(|problems| {
        let lines: Vec<String> = problems.0.iter().map(|p| p.printed()).collect();
        lines.join("\n")
    })?;
    let what = "no Windsor project or Bluelink blueprint to check";
    args.empty.discovered(report.templates.len(), what, paths)?;
    match form {
        Form::Human => anstream::print!("{}", paint::diagnostic(&bpvm::check::human(&report))),
        Form::Json => print!("{}", bpvm::check::json(&report)),
        Form::Sarif => print!("{}", bpvm::check::sarif(&report, &bpvm::check::rules())),
    }
    Ok(!report.fails(deny_warnings))
}

/// The templates checked so far, drawn on a terminal only, and cleared
/// before the report.
fn progress_bar() -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} templates checked · {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}
