//! The batch proper: targets found, sharded, rendered into their sink
//! (nothing, the output folder, or a comparison with it), tested, reported.

use super::args::Args;
use super::output::{self, Files, Mode};
use super::progress::Progress;
use super::results;
use crate::args::Format as OutputFormat;
use bpvm::batch::{self, Discovery, Format, Options, Report, Target};
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
    let found = discover(args);
    let all = &found.targets;
    let sharded: Vec<Target>;
    let targets: &[Target] = match args.shard {
        Some((k, n)) => {
            sharded = batch::shard(all, k, n);
            &sharded
        }
        None => all,
    };
    let mode = mode(args)?;
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
        tests: if args.test { batch::suites(all) } else { Vec::new() },
        shard: args.shard,
    };
    let records = batch::run(targets, &options, &sink);
    progress.finish();
    let report = Report::new(records, args.shard);
    let stale = stale(&sink.mode, all, format, args.shard);
    results::print(&report, &stale, args.out.as_deref());
    if let Some(path) = &args.report {
        crate::write::atomically("--report", path, &args.report_format.text(&report))?;
    }
    eprintln!("{}", results::summary(args, &report, stale.len(), targets.len(), start));
    Ok(report.counts().clean() && stale.is_empty() && found.problems.is_empty())
}

/// The targets under the PATHs (the current folder by default), each
/// problem met on the way printed.
fn discover(args: &Args) -> Discovery {
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
        anstream::eprint!("{}", crate::paint::diagnostic(&format!("error: {problem}\n")));
    }
    found
}

/// What is done with each text: `--out` written (the folder made) or,
/// with `--check`, compared; without `--out`, nothing.
fn mode(args: &Args) -> Result<Mode, String> {
    Ok(match (&args.out, args.check) {
        (Some(out), true) => Mode::Check(out.clone()),
        (Some(out), false) => {
            std::fs::create_dir_all(out)
                .map_err(|e| format!("error: --out {}: cannot create it: {e}", out.display()))?;
            Mode::Write(out.clone())
        }
        (None, _) => Mode::Render,
    })
}

/// With `--check`, the files in the output folder no target of `all`
/// renders.
fn stale(mode: &Mode, all: &[Target], format: Format, shard: Option<(usize, usize)>) -> Vec<String> {
    match mode {
        Mode::Check(out) => {
            let produced: BTreeSet<String> = all.iter().map(|t| output::relative(t, format)).collect();
            output::stale(out, &produced, shard)
        }
        _ => Vec::new(),
    }
}

/// `path` from the root, without resolving links (the folder may not
/// exist yet).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}
