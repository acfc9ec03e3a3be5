//! The render's side of the worker: one per thread, started on first use
//! and kept for the next call; killed at the deadline, and replaced after
//! it dies. A worker that ends early says why by how it ended.

use super::limits::{Limits, MEMORY_VARIABLE, TIMEOUT_VARIABLE};
use super::worker::{OUT_OF_MEMORY, WORKER_COMMAND};
use super::{frame, limits::WORKER_VARIABLE};
use bpvm_runtime::Value;
use bpvm_runtime::root::Root;
use std::cell::RefCell;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running worker and the line to it.
struct Worker {
    child: Child,
    line: UnixStream,
    exe: PathBuf,
    memory: usize,
    /// The scope the worker holds (sent with the last request).
    scope: Option<String>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

thread_local! {
    static WORKER: RefCell<Option<Worker>> = const { RefCell::new(None) };
}

/// Why a worker gave no reply.
enum Broken {
    /// The deadline passed first.
    Late,
    /// The line failed: the worker ended, or never started.
    Ended(io::Error),
}

impl From<io::Error> for Broken {
    fn from(e: io::Error) -> Broken {
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Broken::Late,
            _ => Broken::Ended(e),
        }
    }
}

/// The file at `path` (inside `root`) evaluated by this thread's worker
/// of `exe` with `scope` (JSON) as its context, by `deadline`.
pub(crate) fn evaluate(
    exe: &Path,
    limits: &Limits,
    deadline: Instant,
    root: &Root,
    path: &Path,
    scope: &str,
) -> Result<Value, String> {
    WORKER.with_borrow_mut(|slot| {
        if !slot.as_ref().is_some_and(|w| w.exe == exe && w.memory == limits.memory) {
            *slot = None;
            *slot = Some(Worker::start(exe, limits.memory)?);
        }
        let Some(worker) = slot.as_mut() else {
            return Err("the Jsonnet worker is not running".to_string());
        };
        match worker.ask(root, path, scope, deadline) {
            Ok(reply) => reply,
            Err(broken) => Err(slot.take().map_or_else(String::new, |w| w.failed(broken, limits))),
        }
    })
}

impl Worker {
    fn start(exe: &Path, memory: usize) -> Result<Worker, String> {
        let cannot = |e: io::Error| {
            format!(
                "the Jsonnet worker {} cannot start: {e} (it must be a bpvm executable; {WORKER_VARIABLE} names it)",
                exe.display()
            )
        };
        let (line, theirs) = UnixStream::pair().map_err(cannot)?;
        let out = theirs.try_clone().map_err(cannot)?;
        let child = Command::new(exe)
            .arg(WORKER_COMMAND)
            .arg("--memory-bytes")
            .arg(memory.to_string())
            .stdin(Stdio::from(OwnedFd::from(theirs)))
            .stdout(Stdio::from(OwnedFd::from(out)))
            .stderr(Stdio::null())
            .spawn()
            .map_err(cannot)?;
        Ok(Worker {
            child,
            line,
            exe: exe.to_path_buf(),
            memory,
            scope: None,
        })
    }

    /// Sends one request and reads its reply, by `deadline`.
    fn ask(
        &mut self,
        root: &Root,
        path: &Path,
        scope: &str,
        deadline: Instant,
    ) -> Result<Result<Value, String>, Broken> {
        let mut cpu = seconds(deadline.saturating_duration_since(Instant::now())).to_string();
        if bpvm_runtime::root::inputs::tracking() {
            cpu.push_str(" track");
        }
        let scope = match &self.scope {
            Some(held) if held == scope => "",
            _ => scope,
        };
        self.line.set_write_timeout(Some(left(deadline)?))?;
        let dir = root.dir().as_os_str().as_bytes();
        frame::write(
            &mut self.line,
            &[dir, path.as_os_str().as_bytes(), cpu.as_bytes(), scope.as_bytes()],
        )?;
        if !scope.is_empty() {
            self.scope = Some(scope.to_string());
        }
        self.line.set_read_timeout(Some(left(deadline)?))?;
        let tag = frame::read(&mut self.line, 8)?;
        self.line.set_read_timeout(Some(left(deadline)?))?;
        let body = frame::read(&mut self.line, self.memory)?;
        self.line.set_read_timeout(Some(left(deadline)?))?;
        let read = frame::read(&mut self.line, self.memory)?;
        let (Some(tag), Some(body), Some(read)) = (tag, body, read) else {
            return Err(Broken::Ended(io::ErrorKind::UnexpectedEof.into()));
        };
        // What the worker read is this render's input too.
        if let Some(read) = bpvm_runtime::root::inputs::Inputs::decode(&read) {
            bpvm_runtime::root::inputs::add(&read);
        }
        let text = String::from_utf8_lossy(&body);
        Ok(match tag.as_slice() {
            b"ok" => Value::from_json(&text).map_err(|e| format!("the result cannot be read: {e}")),
            _ => Err(text.into_owned()),
        })
    }

    /// Why the worker gave no reply, in the user's words: it is killed
    /// (when still running) and its way of ending read.
    fn failed(mut self, broken: Broken, limits: &Limits) -> String {
        let status = match broken {
            Broken::Late => return late(limits, "time limit"),
            Broken::Ended(e) => ended(&mut self.child).ok_or(e),
        };
        match status {
            Ok(s) if s.code() == Some(OUT_OF_MEMORY) => format!(
                "Jsonnet needed more than its memory limit of {} MiB (set {MEMORY_VARIABLE} to raise it)",
                limits.memory >> 20
            ),
            Ok(s) if s.signal() == Some(libc::SIGXCPU) => late(limits, "CPU time limit"),
            Ok(s) => format!("the Jsonnet worker stopped unexpectedly ({s})"),
            Err(e) => format!("the Jsonnet worker stopped unexpectedly ({e})"),
        }
    }
}

/// How the worker ended, waiting a moment for it to finish ending; `None`
/// if it is still running (it is then killed).
fn ended(child: &mut Child) -> Option<ExitStatus> {
    for _ in 0..100 {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    None
}

fn late(limits: &Limits, which: &str) -> String {
    format!(
        "Jsonnet ran past the render's {which} of {} s (raise it with --timeout or {TIMEOUT_VARIABLE})",
        seconds(limits.timeout)
    )
}

/// The time left before `deadline`, or [`Broken::Late`].
fn left(deadline: Instant) -> Result<Duration, Broken> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() { Err(Broken::Late) } else { Ok(left) }
}

/// Whole seconds, rounded up.
fn seconds(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in worker: a shell script that does `body`.
    fn fake(name: &str, body: &str) -> (tempfile::TempDir, PathBuf, Root) {
        let dir = tempfile::tempdir().unwrap();
        let exe = dir.path().join(name);
        std::fs::write(&exe, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let root = Root::new(dir.path(), "project").unwrap();
        (dir, exe, root)
    }

    fn ask(exe: &Path, root: &Root, within: Duration) -> String {
        let limits = Limits {
            memory: 64 << 20,
            timeout: within,
        };
        let file = root.dir().join("main.jsonnet");
        evaluate(exe, &limits, Instant::now() + within, root, &file, "{}").unwrap_err()
    }

    #[test]
    fn a_worker_that_ends_says_which_limit_it_reached() {
        let (_dir, exe, root) = fake("oom", &format!("exit {OUT_OF_MEMORY}"));
        assert_eq!(
            ask(&exe, &root, Duration::from_secs(10)),
            "Jsonnet needed more than its memory limit of 64 MiB (set BPVM_JSONNET_MEMORY_MIB to raise it)"
        );
        let (_dir, exe, root) = fake("cpu", "kill -XCPU $$");
        assert_eq!(
            ask(&exe, &root, Duration::from_secs(10)),
            "Jsonnet ran past the render's CPU time limit of 10 s (raise it with --timeout or BPVM_TIMEOUT_SECONDS)"
        );
        let (_dir, exe, root) = fake("crash", "kill -SEGV $$");
        let e = ask(&exe, &root, Duration::from_secs(10));
        assert!(
            e.starts_with("the Jsonnet worker stopped unexpectedly (signal: 11"),
            "{e}"
        );
    }

    #[test]
    fn a_worker_past_the_deadline_is_killed() {
        let (_dir, exe, root) = fake("slow", "exec sleep 30");
        let started = Instant::now();
        assert_eq!(
            ask(&exe, &root, Duration::from_millis(300)),
            "Jsonnet ran past the render's time limit of 1 s (raise it with --timeout or BPVM_TIMEOUT_SECONDS)"
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_worker_that_cannot_start_is_named() {
        let e = ask(
            Path::new("/nonexistent/bpvm"),
            &Root::new(Path::new("/"), "project").unwrap(),
            Duration::from_secs(1),
        );
        assert_eq!(
            e,
            "the Jsonnet worker /nonexistent/bpvm cannot start: No such file or directory (os error 2) (it must be a bpvm executable; BPVM_JSONNET_WORKER names it)"
        );
    }
}
