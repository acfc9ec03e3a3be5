//! Why a worker process ended in the middle of a job, in words: the
//! signal or exit status, and the line of its stderr that says most.
//! A leaf of the command's folder but for `limits`.

use super::limits::Limits;
use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;

/// The cause of a worker's death while it rendered, from how it ended
/// and the last lines it wrote to stderr.
pub fn cause(status: Option<ExitStatus>, stderr: &[String], limits: &Limits) -> String {
    let line = telling(stderr);
    let said = if line.is_empty() {
        String::new()
    } else {
        format!(": {line}")
    };
    // An allocation refused under the address-space limit ends the
    // worker with bpvm's out-of-memory status (its allocator says so), or
    // in abort with Rust's "memory allocation of N bytes failed".
    let out_of_memory = status.and_then(|s| s.code()) == Some(bpvm::windsor::jsonnet::OUT_OF_MEMORY);
    if out_of_memory
        || ["memory allocation of", "out of memory", "memory limit"]
            .iter()
            .any(|m| line.contains(m))
    {
        return format!("{}{said}", limits.memory());
    }
    match status {
        Some(s) if s.signal().is_some() => {
            let signal = s.signal().unwrap_or_default();
            let hint = if signal == libc::SIGKILL {
                " (killed from outside: perhaps the system ran out of memory)"
            } else {
                ""
            };
            format!("aborted by signal {}{hint}{said}", name(signal))
        }
        Some(s) => format!(
            "the worker process exited with status {} before it finished{said}",
            s.code().unwrap_or(-1)
        ),
        None => format!("the worker process could not be waited for{said}"),
    }
}

/// The line of `stderr` that says most: the one naming a known cause,
/// else the last one that is not a note.
fn telling(stderr: &[String]) -> String {
    let known = [
        "overflowed its stack",
        "memory allocation of",
        "out of memory",
        "memory limit",
        "panicked",
    ];
    let pick = stderr.iter().find(|l| known.iter().any(|k| l.contains(k))).or_else(|| {
        stderr
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty() && !l.starts_with("note:"))
    });
    pick.map(|l| l.trim().to_string()).unwrap_or_default()
}

/// A signal's name, as `kill -l` gives it.
fn name(signal: i32) -> String {
    let known = [
        (libc::SIGABRT, "SIGABRT"),
        (libc::SIGSEGV, "SIGSEGV"),
        (libc::SIGBUS, "SIGBUS"),
        (libc::SIGILL, "SIGILL"),
        (libc::SIGFPE, "SIGFPE"),
        (libc::SIGKILL, "SIGKILL"),
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGXCPU, "SIGXCPU"),
        (libc::SIGPIPE, "SIGPIPE"),
    ];
    known
        .iter()
        .find(|(n, _)| *n == signal)
        .map_or_else(|| format!("signal {signal}"), |(_, name)| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn limits() -> Limits {
        Limits {
            timeout: Duration::from_secs(1),
            timeout_seconds: 1.0,
            memory_mib: 256,
        }
    }

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_dead_worker_is_described_by_its_signal_and_its_telling_line() {
        let abort = Some(ExitStatus::from_raw(libc::SIGABRT));
        let overflow =
            lines("\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow, aborting\n");
        assert_eq!(
            cause(abort, &overflow, &limits()),
            "aborted by signal SIGABRT: thread 'main' has overflowed its stack"
        );
        let memory = lines("memory allocation of 1073741824 bytes failed");
        assert_eq!(
            cause(abort, &memory, &limits()),
            "over the memory limit of 256 MiB (set --memory-limit MIB or BPVM_MEMORY_LIMIT_MIB): memory allocation of 1073741824 bytes failed"
        );
        // bpvm's own allocator ends a process it cannot serve with status 3.
        assert_eq!(
            cause(Some(ExitStatus::from_raw(3 << 8)), &[], &limits()),
            "over the memory limit of 256 MiB (set --memory-limit MIB or BPVM_MEMORY_LIMIT_MIB)"
        );
        assert_eq!(
            cause(Some(ExitStatus::from_raw(7 << 8)), &[], &limits()),
            "the worker process exited with status 7 before it finished"
        );
    }
}
