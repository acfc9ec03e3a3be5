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
use std::io::{BufReader, BufWriter, Stdout, Write};
use std::process::ExitCode;
use std::sync::Mutex;

/// The worker's arguments: none; it is started by `bpvm batch` only.
#[derive(clap::Args)]
pub struct WorkerArgs {}

/// Works jobs until stdin ends.
pub fn work(_: WorkerArgs) -> ExitCode {
    let mut input = BufReader::new(std::io::stdin().lock());
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
            out: Mutex::new(BufWriter::new(std::io::stdout())),
        };
        let options = Options {
            jobs: 1,
            format: job.format,
            fail_fast: job.fail_fast,
            strict: job.strict,
            track: job.track,
            // The parent made the folder: one that is gone now is no cache.
            cache: job.cache.and_then(|dir| batch::Cache::open(&dir).ok()),
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
struct Messages {
    texts: bool,
    /// Whether records go with their manifests.
    manifests: bool,
    out: Mutex<BufWriter<Stdout>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Messages {
    /// Sends `message` at once: should the next target hang or crash, the
    /// parent must already know what came before.
    fn send(&self, message: &Message) {
        self.write(|out| message.send(out));
    }

    /// Writes with `put` and flushes at once.
    fn write(&self, put: impl FnOnce(&mut BufWriter<Stdout>) -> std::io::Result<()>) {
        let mut out = lock(&self.out);
        // A parent that is gone reads nothing more; the worker ends when
        // its stdin does.
        let _ = put(&mut out).and_then(|()| out.flush());
    }
}

impl Sink for Messages {
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
        self.write(|out| wire::put_done(out, record, self.manifests));
    }
}
