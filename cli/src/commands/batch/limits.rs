//! What bounds each target of `bpvm batch`: a wall-clock deadline kept by
//! the parent, and a memory limit on each worker process, each set by a
//! flag or an environment variable. A leaf of the command's folder.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::time::Duration;

/// The environment variable that sets the deadline (`--timeout` sets it
/// for the process and its workers).
pub const TIMEOUT_VARIABLE: &str = bpvm::runtime::govern::VARIABLE;
/// The default memory limit of a worker process, in MiB.
pub const MEMORY_LIMIT_MIB: u64 = 4096;
/// The environment variable that sets the memory limit when
/// `--memory-limit` does not.
pub const MEMORY_VARIABLE: &str = "BPVM_MEMORY_LIMIT_MIB";

/// How long after the deadline the parent stops a worker whose render
/// has not stopped itself.
const GRACE: Duration = Duration::from_secs(2);

/// The bounds of each target.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// How long one target (or the load of its template) may take.
    pub timeout: Duration,
    /// The seconds as given, for messages.
    pub timeout_seconds: f64,
    /// The address space of a worker process, in MiB.
    pub memory_mib: u64,
}

/// `--memory-limit`'s value: MiB, at least 64.
pub fn parse_mib(s: &str) -> Result<u64, String> {
    let mib: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number of MiB (like 4096)"))?;
    if !(64..=1 << 30).contains(&mib) {
        return Err(format!("{s:?}: expected MiB from 64 to 1073741824"));
    }
    Ok(mib)
}

impl Limits {
    /// The limits from the flags, else the environment, else the defaults.
    pub fn new(memory: Option<u64>) -> Result<Limits, String> {
        // A render stops itself at the deadline; the parent's own look,
        // a little later, catches what cannot (a worker that hangs).
        let timeout_seconds = bpvm::runtime::govern::timeout().as_secs_f64();
        let memory_mib = match memory {
            Some(m) => m,
            None => from_env(MEMORY_VARIABLE, parse_mib)?.unwrap_or(MEMORY_LIMIT_MIB),
        };
        Ok(Limits {
            timeout: Duration::from_secs_f64(timeout_seconds) + GRACE,
            timeout_seconds,
            memory_mib,
        })
    }

    /// Makes `command` start under the memory limit, and die with the
    /// thread that starts it (so a worker never outlives its batch).
    pub fn apply(&self, command: &mut Command) {
        let bytes = self.memory_mib.saturating_mul(1 << 20);
        // SAFETY: between fork and exec only async-signal-safe calls are
        // made (setrlimit, prctl), and nothing is allocated.
        unsafe {
            command.pre_exec(move || {
                let limit = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                    return Err(io::Error::last_os_error());
                }
                #[cfg(target_os = "linux")]
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }

    /// What the deadline is and how to raise it, for messages.
    pub fn deadline(&self) -> String {
        format!(
            "ran past the deadline of {} s (set --timeout SECONDS or {TIMEOUT_VARIABLE})",
            self.timeout_seconds
        )
    }

    /// What the memory limit is and how to raise it, for messages.
    pub fn memory(&self) -> String {
        format!(
            "over the memory limit of {} MiB (set --memory-limit MIB or {MEMORY_VARIABLE})",
            self.memory_mib
        )
    }
}

/// The environment variable `name`, parsed; `None` when unset or empty.
fn from_env<T>(name: &str, parse: fn(&str) -> Result<T, String>) -> Result<Option<T>, String> {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => parse(&v).map(Some).map_err(|e| format!("error: {name}: {e}")),
        Ok(_) | Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(format!("error: {name}: not UTF-8 text")),
    }
}
