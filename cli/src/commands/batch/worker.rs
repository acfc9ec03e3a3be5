//! `bpvm batch-worker` (hidden): a worker process of `bpvm batch`. It
//! reads jobs from stdin, renders each on one thread with the library's
//! batch (the template loaded once for all of its targets), and says on
//! stdout which target starts, each text and each record.
//!
//! A target that aborts this process or never ends takes only this
//! process: the parent gives the target a failed record and goes on with
//! a new worker (see `pool`).

use super::wire::{self, Job, Message};
use bpvm::batch::{self, Options, Output, Record, Sink, Target, Verdict};
use std::fs::File;
use std::io::{BufReader, Write};
use std::os::fd::AsFd;
use std::process::ExitCode;
use std::sync::Mutex;

/// The worker's arguments: none; it is started by `bpvm batch` only.
#[derive(clap::Args)]
pub struct WorkerArgs {}

/// Works jobs until stdin ends.
pub fn work(_: WorkerArgs) -> ExitCode {
    // One target after another: what one frees, the next takes.
    crate::alloc::keep_freed();
    let mut input = BufReader::new(std::io::stdin().lock());
    // Stdout as a file: the standard handle buffers by lines and split a
    // message at its newlines into several writes.
    let out = match std::io::stdout().as_fd().try_clone_to_owned() {
        Ok(fd) => Mutex::new(File::from(fd)),
        Err(e) => {
            eprintln!("error: bpvm batch-worker: stdout: {e}");
            return ExitCode::from(2);
        }
    };
    let mut cache = Opened::default();
    loop {
        let job = match Job::receive(&mut input) {
            Ok(Some(job)) => job,
            Ok(None) => return ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("error: bpvm batch-worker: {e}");
                return ExitCode::from(2);
            }
        };
        let sink = Messages {
            texts: job.texts,
            manifests: job.manifests,
            out: &out,
        };
        let options = Options {
            jobs: 1,
            format: job.format,
            fail_fast: job.fail_fast,
            strict: job.strict,
            track: job.track,
            cache: cache.take(job.cache.as_deref()),
            env_key: Some(job.env_key),
            bpvm_version: None,
            tests: job.suite.into_iter().collect(),
            shard: job.shard,
            skip: job.skip.into_iter().collect(),
        };
        batch::run(&job.targets, &options, &sink);
        sink.send(&Message::End);
    }
}

/// The sink that tells the parent.
struct Messages<'a> {
    texts: bool,
    /// Whether records go with their manifests.
    manifests: bool,
    out: &'a Mutex<File>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Messages<'_> {
    /// Sends `message` at once: should the next target hang or crash, the
    /// parent must already know what came before.
    fn send(&self, message: &Message) {
        self.write(0, |out| message.send(out));
    }

    /// Writes what `put` makes (about `size` bytes) with one write: a
    /// message the parent reads whole, not field by field.
    fn write(&self, size: usize, put: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) {
        let mut bytes = Vec::with_capacity(size + 256);
        if put(&mut bytes).is_err() {
            return;
        }
        // A parent that is gone reads nothing more; the worker ends when
        // its stdin does.
        let _ = lock(self.out).write_all(&bytes);
    }
}

impl Sink for Messages<'_> {
    fn started(&self, id: &str) {
        self.send(&Message::Started(id.to_string()));
    }

    fn output(&self, target: &Target, output: &Output) -> Verdict {
        if self.texts {
            self.send(&Message::Text(target.id.clone(), output.text.clone()));
        }
        Verdict::Ok
    }

    fn done(&self, record: &Record) {
        let size = record.manifest_json.as_ref().map_or(0, String::len);
        self.write(size, |out| wire::put_done(out, record, self.manifests));
    }

    fn manifests_as_json(&self) -> bool {
        true
    }
}

/// The render cache the last job named, opened once for all of the jobs
/// that name it (opening it makes sure of its folders and reads its key:
/// eleven system calls).
#[derive(Default)]
struct Opened(Option<batch::Cache>);

impl Opened {
    /// The cache in `dir`, to store renders in: the parent took what it
    /// had. The parent made the folder: one that is gone now is no cache.
    fn take(&mut self, dir: Option<&std::path::Path>) -> Option<batch::Cache> {
        let dir = dir?;
        if self.0.as_ref().is_none_or(|c| c.dir() != dir) {
            self.0 = batch::Cache::open(dir).ok().map(batch::Cache::storing_only);
        }
        self.0.clone()
    }
}
