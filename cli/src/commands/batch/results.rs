//! What a finished batch prints: its failures, drift and stale files,
//! then one summary line.

use super::args::Args;
use crate::paint;
use bpvm::batch::{self, Report};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Every failure, drift and stale file, in id order: stdout has the
/// diffs (a patch), stderr the errors.
pub fn print(report: &Report, stale: &[String], out: Option<&Path>) {
    for r in &report.records {
        match r.status {
            batch::Status::Ok => {}
            batch::Status::Drift => {
                for d in &r.diagnostics {
                    print!("{d}");
                }
            }
            batch::Status::Failed => {
                anstream::eprintln!("{} {} ({})", paint::mark(false), paint::safe(&r.id), r.kind.name());
                for d in &r.diagnostics {
                    for line in paint::diagnostic(d).lines() {
                        anstream::eprintln!("    {line}");
                    }
                }
            }
        }
    }
    for file in stale {
        let out = out.map(|o| o.join(file)).unwrap_or_else(|| PathBuf::from(file));
        eprintln!(
            "{}",
            paint::safe(&format!("stale: {}: no target renders it", out.display()))
        );
    }
}

/// The summary line: counts, the time since `start`, and whether
/// `--fail-fast` stopped the batch before all of its `targets` rendered.
pub fn summary(args: &Args, report: &Report, stale: usize, targets: usize, start: Instant) -> String {
    let counts = report.counts();
    let from_cache = match args.cache() {
        Some(_) => format!(" ({} from cache)", counts.cached),
        None => String::new(),
    };
    let mut summary = format!(
        "{} rendered{from_cache}, {} failed in {:.2} s",
        counts.rendered,
        counts.failed,
        start.elapsed().as_secs_f64()
    );
    if args.check {
        summary.push_str(&format!("; {} drifted, {stale} stale", counts.drifted));
    }
    if args.test {
        summary.push_str(&format!(
            "; {} test cases, {} failed",
            counts.tests, counts.tests_failed
        ));
    }
    if let Some(n) = report.unaffected {
        summary.push_str(&format!("; {n} not affected by the change (not run)"));
    }
    let rendered = report
        .records
        .iter()
        .filter(|r| r.kind != batch::RecordKind::Test)
        .count();
    if targets > rendered {
        summary.push_str("; stopped at the first failure (--fail-fast)");
    }
    summary
}
