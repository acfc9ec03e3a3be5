//! Running a batch: every target rendered on a pool of worker threads,
//! each template loaded once and dropped when its last target is done.

use super::cache::Cache;
use super::manifest::{LeftOut, LeftOutAt, LeftOuts, Made, Named, output_options};
use super::queue;
use super::report::{Record, RecordKind, Status};
use super::shard::shard_of;
use super::target::{Kind, Target, join};
use super::template::{Format, Output, Template};
use bpvm_runtime::root::inputs::{self, Hash, Inputs, Recorder};
use bpvm_windsor::test;
use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// How to run a batch.
///
/// ```
/// use bpvm::batch::{Format, Options};
/// let o = Options::default();
/// assert_eq!((o.jobs, o.format, o.fail_fast), (0, Format::Yaml, false));
/// assert!(o.tests.is_empty() && o.shard.is_none());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Worker threads; 0: one per core.
    pub jobs: usize,
    /// The rendered text's format.
    pub format: Format,
    /// Start no more work once a target has failed.
    pub fail_fast: bool,
    /// Windsor projects whose test suites (`contexts/_template/tests`)
    /// run too, each case a [`Record`] of its own (see [`suites`]).
    pub tests: Vec<Suite>,
    /// Only the test cases of shard `(K, N)`: the targets are sharded by
    /// the caller, the test cases, found while running, here.
    pub shard: Option<(usize, usize)>,
    /// Ids of targets and test cases not to run and not to record: a
    /// batch resumed after a crash skips what it already has.
    pub skip: std::collections::BTreeSet<String>,
    /// Values the schema refuses fail a Windsor target or test case,
    /// instead of being noted as warnings (`--strict`).
    pub strict: bool,
    /// Record what each target's output depends on: its [`Record`]'s
    /// [`manifest`](Record::manifest).
    pub track: bool,
    /// Take the output of a target whose inputs did not change since it
    /// was stored from this cache, without loading its template; store
    /// each target rendered (inputs are tracked).
    pub cache: Option<Cache>,
    /// The key environment variables' values are hashed under in
    /// manifests, when there is no cache (with one, its
    /// [`key`](Cache::key)). `None`: a random key made for this run, so
    /// that hashes in two runs' manifests cannot be compared. Processes
    /// that share one run's targets pass them the same key.
    pub env_key: Option<Hash>,
    /// The version of bpvm that manifests and cache keys name (`None`:
    /// this one). Tests set it to show that another version misses.
    #[doc(hidden)]
    pub bpvm_version: Option<String>,
}

impl Options {
    /// Whether inputs are tracked.
    fn tracking(&self) -> bool {
        self.track || self.cache.is_some()
    }

    pub(crate) fn version(&self) -> &str {
        self.bpvm_version.as_deref().unwrap_or(env!("CARGO_PKG_VERSION"))
    }

    /// The key this run's manifests hash variables under: the cache's,
    /// else [`Options::env_key`], else a new one.
    fn run_key(&self) -> Hash {
        match (&self.cache, self.env_key) {
            (Some(cache), _) => cache.key(),
            (None, Some(key)) => key,
            (None, None) => inputs::random_key(),
        }
    }
}

/// A Windsor project whose test suites a batch runs.
///
/// ```
/// use bpvm::batch::{Suite, Target, suites};
/// let targets = [Target::windsor("repo", "infra", "dev"), Target::windsor("repo", "infra", "prod")];
/// let found = suites(&targets);
/// assert_eq!(found, [Suite { id: "infra".into(), project: "repo/infra".into() }]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suite {
    /// The project's path relative to the folder it was found under
    /// (`""` for that folder itself): test case ids start with it.
    pub id: String,
    /// The project folder.
    pub project: PathBuf,
}

/// The Windsor projects among `targets`, each once, in order.
pub fn suites(targets: &[Target]) -> Vec<Suite> {
    let mut seen = std::collections::HashSet::new();
    targets
        .iter()
        .filter(|t| matches!(t.kind, Kind::Windsor { .. }) && seen.insert(t.template.clone()))
        .map(|t| Suite {
            id: t.template_path(),
            project: t.template.clone(),
        })
        .collect()
}

/// What became of a rendered target's text, as a [`Sink`] decides it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Written, or the same as what is there.
    Ok,
    /// Not what is there: a unified diff (or why there is nothing to
    /// compare with).
    Drift(String),
    /// Could not be written or compared.
    Failed(String),
}

/// Where a batch's results go, called from the worker threads.
pub trait Sink: Sync {
    /// A target rendered: write its text, or compare it with what is
    /// there. By default the text is dropped (a batch that only checks
    /// that everything renders).
    fn output(&self, target: &Target, output: &Output) -> Verdict {
        let _ = (target, output);
        Verdict::Ok
    }

    /// A target's render or a test case is about to start (before
    /// [`Sink::output`] and [`Sink::done`] for it), so that a caller
    /// watching from outside knows which one hangs or crashes.
    fn started(&self, id: &str) {
        let _ = id;
    }

    /// A target or test case is done (for progress).
    fn done(&self, record: &Record) {
        let _ = record;
    }

    /// Whether this sink takes each record's manifest as JSON text
    /// ([`Record::manifest_json`]) rather than as a
    /// [`Manifest`](crate::batch::Manifest): a manifest is made as its
    /// text, and made into the struct by reading that back (which a host
    /// that only passes it on need not pay for).
    fn manifests_as_json(&self) -> bool {
        false
    }
}

/// The sink that drops every text: a batch that checks that every
/// target renders.
impl Sink for () {}

/// Renders every target of `targets` on `options.jobs` threads, hands
/// each text to `sink`, and returns one record per target (and per test
/// case) sorted by id. Each template is loaded once, shared by its
/// targets, and dropped after the last of them; its targets render
/// before the next template loads, so memory does not grow with the
/// number of targets.
///
/// A target that fails does not stop the others unless
/// `options.fail_fast`; targets not started after a failure then have
/// no record. A panic in one target's render is caught and recorded as
/// its failure.
///
/// This runs in the calling process, which isolates targets only from
/// each other's errors and panics: a target that aborts the process (a
/// stack overflow, a failed allocation), or that never ends, takes the
/// batch with it. `bpvm batch` therefore runs each template's targets
/// in worker processes of its own, with a deadline and a memory limit,
/// and calls this in each worker; [`Sink::started`] tells the parent
/// which target a dead worker was rendering.
///
/// ```
/// use bpvm::batch::{Options, Status, discover, run};
/// let dir = std::env::temp_dir().join(format!("bpvm-run-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("queue.yaml"), "version: 2023-04-20\nvariables:\n  env: {type: string}\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: 'orders-${variables.env}'}\n").unwrap();
/// std::fs::write(dir.join("queue.prod.vars.yaml"), "env: prod\n").unwrap();
/// std::fs::write(dir.join("queue.dev.vars.yaml"), "env: 7\n").unwrap();
/// let targets = discover(&[&dir]).into_result().unwrap();
/// let records = run(&targets, &Options::default(), &());
/// assert_eq!(records[0].id, "queue@dev");
/// assert_eq!(records[0].status, Status::Failed);
/// assert!(records[0].diagnostics[0].contains("variables.env"), "{:?}", records[0].diagnostics);
/// assert_eq!((records[1].id.as_str(), records[1].status), ("queue@prod", Status::Ok));
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn run(targets: &[Target], options: &Options, sink: &dyn Sink) -> Vec<Record> {
    let batch = Batch::new(options, sink, targets.len());
    let groups = groups(targets, &options.tests);
    let jobs = groups.iter().map(Job::Load).collect();
    queue::drain(threads(options), jobs, |job| batch.work(job));
    batch.records()
}

/// Takes from `options.cache` what [`run`] would, and only that: the
/// output of each target whose inputs did not change since it was
/// stored, handed to `sink`, on `options.jobs` threads. No template is
/// loaded or evaluated, so a host that renders in other processes (as
/// `bpvm batch` does) takes the cache's outputs in its own first, and
/// sends only the rest (with a cache that stores but does not look up:
/// see [`Cache::storing_only`]). Returns the records, sorted by id, and
/// the targets left, in their order. Without a cache every target is
/// left.
///
/// ```
/// use bpvm::batch::{Cache, Options, Target, run, take_cached};
/// let dir = std::env::temp_dir().join(format!("bpvm-take-cached-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("q.yaml"), "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: orders}\n").unwrap();
/// let targets = [Target::bluelink(&dir, "q.yaml", None, Default::default())];
/// let options = Options { cache: Some(Cache::open(&dir.join(".cache")).unwrap()), ..Options::default() };
/// let (hits, left) = take_cached(&targets, &options, &());
/// assert!(hits.is_empty() && left == targets);
/// run(&targets, &options, &());
/// let (hits, left) = take_cached(&targets, &options, &());
/// assert!(hits[0].cached && left.is_empty());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn take_cached(targets: &[Target], options: &Options, sink: &dyn Sink) -> (Vec<Record>, Vec<Target>) {
    if options.cache.is_none() {
        return (Vec::new(), targets.to_vec());
    }
    let batch = Batch::new(options, sink, targets.len());
    let groups = groups(targets, &[]);
    let left: Mutex<Vec<&Target>> = Mutex::default();
    queue::drain(threads(options), groups.iter().collect(), |group: &Group| {
        let misses = batch.take_cached(batch.to_do(group));
        left.lock().unwrap_or_else(PoisonError::into_inner).extend(misses);
        Vec::new()
    });
    let left = left.into_inner().unwrap_or_else(PoisonError::into_inner);
    // In the targets' order; a batch stopped by a failure leaves nothing.
    let left: std::collections::HashSet<&str> = left.iter().map(|t| t.id.as_str()).collect();
    let stopped = batch.stop.load(Ordering::Relaxed);
    let left = targets.iter().filter(|t| !stopped && left.contains(t.id.as_str()));
    let left = left.cloned().collect();
    (batch.records(), left)
}

/// The threads `options` asks for (0: one per core).
fn threads(options: &Options) -> usize {
    match options.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
}

/// A template and what the batch does with it: its targets, and its
/// test suite.
struct Group<'a> {
    template: &'a Path,
    targets: Vec<&'a Target>,
    suite: Option<&'a Suite>,
}

/// The templates of `targets` and `suites`, in the order they first
/// appear.
fn groups<'a>(targets: &'a [Target], suites: &'a [Suite]) -> Vec<Group<'a>> {
    let mut groups: Vec<Group<'a>> = Vec::new();
    let mut index: HashMap<&Path, usize> = HashMap::new();
    for t in targets {
        let i = *index.entry(&t.template).or_insert_with(|| {
            groups.push(Group {
                template: &t.template,
                targets: Vec::new(),
                suite: None,
            });
            groups.len() - 1
        });
        groups[i].targets.push(t);
    }
    for s in suites {
        match index.get(s.project.as_path()) {
            Some(&i) => groups[i].suite = Some(s),
            None => groups.push(Group {
                template: &s.project,
                targets: Vec::new(),
                suite: Some(s),
            }),
        }
    }
    groups
}

/// One piece of a batch's work.
enum Job<'a> {
    /// Load a template; its renders and test cases follow.
    Load(&'a Group<'a>),
    /// Render a target from its loaded template (and what loading it read).
    Render(&'a Target, Arc<Loaded>),
    /// Run a test case.
    Test(Box<TestCase>),
}

/// A template loaded for its targets' renders: what loading it read, and
/// the entries of the facet files its renders left out, each made once.
struct Loaded {
    template: Arc<Template>,
    read: Arc<Inputs>,
    /// `read` as the targets' manifests name it, when inputs are tracked.
    named: Option<Named>,
    /// By the facet file (relative to the project); `None` when the file
    /// is no longer what the load read.
    left_out: Mutex<foldhash::HashMap<String, Option<LeftOutAt>>>,
}

impl Loaded {
    /// The entries of the facet files `files` (relative to the project)
    /// that the render (which read `rendered`) did not read itself.
    fn left_out(&self, files: &[String], rendered: &Inputs) -> LeftOuts {
        let Template::Windsor(project) = &*self.template else {
            return LeftOuts::new();
        };
        let v09 = matches!(project.format, bpvm_windsor::Format::V09);
        let mut memo = self.left_out.lock().unwrap_or_else(PoisonError::into_inner);
        let mut out = LeftOuts::new();
        for file in files {
            let entry = match memo.get(file) {
                Some(entry) => entry,
                None => {
                    let facet = project.facets.iter().find(|f| f.file == *file);
                    let entry = facet.and_then(|facet| LeftOut::loaded(project, facet, &self.read, v09));
                    let entry = entry.map(Arc::new);
                    memo.entry(file.clone()).or_insert(entry)
                }
            };
            if let Some(left) = entry
                && !rendered.files.contains_key(left.0.as_os_str())
            {
                out.push(Arc::clone(left));
            }
        }
        out
    }
}

/// A test case to run, holding its project.
struct TestCase {
    id: String,
    case: test::Case,
    project: Arc<Template>,
}

/// A batch under way.
struct Batch<'a> {
    options: &'a Options,
    /// What variables' values are hashed under (see [`Options::run_key`]).
    key: Hash,
    sink: &'a dyn Sink,
    records: Mutex<Vec<Record>>,
    stop: AtomicBool,
    /// The options that change output, as manifests name them.
    output_options: BTreeMap<String, String>,
}

impl<'a> Batch<'a> {
    /// A batch of `targets` targets with `options`, writing to `sink`.
    fn new(options: &'a Options, sink: &'a dyn Sink, targets: usize) -> Batch<'a> {
        Batch {
            options,
            key: options.run_key(),
            sink,
            records: Mutex::new(Vec::with_capacity(targets)),
            stop: AtomicBool::new(false),
            output_options: output_options(options.format, options.strict),
        }
    }

    /// The records so far, sorted by id.
    fn records(self) -> Vec<Record> {
        let mut records = self.records.into_inner().unwrap_or_else(PoisonError::into_inner);
        records.sort_by(|a, b| a.id.cmp(&b.id));
        records
    }

    /// The targets of `group` to run (those not skipped).
    fn to_do<'g>(&self, group: &Group<'g>) -> Vec<&'g Target> {
        let skip = &self.options.skip;
        group
            .targets
            .iter()
            .filter(|t| !skip.contains(&t.id))
            .copied()
            .collect()
    }

    /// Does `job`; returns the jobs it starts.
    fn work<'g>(&self, job: Job<'g>) -> Vec<Job<'g>> {
        if self.stop.load(Ordering::Relaxed) {
            return Vec::new();
        }
        match job {
            Job::Load(group) => self.load(group),
            Job::Render(target, loaded) => {
                self.render(target, &loaded);
                Vec::new()
            }
            Job::Test(test) => {
                self.test_case(*test);
                Vec::new()
            }
        }
    }

    /// Loads a group's template: its targets' renders and its test cases
    /// are the jobs started, or, when it does not load, each fails with
    /// the reason.
    fn load<'g>(&self, group: &'g Group<'g>) -> Vec<Job<'g>> {
        let start = Instant::now();
        let todo = self.take_cached(self.to_do(group));
        if todo.is_empty() && group.suite.is_none() {
            return Vec::new();
        }
        // A project whose targets are all in other shards is loaded for
        // its tests alone.
        let read = Recorder::keyed(self.key);
        let loaded = self.tracked(&read, || match group.targets.first() {
            Some(t) => guarded(|| Template::load(t)),
            None => guarded(|| Template::project(group.template)),
        });
        let read = Arc::new(read.take());
        // Named once for the manifests of all of the template's targets.
        let named = match (self.options.tracking(), todo.first()) {
            (true, Some(t)) => Some(Named::of(t, &read)),
            _ => None,
        };
        let template = match loaded {
            Ok(t) => Arc::new(t),
            Err(e) => {
                for t in &todo {
                    let mut record = Record::new(t.id.clone(), kind(t), Status::Failed);
                    record.seconds = start.elapsed().as_secs_f64();
                    record.diagnostics = vec![e.clone()];
                    let made = self.manifest(t, named.as_ref(), &Inputs::default(), &LeftOuts::new());
                    self.attach(&mut record, made);
                    self.finish(record);
                }
                if let Some(suite) = group.suite {
                    self.suite_failed(suite, start, e);
                }
                return Vec::new();
            }
        };
        let shared = Arc::new(Loaded {
            template: Arc::clone(&template),
            read: Arc::clone(&read),
            named,
            left_out: Mutex::default(),
        });
        let mut jobs: Vec<Job<'g>> = todo.into_iter().map(|t| Job::Render(t, Arc::clone(&shared))).collect();
        if let Some(suite) = group.suite {
            jobs.extend(
                self.test_suite(suite, &template)
                    .into_iter()
                    .map(|t| Job::Test(Box::new(t))),
            );
        }
        jobs
    }

    /// Renders `target` from its loaded template.
    fn render(&self, target: &Target, loaded: &Loaded) {
        self.sink.started(&target.id);
        let start = Instant::now();
        let read = Recorder::keyed(self.key);
        let format = self.options.format;
        let rendered = self.tracked(&read, || {
            guarded(|| loaded.template.render(target, format, self.options.strict))
        });
        let read = read.take();
        let left_out = match (&rendered, self.options.tracking()) {
            (Ok(r), true) => loaded.left_out(&r.left_out, &read),
            _ => LeftOuts::new(),
        };
        let rendered = rendered.map(|r| r.output);
        let made = self.manifest(target, loaded.named.as_ref(), &read, &left_out);
        if let (Some(cache), Some(entry), Ok(output)) = (
            &self.options.cache,
            made.as_ref().and_then(|m| m.entry.as_ref()),
            &rendered,
        ) {
            // A cache that cannot be written is only slower next time.
            let _ = cache.store(target, entry, output);
        }
        let mut record = match rendered {
            Err(e) => {
                let mut r = Record::new(target.id.clone(), kind(target), Status::Failed);
                r.diagnostics = vec![e];
                r
            }
            Ok(output) => self.output(target, output),
        };
        record.seconds = start.elapsed().as_secs_f64();
        self.attach(&mut record, made);
        self.finish(record);
    }

    /// A target's output handed to the sink: its record (without time).
    fn output(&self, target: &Target, output: Output) -> Record {
        let (status, diagnostics) = match self.sink.output(target, &output) {
            Verdict::Ok => (Status::Ok, Vec::new()),
            Verdict::Drift(diff) => (Status::Drift, vec![diff]),
            Verdict::Failed(e) => (Status::Failed, vec![e]),
        };
        let mut record = Record::new(target.id.clone(), kind(target), status);
        record.diagnostics = diagnostics;
        record.notes = output.notes;
        record
    }

    /// The targets of `todo` whose output the cache has (their inputs
    /// unchanged) are done here; the others are returned, to render.
    fn take_cached<'g>(&self, todo: Vec<&'g Target>) -> Vec<&'g Target> {
        let Some(cache) = &self.options.cache else {
            return todo;
        };
        let options = &self.output_options;
        let mut misses = Vec::new();
        let mut seen = Default::default();
        for target in todo {
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
            let start = Instant::now();
            match cache.lookup(target, self.options.version(), options, &mut seen) {
                None => misses.push(target),
                Some((manifest, output)) => {
                    self.sink.started(&target.id);
                    let mut record = self.output(target, output);
                    record.seconds = start.elapsed().as_secs_f64();
                    record.cached = true;
                    record.manifest = Some(manifest);
                    self.finish(record);
                }
            }
        }
        misses
    }

    /// `f`, noting what it reads in `recorder` when inputs are tracked.
    fn tracked<T>(&self, recorder: &Arc<Recorder>, f: impl FnOnce() -> T) -> T {
        if self.options.tracking() {
            inputs::track(recorder, f)
        } else {
            f()
        }
    }

    /// `target`'s manifest as JSON, when inputs are tracked (`load` is
    /// then what its template's load read), with what its render read;
    /// as the cache keeps it too when there is a cache or the sink takes
    /// manifests as structs (which are read from it).
    fn manifest(&self, target: &Target, load: Option<&Named>, render: &Inputs, left_out: &LeftOuts) -> Option<Made> {
        let load = load?;
        let (version, options) = (self.options.version(), &self.output_options);
        let entry = self.options.cache.is_some() || !self.sink.manifests_as_json();
        Some(load.json(target, render, left_out, version, options, entry))
    }

    /// `record` given its manifest `made`, as the sink takes it.
    fn attach(&self, record: &mut Record, made: Option<Made>) {
        let Some(made) = made else { return };
        if self.sink.manifests_as_json() {
            record.manifest_json = String::from_utf8(made.json).ok();
        } else {
            record.manifest = made.entry.and_then(|e| serde_json::from_slice(&e).ok());
        }
    }

    /// A project's test cases (those of the shard).
    fn test_suite(&self, suite: &Suite, project: &Arc<Template>) -> Vec<TestCase> {
        let start = Instant::now();
        let Template::Windsor(windsor) = &**project else {
            return self.suite_failed(suite, start, format!("error: {} is not a Windsor project", suite.id));
        };
        // A project without tests has no cases, which is not a failure.
        if !windsor.root.dir().join(bpvm_windsor::TEMPLATE).join("tests").is_dir() {
            return Vec::new();
        }
        let cases = match test::discover(windsor, &[]) {
            Ok(cases) => cases,
            Err(e) => return self.suite_failed(suite, start, e.to_string()),
        };
        cases
            .into_iter()
            .map(|case| TestCase {
                id: format!("{}::{}", join(&suite.id, &case.file), case.name),
                case,
                project: Arc::clone(project),
            })
            .filter(|t| self.options.shard.is_none_or(|(k, n)| shard_of(&t.id, n) == k))
            .filter(|t| !self.options.skip.contains(&t.id))
            .collect()
    }

    fn test_case(&self, test: TestCase) {
        self.sink.started(&test.id);
        let start = Instant::now();
        let Template::Windsor(windsor) = &*test.project else {
            return;
        };
        let refused = bpvm_windsor::validate::case(windsor, &test.case.file, test.case.index, test.case.values());
        let strict = self.options.strict && !refused.is_empty();
        let diffs = if strict {
            // A refused value fails the render, as the case may expect.
            let failed = refused.iter().map(|w| bpvm_windsor::warning_line(w, true));
            if test.case.expects_error() {
                Vec::new()
            } else {
                failed.collect()
            }
        } else {
            guarded(|| Ok(test::run(windsor, &test.case, true))).unwrap_or_else(|e| vec![e])
        };
        let warned = refused.iter().filter(|_| !strict);
        let notes = warned.chain(&test.case.warnings);
        let notes: Vec<String> = notes.map(|w| bpvm_windsor::warning_line(w, false)).collect();
        let status = if diffs.is_empty() { Status::Ok } else { Status::Failed };
        self.finish(Record {
            seconds: start.elapsed().as_secs_f64(),
            diagnostics: diffs,
            notes,
            ..Record::new(test.id, RecordKind::Test, status)
        });
    }

    /// A project's suite that could not even be listed: one failed record.
    fn suite_failed(&self, suite: &Suite, start: Instant, e: String) -> Vec<TestCase> {
        self.finish(Record {
            seconds: start.elapsed().as_secs_f64(),
            diagnostics: vec![e],
            ..Record::new(format!("{}::tests", suite.id), RecordKind::Test, Status::Failed)
        });
        Vec::new()
    }

    fn finish(&self, record: Record) {
        if record.status != Status::Ok && self.options.fail_fast {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.sink.done(&record);
        self.records.lock().unwrap_or_else(PoisonError::into_inner).push(record);
    }
}

fn kind(target: &Target) -> RecordKind {
    match target.kind {
        Kind::Windsor { .. } => RecordKind::Windsor,
        Kind::Bluelink { .. } => RecordKind::Bluelink,
    }
}

/// `f`, with a panic turned into an error, so that one target's bug does
/// not take the batch down.
fn guarded<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!("error: internal error in bpvm (please report it): {what}"))
    })
}
