//! The worker's side: requests read from standard input, each file
//! evaluated by this process's engine, replies written to standard
//! output, until the input ends. The process limits itself first.

use super::{engine, frame};
use bpvm_runtime::root::{Root, inputs};
use jrsonnet_evaluator::Val;
use std::io;
use std::path::PathBuf;

/// The `bpvm` command that runs a worker: `bpvm jsonnet-worker
/// --memory-mib N` (hidden from the help).
pub const WORKER_COMMAND: &str = "jsonnet-worker";

/// The exit status of a worker whose heap reached its memory limit (the
/// `bpvm` executable's allocator exits with it).
pub const OUT_OF_MEMORY: i32 = 3;

/// Address space beyond the heap limit: the executable, thread stacks and
/// the allocator's reservations (an idle worker maps about 80 MiB). The
/// heap limit, counted by the allocator, is the one that binds.
const ADDRESS_SPACE_SLACK: u64 = 1 << 30;

/// Serves requests on standard input and output until the input ends,
/// limited to `memory` bytes of heap. The caller has already capped its
/// allocator at `memory` (so that reaching it ends the process with
/// [`OUT_OF_MEMORY`]); this adds the address space limit, no core dumps,
/// and death with the parent.
pub fn serve(memory: usize) -> io::Result<()> {
    limit_process(memory as u64);
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut last: Option<(PathBuf, Root)> = None;
    let mut context = Val::Null;
    while let Some(dir) = frame::read(&mut input, memory)? {
        let parts = (frame::read(&mut input, memory)?, frame::read(&mut input, 32)?);
        let (Some(file), Some(cpu)) = parts else { break };
        let scope = frame::read(&mut input, memory)?.unwrap_or_default();
        // `SECONDS` or `SECONDS track`: the caller tracks what is read.
        let cpu = String::from_utf8_lossy(&cpu).into_owned();
        let (seconds, track) = cpu.split_once(' ').unwrap_or((&cpu, ""));
        limit_cpu(seconds.parse().unwrap_or(1));
        let dir = path(dir);
        let root = match last.take() {
            Some((d, r)) if d == dir => Ok(r),
            _ => Root::new(&dir, "project").map_err(|e| format!("the project cannot be opened: {e}")),
        };
        if !scope.is_empty() {
            context = engine::context_from_json(&scope).unwrap_or(Val::Null);
        }
        let read = inputs::Recorder::new();
        let result = root.as_ref().map_err(Clone::clone).and_then(|root| {
            let evaluate = || engine::evaluate(root, &path(file), context.clone());
            let v = if track == "track" {
                inputs::track(&read, evaluate)
            } else {
                evaluate()
            };
            engine::collect_garbage();
            v
        });
        let read = read.inputs().encode();
        match result {
            Ok(v) => frame::write(&mut output, &[b"ok", v.to_json().as_bytes(), &read])?,
            Err(e) => frame::write(&mut output, &[b"error", e.as_bytes(), &read])?,
        }
        last = root.ok().map(|r| (dir, r));
    }
    Ok(())
}

fn path(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

/// Caps the address space, turns off core dumps, and asks the kernel to
/// kill this process when its parent dies (a worker never outlives bpvm).
fn limit_process(memory: u64) {
    set(
        libc::RLIMIT_AS,
        memory.saturating_add(ADDRESS_SPACE_SLACK),
        libc::RLIM_INFINITY,
    );
    set(libc::RLIMIT_CORE, 0, 0);
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and
    // touches no memory.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
}

/// Lets the next evaluation use `seconds` more CPU time: past it the
/// kernel stops the process with SIGXCPU (the wall-clock deadline, which
/// the parent keeps, usually comes first).
fn limit_cpu(seconds: u64) {
    // SAFETY: getrusage fills the struct it is given.
    let used = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) as u64 + 1
    };
    // The hard limit stays unlimited: a lowered one could not be raised
    // for the next request.
    set(libc::RLIMIT_CPU, used.saturating_add(seconds), libc::RLIM_INFINITY);
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type Resource = libc::c_int;

fn set(resource: Resource, soft: u64, hard: u64) {
    let limit = libc::rlimit {
        rlim_cur: soft as libc::rlim_t,
        rlim_max: hard as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct it is given. A limit that cannot
    // be set leaves the heap cap, which binds first, in force.
    unsafe {
        libc::setrlimit(resource, &limit);
    }
}
