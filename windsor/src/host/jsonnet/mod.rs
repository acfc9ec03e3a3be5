//! `jsonnet(path)`: a Jsonnet file evaluated with the calling scope as
//! `std.extVar("context")`.
//!
//! The Jsonnet engine cannot be interrupted, and it allocates as much as
//! a file asks, so where it can a render runs it in a worker process
//! ([`Runner::Worker`]): the `bpvm` executable's hidden `jsonnet-worker`
//! command, started once per thread and reused, whose heap is capped at
//! [`Limits::memory`] (and its address space and CPU time by
//! `setrlimit`), killed when the render's [`Limits::timeout`] passes and
//! started again by the next call. The worker reads imports itself
//! through the same [`Root`] rules (D8); its result comes back as JSON,
//! held to the memory budget of one evaluation as before.
//!
//! The `bpvm` command always uses a worker. A library host (the C ABI, a
//! Rust program) cannot start itself as `bpvm`: it names a `bpvm`
//! executable with [`set_runner`] or the environment variable
//! [`WORKER_VARIABLE`]; without one, Jsonnet runs in the host's own
//! thread ([`Runner::InProcess`]) with only its recursion and result-size
//! limits — no memory cap and no deadline, a known gap.

#[cfg(unix)]
mod client;
mod engine;
mod frame;
mod limits;
#[cfg(unix)]
mod worker;

pub use engine::{MAX_DEPTH, MAX_STACK, collect_garbage};
pub use limits::{
    DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT_SECONDS, Limits, MEMORY_VARIABLE, Runner, TIMEOUT_VARIABLE, WORKER_VARIABLE,
    runner, set_runner,
};
#[cfg(unix)]
pub use worker::{OUT_OF_MEMORY, WORKER_COMMAND, serve};

use bpvm_runtime::root::Root;
use bpvm_runtime::{Map, Value};
use jrsonnet_evaluator::Val;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The scope as the runner takes it: a Jsonnet value for this thread's
/// engine, JSON text for a worker.
#[derive(Clone)]
enum Scope {
    Value(Val),
    Json(String),
}

/// What a render's `jsonnet()` calls share: its limits and when it
/// started (its calls share one deadline), the scope they were last
/// called from, converted once, and the results of the files evaluated
/// against it.
#[derive(Clone)]
pub struct Calls {
    limits: Limits,
    started: Instant,
    scope: Option<(Map, Scope)>,
    results: Vec<(PathBuf, Value)>,
}

impl Default for Calls {
    fn default() -> Calls {
        Calls::new(Limits::default())
    }
}

impl std::fmt::Debug for Calls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Calls")
            .field("limits", &self.limits)
            .field("results", &self.results.len())
            .finish()
    }
}

impl Calls {
    /// The calls of a render starting now, under `limits`.
    pub fn new(limits: Limits) -> Calls {
        Calls {
            limits,
            started: Instant::now(),
            scope: None,
            results: Vec::new(),
        }
    }

    /// The result of the file at `path` (inside `root`) evaluated with
    /// `scope` as its context: evaluated once per scope and file.
    pub fn evaluate(&mut self, root: &Root, path: &Path, scope: &Map) -> Result<&Value, String> {
        let runner = runner();
        let fits = |s: &Scope| {
            matches!(
                (s, &runner),
                (Scope::Json(_), Runner::Worker(_)) | (Scope::Value(_), Runner::InProcess)
            )
        };
        if !self.scope.as_ref().is_some_and(|(m, s)| m == scope && fits(s)) {
            self.results.clear();
            self.scope = None;
            let converted = match runner {
                Runner::InProcess => Scope::Value(engine::context(scope)?),
                Runner::Worker(_) => Scope::Json(engine::context_json(scope)?),
            };
            self.scope = Some((scope.clone(), converted));
        }
        let i = match self.results.iter().position(|(p, _)| p == path) {
            Some(i) => i,
            None => {
                let v = self.run(&runner, root, path)?;
                self.results.push((path.to_path_buf(), v));
                self.results.len() - 1
            }
        };
        Ok(&self.results[i].1)
    }

    /// Evaluates the file at `path` against the converted scope.
    fn run(&self, runner: &Runner, root: &Root, path: &Path) -> Result<Value, String> {
        match (runner, self.scope.as_ref().map(|(_, s)| s)) {
            #[cfg(unix)]
            (Runner::Worker(exe), Some(Scope::Json(json))) => {
                let deadline = self.started + self.limits.timeout;
                client::evaluate(exe, &self.limits, deadline, root, path, json)
            }
            (_, Some(Scope::Value(v))) => engine::evaluate(root, path, v.clone()),
            _ => engine::evaluate(root, path, Val::Null),
        }
    }
}
