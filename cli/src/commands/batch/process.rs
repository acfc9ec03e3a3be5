//! One worker process of `bpvm batch`: started as `bpvm batch-worker`
//! under the memory limit, its messages read on a thread of their own so
//! that the parent can wait for them with a deadline, the last lines of
//! its stderr kept to say why it died.

use super::limits::Limits;
use super::wire::{Job, Message};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How many of a worker's last stderr lines are kept, and how long each.
const TAIL_LINES: usize = 16;
const LINE_CHARS: usize = 400;

/// A running worker.
pub struct Worker {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Message>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    stderr_done: Receiver<()>,
}

/// What waiting for a worker's next message gave.
pub enum Heard {
    Message(Message),
    /// Nothing before the deadline.
    Late,
    /// The worker is gone.
    Gone,
}

impl Worker {
    /// Starts a worker of the running `bpvm`.
    pub fn start(limits: &Limits) -> Result<Worker, String> {
        let exe =
            std::env::current_exe().map_err(|e| format!("cannot find the bpvm executable to start workers: {e}"))?;
        let mut command = Command::new(exe);
        command
            .arg("batch-worker")
            // A backtrace taken when memory has run out allocates, fails,
            // and waits forever on the lock it holds: a worker out of
            // memory must abort at once.
            .env("RUST_BACKTRACE", "0")
            .env("RUST_LIB_BACKTRACE", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        limits.apply(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start a worker process: {e}"))?;
        let (stdout, stderr) = match (child.stdout.take(), child.stderr.take()) {
            (Some(out), Some(err)) => (out, err),
            _ => return Err("cannot start a worker process: no pipes".into()),
        };
        let (tx, messages) = mpsc::channel();
        std::thread::spawn(move || {
            let mut input = BufReader::with_capacity(1 << 16, stdout);
            while let Ok(Some(message)) = Message::receive(&mut input) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let (done_tx, stderr_done) = mpsc::channel();
        let kept = Arc::clone(&tail);
        std::thread::spawn(move || {
            keep_tail(stderr, &kept);
            let _ = done_tx.send(());
        });
        Ok(Worker {
            stdin: child.stdin.take(),
            child,
            messages,
            stderr: tail,
            stderr_done,
        })
    }

    /// Hands the worker a job; `false` when it cannot take it (it died).
    pub fn send(&mut self, job: &Job) -> bool {
        // One write: written field by field, a job took some thirty
        // writes, and as many reads in the worker (strace, 2026-11-28).
        let mut bytes = Vec::with_capacity(1024);
        job.send(&mut bytes).is_ok() && self.stdin.as_mut().is_some_and(|stdin| stdin.write_all(&bytes).is_ok())
    }

    /// The next message, waiting until `deadline` at most.
    pub fn hear(&self, deadline: Instant) -> Heard {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(wait) {
            Ok(message) => Heard::Message(message),
            Err(RecvTimeoutError::Timeout) => Heard::Late,
            Err(RecvTimeoutError::Disconnected) => Heard::Gone,
        }
    }

    /// Kills the worker (if it still runs) and says how it ended, with
    /// the last lines of its stderr.
    pub fn end(mut self) -> (Option<ExitStatus>, Vec<String>) {
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        // Its stderr closes with it, unless something it started still
        // holds it: then what was read so far.
        let _ = self.stderr_done.recv_timeout(Duration::from_millis(500));
        let tail = self.stderr.lock().unwrap_or_else(PoisonError::into_inner);
        (status, tail.iter().cloned().collect())
    }

    /// Lets the worker finish: its stdin closes and it exits.
    pub fn finish(mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// Reads `stderr` to its end, keeping its last lines in `tail`.
fn keep_tail(stderr: impl std::io::Read, tail: &Mutex<VecDeque<String>>) {
    let mut input = BufReader::new(stderr);
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let text: String = String::from_utf8_lossy(&line)
            .trim_end()
            .chars()
            .filter(|c| !c.is_control())
            .take(LINE_CHARS)
            .collect();
        let mut tail = tail.lock().unwrap_or_else(PoisonError::into_inner);
        if tail.len() == TAIL_LINES {
            tail.pop_front();
        }
        tail.push_back(text);
    }
}
