//! The command line `bpvm test` reads (a leaf).

use crate::args::{AllowEmpty, ReportFormat, Rules};
use std::path::PathBuf;

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
    pub(super) project: PathBuf,
    /// Only the case with exactly this name, as `windsor test NAME`.
    #[arg(value_name = "NAME")]
    pub(super) name: Option<String>,
    /// The same as NAME.
    #[arg(long, value_name = "NAME", conflicts_with = "name")]
    pub(super) case: Option<String>,
    /// Do not apply the defaults of contexts/_template/schema.yaml
    /// (seed rules; a v0.9 case applies them when it sets
    /// applySchemaDefaults).
    #[arg(long)]
    pub(super) no_schema_defaults: bool,
    /// Which Windsor rules to test by: the ones the template's facets
    /// are written for (read from their forms), the seed format's, or
    /// v0.9's.
    #[arg(long, value_enum, default_value = "auto")]
    pub(super) rules: Rules,
    /// Only the cases of this test file or folder, relative to the
    /// project (repeatable).
    #[arg(long = "path", value_name = "PATH")]
    pub(super) paths: Vec<String>,
    /// Make every warning an error: what loading the template warns
    /// about (an unknown field), expectation keys Windsor's runner would
    /// ignore, and a case's values the schema refuses (the case fails) —
    /// for CI that wants the template clean, where Windsor would run it
    /// anyway.
    #[arg(long)]
    pub(super) strict: bool,
    /// Print the values computed from a value the schema marks sensitive
    /// as they are in what a failing case prints, instead of ********
    /// (a case always compares the real values).
    #[arg(long)]
    pub(super) show_secrets: bool,
    /// Pin now() to this instant, e.g. 2024-05-06T07:08:09Z, so that
    /// cases that read the clock give the same result every run
    /// (default: the real clock).
    #[arg(long, value_name = "RFC3339")]
    pub(super) now: Option<String>,
    /// Write a report of the run, one record per case, atomically: the
    /// shape `bpvm batch --test --report` writes. Nothing is written when
    /// the cases cannot be found.
    #[arg(long, value_name = "FILE")]
    pub(super) report: Option<PathBuf>,
    /// The report's format.
    #[arg(long, value_enum, default_value = "json", requires = "report")]
    pub(super) report_format: ReportFormat,
    #[command(flatten)]
    pub(super) empty: AllowEmpty,
    /// After the run, watch the files it read and run the cases again
    /// each time one is saved (or a file appears in a folder it listed);
    /// failures are printed and watching goes on. Ctrl-C stops (exit
    /// status 130).
    #[arg(long)]
    pub(super) watch: bool,
}
