//! The batch proper: targets found, sharded, rendered into their sink
//! (nothing, the output folder, or a comparison with it), tested, reported.

use super::args::Args;
use super::output::{self, Files, Mode};
use super::progress::Progress;
use crate::args::Format as OutputFormat;
use bpvm::batch::{self, Format, Options, Report, Target};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs the batch; `Ok(false)` when a target failed or drifted, a test
/// case failed, or discovery met a problem.
pub fn render(args: &Args) -> Result<bool, String> {
    let start = Instant::now();
    let format = match args.output.chosen() {
        OutputFormat::Yaml => Format::Yaml,
        OutputFormat::Json => Format::Json,
    };
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    let out = args.out.as_deref().map(absolute);
    // Rendered output under a searched folder must not be found as
    // blueprints on the next run.
    let found = batch::discover_except(&paths, out.as_slice());
    for problem in &found.problems {
        eprintln!("error: {problem}");
    }
    let all = found.targets;
    let sharded: Vec<Target>;
    let targets: &[Target] = match args.shard {
        Some((k, n)) => {
            sharded = batch::shard(&all, k, n);
            &sharded
        }
        None => &all,
    };
    let mode = match (&args.out, args.check) {
        (Some(out), true) => Mode::Check(out.clone()),
        (Some(out), false) => {
            std::fs::create_dir_all(out)
                .map_err(|e| format!("error: --out {}: cannot create it: {e}", out.display()))?;
            Mode::Write(out.clone())
        }
        (None, _) => Mode::Render,
    };
    let progress = Progress::new(targets.len());
    let sink = Files {
        mode,
        format,
        progress: &progress,
    };
    let options = Options {
        jobs: args.jobs.map_or(0, usize::from),
        format,
        fail_fast: args.fail_fast,
        tests: if args.test { batch::suites(&all) } else { Vec::new() },
        shard: args.shard,
    };
    let records = batch::run(targets, &options, &sink);
    progress.finish();
    let report = Report::new(records, args.shard);
    let stale = match &sink.mode {
        Mode::Check(out) => {
            let produced: BTreeSet<String> = all.iter().map(|t| output::relative(t, format)).collect();
            output::stale(out, &produced, args.shard)
        }
        _ => Vec::new(),
    };
    print_results(&report, &stale, args.out.as_deref());
    if let Some(path) = &args.report {
        crate::write::atomically("--report", path, &args.report_format.text(&report))?;
    }
    let counts = report.counts();
    let mut summary = format!(
        "{} rendered, {} failed in {:.2} s",
        counts.rendered,
        counts.failed,
        start.elapsed().as_secs_f64()
    );
    if args.check {
        summary.push_str(&format!("; {} drifted, {} stale", counts.drifted, stale.len()));
    }
    if args.test {
        summary.push_str(&format!(
            "; {} test cases, {} failed",
            counts.tests, counts.tests_failed
        ));
    }
    if targets.len()
        > report
            .records
            .iter()
            .filter(|r| r.kind != batch::RecordKind::Test)
            .count()
    {
        summary.push_str("; stopped at the first failure (--fail-fast)");
    }
    eprintln!("{summary}");
    Ok(counts.clean() && stale.is_empty() && found.problems.is_empty())
}

/// Every failure, drift and stale file, in id order: stdout has the
/// diffs (a patch), stderr the errors.
fn print_results(report: &Report, stale: &[String], out: Option<&Path>) {
    for r in &report.records {
        match r.status {
            batch::Status::Ok => {}
            batch::Status::Drift => {
                for d in &r.diagnostics {
                    print!("{d}");
                }
            }
            batch::Status::Failed => {
                anstream::eprintln!("{} {} ({})", crate::paint::mark(false), r.id, r.kind.name());
                for d in &r.diagnostics {
                    for line in crate::paint::diagnostic(d).lines() {
                        anstream::eprintln!("    {line}");
                    }
                }
            }
        }
    }
    for file in stale {
        let out = out.map(|o| o.join(file)).unwrap_or_else(|| PathBuf::from(file));
        eprintln!("stale: {}: no target renders it", out.display());
    }
}

/// `path` from the root, without resolving links (the folder may not
/// exist yet).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
