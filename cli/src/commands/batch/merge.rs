//! `bpvm batch merge-reports`: the shards' JSON reports as one.

use super::args::MergeReports;
use bpvm::batch::Report;

/// Merges the reports; `Ok(false)` when the merged one has a failure.
pub fn merge(args: &MergeReports) -> Result<bool, String> {
    let mut read = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        let text =
            std::fs::read_to_string(path).map_err(|e| format!("error: {}: cannot read it: {e}", path.display()))?;
        read.push(Report::from_json(&text).map_err(|e| format!("error: {}: {e}", path.display()))?);
    }
    let merged = Report::merge(&read).map_err(|e| format!("error: {e}"))?;
    crate::write::output(args.out.as_deref(), &args.report_format.text(&merged))?;
    Ok(merged.counts().clean())
}
