//! The formats of a `--report` file, which `bpvm batch` and `bpvm test`
//! write alike.

use bpvm::batch::Report;

/// The formats of `--report`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum ReportFormat {
    /// One record per target and test case, which merge-reports reads
    Json,
    /// JUnit XML, which CI systems display
    Junit,
}

impl ReportFormat {
    /// `report` in this format.
    pub fn text(self, report: &Report) -> String {
        match self {
            ReportFormat::Json => report.to_json(),
            ReportFormat::Junit => report.to_junit(),
        }
    }

    /// Writes `report` in this format to `path` (named by `flag`),
    /// atomically; a JSON report as it is made.
    pub fn write(self, flag: &str, path: &std::path::Path, report: &Report) -> Result<(), String> {
        match self {
            ReportFormat::Json => crate::write::atomically_streamed(flag, path, |out| report.write_json(out)),
            ReportFormat::Junit => crate::write::atomically(flag, path, &report.to_junit()),
        }
    }
}
