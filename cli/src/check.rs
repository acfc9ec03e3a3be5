//! `bpvm check`: the report of `bpvm::check`, in the format asked for,
//! with a progress bar on a terminal while many templates are checked.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

/// How findings are written.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Form {
    /// For people: file:line:column, the line and a caret.
    Human,
    /// One JSON object per finding.
    Json,
    /// SARIF 2.1.0, for code review tools.
    Sarif,
}

/// Checks `paths`: whether the run passes (no errors; no warnings either
/// with `deny_warnings`).
pub fn check(paths: &[PathBuf], form: Form, deny_warnings: bool) -> Result<bool, String> {
    // Drawn on a terminal only, and cleared before the report.
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(None, target);
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} templates checked · {elapsed}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    let result = bpvm::check::check_with(paths, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let report = result.map_err(|problems| {
        let lines: Vec<String> = problems.0.iter().map(|p| format!("error: {p}")).collect();
        lines.join("\n")
    })?;
    match form {
        Form::Human => anstream::print!("{}", crate::paint::diagnostic(&bpvm::check::human(&report))),
        Form::Json => print!("{}", bpvm::check::json(&report)),
        Form::Sarif => print!("{}", bpvm::check::sarif(&report, &bpvm::check::rules())),
    }
    Ok(!report.fails(deny_warnings))
}
