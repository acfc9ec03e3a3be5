//! `--timings REPORT`: the shards balanced by the durations a previous
//! batch recorded. A leaf.

use bpvm::batch::{Report, Target, TimedShards};
use std::path::Path;

/// The plan for `all` over `n` shards from the JSON report at `path`.
pub fn plan(path: &Path, all: &[Target], n: usize) -> Result<TimedShards, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("error: --timings {shown}: cannot read it: {e}"))?;
    if meta.len() > bpvm::runtime::root::MAX_FILE_BYTES {
        return Err(format!(
            "error: --timings {shown}: {} bytes, over the limit of 64 MiB for a report",
            meta.len()
        ));
    }
    let text = std::fs::read_to_string(path).map_err(|e| format!("error: --timings {shown}: cannot read it: {e}"))?;
    let report = Report::from_json(&text).map_err(|e| format!("error: --timings {shown}: {e}"))?;
    Ok(TimedShards::new(all, &report, n))
}
