//! Running a batch: every target rendered on a pool of worker threads,
//! each template loaded once and dropped when its last target is done.

use super::report::{Record, RecordKind, Status};
use super::shard::shard_of;
use super::target::{Kind, Target, join};
use super::template::{Format, Output, Template};
use bpvm_windsor::test;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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

    /// A target or test case is done (for progress).
    fn done(&self, record: &Record) {
        let _ = record;
    }
}

/// The sink that drops every text: a batch that checks that every
/// target renders.
impl Sink for () {}

/// Renders every target of `targets` on `options.jobs` threads, hands
/// each text to `sink`, and returns one record per target (and per test
/// case) sorted by id. Each template is loaded once, shared by its
/// targets, and dropped after the last of them.
///
/// A target that fails does not stop the others unless
/// `options.fail_fast`; targets not started after a failure then have
/// no record. A panic in one target's render is caught and recorded as
/// its failure.
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
    let jobs = match options.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let batch = Batch {
        options,
        sink,
        cache: Cache::new(targets, &options.tests),
        records: Mutex::new(Vec::with_capacity(targets.len())),
        stop: AtomicBool::new(false),
    };
    match rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        // As the main thread's: a render's depth is bounded, not small.
        .stack_size(8 << 20)
        .thread_name(|i| format!("bpvm-batch-{i}"))
        .build()
    {
        // First in, first out: with one worker, targets render in order
        // (and `fail_fast` stops at the first failure in that order).
        Ok(pool) => pool.scope_fifo(|s| {
            for target in targets {
                let batch = &batch;
                s.spawn_fifo(move |_| batch.render(target));
            }
            for suite in &options.tests {
                let batch = &batch;
                s.spawn_fifo(move |s| {
                    for test in batch.test_suite(suite) {
                        s.spawn_fifo(move |_| batch.test_case(test));
                    }
                });
            }
        }),
        // No threads to be had: the batch runs on this one.
        Err(_) => {
            for target in targets {
                batch.render(target);
            }
            for suite in &options.tests {
                for test in batch.test_suite(suite) {
                    batch.test_case(test);
                }
            }
        }
    }
    let mut records = batch.records.into_inner().unwrap_or_else(PoisonError::into_inner);
    records.sort_by(|a, b| a.id.cmp(&b.id));
    records
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
    sink: &'a dyn Sink,
    cache: Cache,
    records: Mutex<Vec<Record>>,
    stop: AtomicBool,
}

impl Batch<'_> {
    fn render(&self, target: &Target) {
        if self.stop.load(Ordering::Relaxed) {
            return self.cache.release(&target.template);
        }
        let start = Instant::now();
        let (status, diagnostics, notes) = match self.cache.get(&target.template, target) {
            Err(e) => (Status::Failed, vec![e], Vec::new()),
            Ok(template) => {
                let rendered = guarded(|| template.render(target, self.options.format));
                match rendered {
                    Err(e) => (Status::Failed, vec![e], Vec::new()),
                    Ok(output) => match self.sink.output(target, &output) {
                        Verdict::Ok => (Status::Ok, Vec::new(), output.notes),
                        Verdict::Drift(diff) => (Status::Drift, vec![diff], output.notes),
                        Verdict::Failed(e) => (Status::Failed, vec![e], output.notes),
                    },
                }
            }
        };
        self.cache.release(&target.template);
        let kind = match target.kind {
            Kind::Windsor { .. } => RecordKind::Windsor,
            Kind::Bluelink { .. } => RecordKind::Bluelink,
        };
        self.finish(Record {
            id: target.id.clone(),
            kind,
            status,
            seconds: start.elapsed().as_secs_f64(),
            diagnostics,
            notes,
        });
    }

    /// A project's test cases (those of the shard), each to run as a job
    /// of its own; they hold the project until they are done.
    fn test_suite(&self, suite: &Suite) -> Vec<TestCase> {
        let start = Instant::now();
        let project = self.cache.project(&suite.project);
        self.cache.release(&suite.project);
        if self.stop.load(Ordering::Relaxed) {
            return Vec::new();
        }
        let project = match project {
            Ok(p) => p,
            Err(e) => return self.suite_failed(suite, start, e),
        };
        let Template::Windsor(windsor) = &*project else {
            return self.suite_failed(suite, start, format!("error: {} is not a Windsor project", suite.id));
        };
        // A project without tests has no cases, which is not a failure.
        if !windsor.root.dir().join(bpvm_windsor::TEMPLATE).join("tests").is_dir() {
            return Vec::new();
        }
        let cases = match test::discover(windsor, &[]) {
            Ok(cases) => cases,
            Err(e) => return self.suite_failed(suite, start, format!("error: {e}")),
        };
        cases
            .into_iter()
            .map(|case| TestCase {
                id: format!("{}::{}", join(&suite.id, &case.file), case.name),
                case,
                project: Arc::clone(&project),
            })
            .filter(|t| self.options.shard.is_none_or(|(k, n)| shard_of(&t.id, n) == k))
            .collect()
    }

    fn test_case(&self, test: TestCase) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        let start = Instant::now();
        let Template::Windsor(windsor) = &*test.project else {
            return;
        };
        let diffs = guarded(|| Ok(test::run(windsor, &test.case, true))).unwrap_or_else(|e| vec![e]);
        self.finish(Record {
            id: test.id,
            kind: RecordKind::Test,
            status: if diffs.is_empty() { Status::Ok } else { Status::Failed },
            seconds: start.elapsed().as_secs_f64(),
            diagnostics: diffs,
            notes: test.case.warnings.iter().map(|w| format!("warning: {w}")).collect(),
        });
    }

    /// A project's suite that could not even be listed: one failed record.
    fn suite_failed(&self, suite: &Suite, start: Instant, e: String) -> Vec<TestCase> {
        self.finish(Record {
            id: format!("{}::tests", suite.id),
            kind: RecordKind::Test,
            status: Status::Failed,
            seconds: start.elapsed().as_secs_f64(),
            diagnostics: vec![e],
            notes: Vec::new(),
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

/// The loaded templates, each kept while a job still needs it.
struct Cache {
    slots: HashMap<PathBuf, Slot>,
}

/// One template: how many jobs still need it, and the template once
/// loaded (or why it could not be).
#[derive(Default)]
struct Slot {
    uses: AtomicUsize,
    loaded: Mutex<Option<Result<Arc<Template>, String>>>,
}

impl Cache {
    fn new(targets: &[Target], suites: &[Suite]) -> Cache {
        let mut slots: HashMap<PathBuf, Slot> = HashMap::new();
        for t in targets {
            *slots.entry(t.template.clone()).or_default().uses.get_mut() += 1;
        }
        for s in suites {
            *slots.entry(s.project.clone()).or_default().uses.get_mut() += 1;
        }
        Cache { slots }
    }

    /// The template at `path`, loaded for `target` by the first job that
    /// asks; jobs asking meanwhile wait for it rather than load it again.
    fn get(&self, path: &PathBuf, target: &Target) -> Result<Arc<Template>, String> {
        let Some(slot) = self.slots.get(path) else {
            return Template::load(target).map(Arc::new);
        };
        let mut loaded = slot.loaded.lock().unwrap_or_else(PoisonError::into_inner);
        loaded
            .get_or_insert_with(|| guarded(|| Template::load(target)).map(Arc::new))
            .clone()
    }

    /// The Windsor project at `path`.
    fn project(&self, path: &PathBuf) -> Result<Arc<Template>, String> {
        self.get(path, &Target::windsor(path, "", "_"))
    }

    /// A job is done with the template at `path`: the last one drops it.
    fn release(&self, path: &PathBuf) {
        if let Some(slot) = self.slots.get(path)
            && slot.uses.fetch_sub(1, Ordering::AcqRel) == 1
        {
            slot.loaded.lock().unwrap_or_else(PoisonError::into_inner).take();
        }
    }
}
