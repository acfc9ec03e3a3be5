//! What bounds a render's Jsonnet evaluations, and where they run.

use std::path::PathBuf;
use std::sync::{OnceLock, RwLock};
use std::time::Duration;

/// The environment variable that sets Jsonnet's working memory, in MiB.
pub const MEMORY_VARIABLE: &str = "BPVM_JSONNET_MEMORY_MIB";

/// Jsonnet's working memory unless [`MEMORY_VARIABLE`] says otherwise:
/// 1 GiB, the memory budget of a render (four evaluations' worth).
pub const DEFAULT_MEMORY_MIB: usize = 1024;

/// The environment variable that sets a render's time limit, in seconds
/// (also `bpvm --timeout`).
pub const TIMEOUT_VARIABLE: &str = "BPVM_TIMEOUT_SECONDS";

/// A render's time limit unless [`TIMEOUT_VARIABLE`] says otherwise.
pub const DEFAULT_TIMEOUT_SECONDS: u64 = 120;

/// The environment variable naming a `bpvm` executable that a library
/// host's renders run Jsonnet in (see [`Runner`]).
pub const WORKER_VARIABLE: &str = "BPVM_JSONNET_WORKER";

/// The limits of one render's Jsonnet evaluations. Enforced only by a
/// worker ([`Runner::Worker`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// The most heap the worker may use, in bytes: past it the
    /// evaluation fails, naming [`MEMORY_VARIABLE`].
    pub memory: usize,
    /// How long a render's Jsonnet evaluations may run, together, from
    /// the render's start (wall clock): past it the worker is killed and
    /// the evaluation fails, naming `--timeout` and [`TIMEOUT_VARIABLE`].
    pub timeout: Duration,
}

impl Default for Limits {
    /// The limits the environment sets ([`MEMORY_VARIABLE`],
    /// [`TIMEOUT_VARIABLE`]), else the defaults; read once per process.
    fn default() -> Limits {
        static FROM_ENV: OnceLock<Limits> = OnceLock::new();
        FROM_ENV
            .get_or_init(|| Limits {
                memory: whole(MEMORY_VARIABLE)
                    .unwrap_or(DEFAULT_MEMORY_MIB as u64)
                    .saturating_mul(1 << 20) as usize,
                timeout: Duration::from_secs(whole(TIMEOUT_VARIABLE).unwrap_or(DEFAULT_TIMEOUT_SECONDS)),
            })
            .clone()
    }
}

/// The variable `name` as a positive whole number, when it is one.
fn whole(name: &str) -> Option<u64> {
    std::env::var(name).ok()?.trim().parse::<u64>().ok().filter(|&n| n > 0)
}

/// Where a render evaluates Jsonnet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Runner {
    /// On the rendering thread: neither memory nor time is limited
    /// (recursion depth and the result's size are), so a Jsonnet file
    /// can exhaust the host's memory or run for as long as it likes.
    InProcess,
    /// In worker processes of this `bpvm` executable (its hidden
    /// `jsonnet-worker` command), one per rendering thread, under
    /// [`Limits`].
    Worker(PathBuf),
}

static RUNNER: RwLock<Option<Runner>> = RwLock::new(None);

/// Sets where this process's renders run Jsonnet from now on.
pub fn set_runner(runner: Runner) {
    *RUNNER.write().unwrap_or_else(|e| e.into_inner()) = Some(runner);
}

/// Where renders run Jsonnet: what [`set_runner`] set, else a worker of
/// the executable [`WORKER_VARIABLE`] names, else [`Runner::InProcess`]
/// (also on systems other than Unix, where no worker is available).
pub fn runner() -> Runner {
    if !cfg!(unix) {
        return Runner::InProcess;
    }
    if let Some(r) = RUNNER.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
        return r.clone();
    }
    static FROM_ENV: OnceLock<Runner> = OnceLock::new();
    FROM_ENV
        .get_or_init(|| match std::env::var_os(WORKER_VARIABLE) {
            Some(exe) if !exe.is_empty() => Runner::Worker(PathBuf::from(exe)),
            _ => Runner::InProcess,
        })
        .clone()
}
