//! The batch proper: targets found, sharded, rendered into their sink
//! (nothing, the output folder, or a comparison with it), tested, reported.

use super::args::Args;
use super::guard;
use super::limits::Limits;
use super::output::{self, Files, Mode};
use super::pool::Pool;
use super::progress::Progress;
use super::results;
use super::select::affected;
use super::wire::Job;
use crate::args::{Format as OutputFormat, ReportFormat};
use bpvm::batch::{self, Discovery, Format, Record, Report, Search, Suite, Target};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Runs the batch; `Ok(false)` when a target failed or drifted, a test
/// case failed, or discovery met a problem.
pub fn render(args: &Args) -> Result<bool, String> {
    let ran = render_picked(args, &mut |_| Some(Pick::All))?;
    let passed = ran.as_ref().is_some_and(|r| r.passed);
    // The process ends next, and its memory with it, at once: freeing
    // each record and manifest first took 6 ms of a 1,200-target run.
    std::mem::forget(ran);
    Ok(passed)
}

/// Which of the targets found a run renders (`--watch` renders again
/// those a change affects).
pub enum Pick {
    /// Every target, and every project's test suite with `--test`.
    All,
    /// The targets with these ids, and the test suites of these project
    /// folders (with `--test`).
    Only {
        targets: BTreeSet<String>,
        suites: BTreeSet<PathBuf>,
    },
}

/// What a run gave: whether it passed, every target found (its shard's
/// and others'), and the record of each target and test case it ran.
pub struct Ran {
    pub passed: bool,
    pub found: Vec<Target>,
    pub records: Vec<Record>,
}

/// Runs the batch on what `pick` chooses of the targets found; `None`
/// (nothing printed) when it chooses nothing.
pub fn render_picked(args: &Args, pick: &mut dyn FnMut(&[Target]) -> Option<Pick>) -> Result<Option<Ran>, String> {
    let start = Instant::now();
    let limits = Limits::new(args.memory_limit)?;
    let format = match args.output.chosen() {
        OutputFormat::Yaml => Format::Yaml,
        OutputFormat::Json => Format::Json,
    };
    let paths = paths(args);
    let found = search(args, &paths);
    let Some(picked) = pick(&found.targets) else {
        return Ok(None);
    };
    print_problems(&found, &paths);
    let all = &found.targets;
    let suites = if args.test { batch::suites(all) } else { Vec::new() };
    let what = "no Windsor context or Bluelink blueprint to render";
    args.empty.discovered(all.len() + suites.len(), what, &paths)?;
    let (targets, suites) = picked.apply(sharded(args, all)?, suites);
    let cache = open_cache(args)?;
    let selection = affected::select(args, targets, &paths[0], format, cache.clone())?;
    if args.list {
        print!("{}", affected::list(&selection, format == Format::Json));
        return Ok(Some(Ran {
            passed: found.problems.is_empty(),
            found: found.targets,
            records: Vec::new(),
        }));
    }
    affected::explain(&selection);
    let targets = &selection.targets;
    let suites = match selection.unaffected {
        // Only the projects a change affects are tested.
        Some(_) => suites
            .into_iter()
            .filter(|s| targets.iter().any(|t| t.template == s.project))
            .collect(),
        None => suites,
    };
    let mode = mode(args)?;
    let (read, out_real) = match &mode {
        Mode::Write(out) => (guard::check(out, &paths, &found)?, guard::real(out)),
        _ => (guard::Read::default(), PathBuf::new()),
    };
    if let Mode::Write(out) = &mode {
        make_out(out, format)?;
    }
    let progress = Progress::new(targets.len());
    let sink = Files {
        mode,
        format,
        progress: &progress,
        read,
        out_real,
    };
    let job = job(args, format, !matches!(sink.mode, Mode::Render), cache.as_ref());
    let records = render_all(args, (targets, suites), cache.as_ref(), &job, limits, &sink);
    progress.finish();
    if let Some(cache) = &cache {
        let max = args.cache_max_mb.saturating_mul(1024 * 1024);
        cache
            .evict(max)
            .map_err(|e| format!("error: --cache {}: {e}", cache.dir().display()))?;
    }
    if let Mode::Write(out) = &sink.mode {
        crate::write::durable("--out", out)?;
    }
    let mut report = Report::new(records, args.shard());
    affected::mark(&mut report, &selection);
    let stale = stale(&sink.mode, all, format, args.shard());
    results::print(&report, &stale, args.out.as_deref());
    if let Some(path) = &args.report {
        args.report_format.write("--report", path, &report)?;
    }
    eprintln!("{}", results::summary(args, &report, stale.len(), targets.len(), start));
    let passed = report.counts().clean() && stale.is_empty() && found.problems.is_empty();
    let mut records = report.records;
    if args.watch {
        with_manifests(&mut records);
    }
    Ok(Some(Ran {
        passed,
        found: found.targets,
        records,
    }))
}

/// Each record given its manifest as the struct, read from the JSON a
/// worker sent (`--watch` follows what they read).
fn with_manifests(records: &mut [Record]) {
    for r in records {
        if let Some(json) = r.manifest_json.take() {
            r.manifest = r.manifest.take().or_else(|| serde_json::from_str(&json).ok());
        }
    }
}

/// The records of `targets` and `suites`: outputs the cache has taken
/// here (no template is evaluated for them: a worker process per target
/// only made a warm run slower), the rest rendered and tested by worker
/// processes.
fn render_all(
    args: &Args,
    (targets, suites): (&[Target], Vec<Suite>),
    cache: Option<&batch::Cache>,
    job: &Job,
    limits: Limits,
    sink: &Files,
) -> Vec<Record> {
    let workers = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let options = batch::Options {
        jobs: workers,
        format: job.format,
        fail_fast: job.fail_fast,
        strict: job.strict,
        cache: cache.cloned(),
        ..batch::Options::default()
    };
    let (mut records, left) = batch::take_cached(targets, &options, sink);
    if args.fail_fast && records.iter().any(|r| r.status != batch::Status::Ok) {
        return records;
    }
    records.extend(Pool::new(jobs(&left, suites, job), limits, sink, args.fail_fast).run(workers));
    records.sort_by(|a, b| a.id.cmp(&b.id));
    records
}

/// The job each template's worker is given: what to render and how.
fn job(args: &Args, format: Format, texts: bool, cache: Option<&batch::Cache>) -> Job {
    let json_report = args.report.is_some() && matches!(args.report_format, ReportFormat::Json);
    Job {
        format,
        texts,
        fail_fast: args.fail_fast,
        strict: args.strict,
        // A JUnit report has no place for manifests: nothing to track for.
        // `--watch` runs again what a change affects: what each target read.
        track: args.watch || cache.is_some() || json_report,
        manifests: args.watch || json_report,
        cache: cache.map(|c| absolute(c.dir())),
        // Without a cache, hashes of variables in this run's report are
        // comparable within it and with nothing else.
        env_key: bpvm::runtime::root::inputs::random_key(),
        shard: args.shard(),
        suite: None,
        skip: Vec::new(),
        targets: Vec::new(),
    }
}

impl Pick {
    /// The targets and suites of those given that it chooses.
    fn apply(self, targets: Vec<Target>, suites: Vec<Suite>) -> (Vec<Target>, Vec<Suite>) {
        match self {
            Pick::All => (targets, suites),
            Pick::Only {
                targets: ids,
                suites: projects,
            } => (
                targets.into_iter().filter(|t| ids.contains(&t.id)).collect(),
                suites.into_iter().filter(|s| projects.contains(&s.project)).collect(),
            ),
        }
    }
}

/// The targets of this machine's shard (all of them without `--shard`),
/// balanced by `--timings` when given.
fn sharded(args: &Args, all: &[Target]) -> Result<Vec<Target>, String> {
    Ok(match (args.shard(), &args.timings) {
        (Some((k, n)), Some(report)) => super::select::timings::plan(report, all, n)?.shard(all, k),
        (Some((k, n)), None) => batch::shard(all, k, n),
        (None, _) => all.to_vec(),
    })
}

/// The render cache `--cache` (or `BPVM_CACHE`) names, opened.
fn open_cache(args: &Args) -> Result<Option<batch::Cache>, String> {
    let Some(dir) = args.cache() else { return Ok(None) };
    batch::Cache::open(&dir)
        .map(Some)
        .map_err(|e| format!("error: --cache {}: cannot open it: {e}", dir.display()))
}

/// The `--out` folder made; with JSON output, marked as rendered (JSON
/// has no comment to say so).
fn make_out(out: &Path, format: Format) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("error: --out {}: cannot create it: {e}", out.display()))?;
    if format == Format::Json {
        let mark = out.join(batch::RENDERED_FOLDER);
        crate::write::atomically_unsynced("--out", &mark, batch::RENDERED_FOLDER_TEXT)?;
    }
    Ok(())
}

/// One job per template, in the order the templates first appear: its
/// targets, and its test suite; a suite whose project has no target here
/// (they are in other shards) is a job of its own.
fn jobs(targets: &[Target], suites: Vec<Suite>, like: &Job) -> Vec<Job> {
    let mut jobs: Vec<Job> = Vec::new();
    let mut index: HashMap<&Path, usize> = HashMap::new();
    for t in targets {
        let i = *index.entry(&t.template).or_insert_with(|| {
            jobs.push(like.clone());
            jobs.len() - 1
        });
        jobs[i].targets.push(t.clone());
    }
    for suite in suites {
        match index.get(suite.project.as_path()) {
            Some(&i) => jobs[i].suite = Some(suite),
            None => jobs.push(Job {
                suite: Some(suite),
                ..like.clone()
            }),
        }
    }
    jobs
}

/// The PATHs, the current folder by default.
pub fn paths(args: &Args) -> Vec<PathBuf> {
    if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    }
}

/// The targets under the PATHs (the current folder by default).
fn search(args: &Args, paths: &[PathBuf]) -> Discovery {
    // Rendered output under a searched folder must not be found as
    // blueprints on the next run.
    let search = Search {
        except: args.out.as_deref().map(absolute).into_iter().collect(),
        exclude: args.exclude.globs.clone(),
    };
    batch::discover_with(paths, &search)
}

/// Each warning and problem the search met, on stderr.
fn print_problems(found: &Discovery, paths: &[PathBuf]) {
    let unmatched = found.unmatched.iter().map(|g| batch::unmatched_exclude(g, paths));
    for warning in found.warnings.iter().cloned().chain(unmatched) {
        anstream::eprint!("{}", crate::paint::diagnostic(&format!("warning: {warning}\n")));
    }
    for problem in &found.problems {
        anstream::eprint!("{}", crate::paint::diagnostic(&format!("{}\n", problem.printed())));
    }
}

/// What is done with each text: `--out` written (the folder made) or,
/// with `--check`, compared; without `--out`, nothing.
fn mode(args: &Args) -> Result<Mode, String> {
    Ok(match (&args.out, args.check) {
        (Some(out), true) => Mode::Check(out.clone()),
        (Some(out), false) => Mode::Write(out.clone()),
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
