//! `bpvm check`: the report of `bpvm::check`, in the format asked for.

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
    let report = bpvm::check::check(paths).map_err(|problems| {
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
