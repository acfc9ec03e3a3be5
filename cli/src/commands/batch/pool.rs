//! The batch run in worker processes: each template's targets are one job,
//! done by one worker (the template loaded once for all of them), N
//! workers at a time. Whatever one target does to its worker — abort,
//! overflow its stack, run out of memory, never end — is that target's
//! failed record: the worker is killed if need be, a new one started,
//! and the job's remaining targets go on there.

use super::crash;
use super::limits::Limits;
use super::process::{Heard, Worker};
use super::wire::{Job, Message};
use bpvm::batch::{Output, Record, RecordKind, Sink, Status, Suite, Target, Verdict};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

/// A batch under way in worker processes.
pub struct Pool<'a> {
    pub limits: Limits,
    pub sink: &'a dyn Sink,
    pub fail_fast: bool,
    queue: Mutex<VecDeque<Job>>,
    records: Mutex<Vec<Record>>,
    stop: AtomicBool,
}

/// How a job's run in one worker ended.
enum Ended {
    /// The worker finished the job.
    Done,
    /// The worker died or was killed: the target or test case it was on
    /// (`None`: it was loading the template), and why.
    Failed(Option<String>, Instant, String),
}

impl<'a> Pool<'a> {
    /// A pool for `jobs`, writing through `sink`.
    pub fn new(jobs: Vec<Job>, limits: Limits, sink: &'a dyn Sink, fail_fast: bool) -> Pool<'a> {
        Pool {
            limits,
            sink,
            fail_fast,
            queue: Mutex::new(jobs.into()),
            records: Mutex::default(),
            stop: AtomicBool::new(false),
        }
    }

    /// Runs every job on `workers` worker processes; the records, sorted
    /// by id (with the manifests the workers sent, as JSON).
    pub fn run(self, workers: usize) -> Vec<Record> {
        std::thread::scope(|scope| {
            for _ in 0..workers.max(1) {
                scope.spawn(|| self.manage());
            }
        });
        let mut records = self.records.into_inner().unwrap_or_else(PoisonError::into_inner);
        records.sort_by(|a, b| a.id.cmp(&b.id));
        records
    }

    /// One worker's manager: takes jobs until none is left.
    fn manage(&self) {
        let mut worker: Option<Worker> = None;
        while let Some(job) = self.next() {
            self.job(&mut worker, job);
        }
        if let Some(worker) = worker {
            worker.finish();
        }
    }

    fn next(&self) -> Option<Job> {
        if self.stop.load(Ordering::Relaxed) {
            return None;
        }
        self.queue.lock().unwrap_or_else(PoisonError::into_inner).pop_front()
    }

    /// Does `job`, starting a worker when there is none, and a new one
    /// after each crash, until every target has a record.
    fn job(&self, slot: &mut Option<Worker>, mut job: Job) {
        let mut done: HashSet<String> = job.skip.iter().cloned().collect();
        let all = std::mem::take(&mut job.targets);
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            job.targets = all.iter().filter(|t| !done.contains(&t.id)).cloned().collect();
            job.skip = done.iter().cloned().collect();
            if job.targets.is_empty() && job.suite.is_none() {
                return;
            }
            let worker = match slot.take().map_or_else(|| Worker::start(&self.limits), Ok) {
                Ok(w) => slot.insert(w),
                Err(e) => return self.fail_rest(&job, None, &e),
            };
            let ended = if worker.send(&job) {
                self.follow(worker, &job, &mut done)
            } else {
                Ended::Failed(None, Instant::now(), String::new())
            };
            let Ended::Failed(on, since, why) = ended else {
                return;
            };
            let Some(worker) = slot.take() else { return };
            let why = if why.is_empty() {
                let (status, stderr) = worker.end();
                crash::cause(status, &stderr, &self.limits)
            } else {
                drop(worker.end());
                why
            };
            match on {
                Some(id) => {
                    self.failed(&job, &id, since, &why);
                    done.insert(id);
                }
                // A template whose load kills the worker would kill each
                // new one: its targets fail together.
                None => return self.fail_rest(&job, Some(since), &format!("loading the template: {why}")),
            }
        }
    }

    /// Follows the worker through `job` until it ends it or dies. An
    /// empty cause asks the caller to find it in how the worker ended.
    fn follow(&self, worker: &Worker, job: &Job, done: &mut HashSet<String>) -> Ended {
        let mut on: Option<String> = None;
        let mut since = Instant::now();
        let mut texts: HashMap<String, String> = HashMap::new();
        loop {
            match worker.hear(since + self.limits.timeout) {
                Heard::Message(Message::Started(id)) => {
                    on = Some(id);
                    since = Instant::now();
                }
                Heard::Message(Message::Text(id, text)) => {
                    texts.insert(id, text);
                }
                Heard::Message(Message::Done(record)) => {
                    let text = texts.remove(&record.id);
                    done.insert(record.id.clone());
                    self.finish(self.written(job, *record, text));
                    on = None;
                    since = Instant::now();
                }
                Heard::Message(Message::End) => return Ended::Done,
                Heard::Late => return Ended::Failed(on, since, self.limits.deadline()),
                Heard::Gone => return Ended::Failed(on, since, String::new()),
            }
        }
    }

    /// `record` after its text is written or compared.
    fn written(&self, job: &Job, mut record: Record, text: Option<String>) -> Record {
        let (Some(text), Status::Ok) = (text, record.status) else {
            return record;
        };
        let Some(target) = job.targets.iter().find(|t| t.id == record.id) else {
            return record;
        };
        let output = Output {
            text,
            notes: Vec::new(),
        };
        match self.sink.output(target, &output) {
            Verdict::Ok => {}
            Verdict::Drift(diff) => {
                record.status = Status::Drift;
                record.diagnostics.push(diff);
            }
            Verdict::Failed(e) => {
                record.status = Status::Failed;
                record.diagnostics.push(e);
            }
        }
        record
    }

    /// The failed record of the target or test case `id` that `why`
    /// stopped.
    fn failed(&self, job: &Job, id: &str, since: Instant, why: &str) {
        let kind = job.targets.iter().find(|t| t.id == id).map_or(RecordKind::Test, kind);
        self.finish(failure(id, kind, since, why));
    }

    /// Every target of `job` without a record fails with `why`, and its
    /// test suite with them.
    fn fail_rest(&self, job: &Job, since: Option<Instant>, why: &str) {
        let since = since.unwrap_or_else(Instant::now);
        for t in &job.targets {
            self.finish(failure(&t.id, kind(t), since, why));
        }
        if let Some(Suite { id, .. }) = &job.suite {
            let id = format!("{id}::tests");
            if !job.skip.contains(&id) {
                self.finish(failure(&id, RecordKind::Test, since, why));
            }
        }
    }

    fn finish(&self, record: Record) {
        if record.status != Status::Ok && self.fail_fast {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.sink.done(&record);
        self.records.lock().unwrap_or_else(PoisonError::into_inner).push(record);
    }
}

fn failure(id: &str, kind: RecordKind, since: Instant, why: &str) -> Record {
    Record {
        seconds: since.elapsed().as_secs_f64(),
        diagnostics: vec![format!("error: {why}")],
        ..Record::new(id, kind, Status::Failed)
    }
}

fn kind(target: &Target) -> RecordKind {
    match target.language() {
        "windsor" => RecordKind::Windsor,
        _ => RecordKind::Bluelink,
    }
}
