//! The global allocator: mimalloc, counting allocations so that `bpvm
//! bench` can report heap allocations per evaluation, and holding the
//! process to a memory limit: an allocation past it ends the process with
//! a one-line message naming the limit and [`VARIABLE`], and exit status
//! [`OUT_OF_MEMORY`] (never Rust's abort on a failed allocation).
//!
//! mimalloc rather than the system allocator because a render allocates
//! and frees many small values: with glibc's allocator a 1,000-resource
//! blueprint renders in about 19 ms, with mimalloc in about 11 ms.

use mimalloc::MiMalloc;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Two mimalloc options that keep a large render's peak memory near what
/// it uses. Measured rendering a blueprint of 10,000 resources: 116 MB
/// peak resident with mimalloc's defaults, 82 MB with these (the system
/// allocator's is 83 MB), and no slower.
/// - Freed memory is given back at once, not a second later: loading
///   frees the document as written while it builds the blueprint, and
///   with the delay the two are resident together.
/// - No transparent huge pages: a 2 MiB page is resident as a whole
///   however little of it is used.
#[cfg(target_os = "linux")]
extern "C" fn configure() {
    use libmimalloc_sys::{mi_option_set, mi_option_t};

    // `mi_option_allow_thp` (and `PURGE_DELAY`: `mi_option_purge_delay`)
    // in the `mi_option_t` of the mimalloc v3 that libmimalloc-sys 0.1.49
    // builds (pinned in Cargo.toml for these numbers: its bindings name
    // neither; `MIMALLOC_VERBOSE=1` lists the options as set).
    const ALLOW_THP: mi_option_t = 43;

    // SAFETY: an option may be set at any time, before or after mimalloc
    // starts.
    unsafe {
        mi_option_set(PURGE_DELAY, 0);
        mi_option_set(ALLOW_THP, 0);
    }
}

/// Keeps freed memory for reuse for a second instead of giving it back at
/// once, for a process that renders many targets one after another (a
/// batch worker: what one target frees, the next takes) or none (`bpvm
/// batch`'s parent). Given back at once, each target's memory was asked
/// for again, page by page: 60 ms of system time in a batch of 1,200
/// targets, 8 % of its wall time; and each free of the parent's threads
/// asked every core to drop the pages from its view, 8 % of a warm
/// batch (perf, 2026-11-28). A single render's peak is what the limit
/// holds it to either way.
#[cfg(target_os = "linux")]
pub fn keep_freed() {
    // SAFETY: an option may be set at any time; the delay is read at each
    // purge.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 1000) };
}

#[cfg(not(target_os = "linux"))]
pub fn keep_freed() {}

#[cfg(target_os = "linux")]
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Run before `main` and before mimalloc initialises its view of the OS
/// (which reads `allow_thp` once): set from `main`, the peak is 8 MB higher.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static CONFIGURE: extern "C" fn() = configure;

/// The environment variable that sets the process's memory limit, in MiB.
pub const VARIABLE: &str = "BPVM_MEMORY_LIMIT_MIB";

/// The memory limit unless [`VARIABLE`] sets another: 4 GiB.
pub const DEFAULT_MIB: usize = 4096;

/// The exit status of a process that reached its memory limit (a Jsonnet
/// worker's parent reads it so).
pub const OUT_OF_MEMORY: u8 = 3;

/// The limit in bytes.
static LIMIT: AtomicUsize = AtomicUsize::new(DEFAULT_MIB << 20);

/// Bytes the threads have taken against the limit: what is allocated,
/// plus each thread's unspent credit.
static HELD: AtomicUsize = AtomicUsize::new(0);

/// How much a thread takes from [`HELD`] at a time, so that most
/// allocations touch only the thread's own credit, not a shared counter
/// (which every allocation of a parallel batch would contend for). The
/// limit is thus exact to within two of these per thread.
const CHUNK: usize = 1 << 20;

/// Sets the limit from [`VARIABLE`]; an error when it is set to anything
/// but a whole number of MiB above zero.
pub fn limit_from_env() -> Result<(), String> {
    let Some(text) = std::env::var_os(VARIABLE) else {
        return Ok(());
    };
    let text = text.to_string_lossy();
    match text.trim().parse::<usize>() {
        Ok(mib) if mib > 0 => {
            set_limit(mib.saturating_mul(1 << 20));
            Ok(())
        }
        _ => Err(format!(
            "error: {VARIABLE} must be a whole number of MiB above 0 (the default is {DEFAULT_MIB}), not {text:?}"
        )),
    }
}

/// Holds the process to `bytes` of heap from now on.
pub fn set_limit(bytes: usize) {
    LIMIT.store(bytes, Ordering::Relaxed);
}

/// One thread's counts.
struct Counts {
    /// Allocations made, for `bpvm bench`.
    allocations: Cell<u64>,
    /// Bytes taken from [`HELD`] and not yet allocated.
    credit: Cell<usize>,
}

thread_local! {
    // Per thread: `bench` counts on the thread that evaluates, and one
    // shared counter would have every allocation of a parallel batch
    // contend for one cache line.
    static COUNTS: Counts = const { Counts { allocations: Cell::new(0), credit: Cell::new(0) } };
}

/// Counts an allocation of `n` bytes against the limit; ends the process
/// when it would pass it.
fn take(n: usize) {
    let counted = COUNTS.try_with(|c| {
        c.allocations.set(c.allocations.get() + 1);
        let credit = c.credit.get();
        if credit >= n {
            c.credit.set(credit - n);
        } else {
            let more = (n - credit).max(CHUNK);
            reserve(more, n);
            c.credit.set(credit + more - n);
        }
    });
    // After the thread's locals are gone (at its exit): straight to the
    // shared count.
    if counted.is_err() {
        reserve(n, n);
    }
}

/// Takes `more` bytes from what the limit leaves, for an allocation of
/// `n`.
fn reserve(more: usize, n: usize) {
    let held = HELD.fetch_add(more, Ordering::Relaxed).saturating_add(more);
    if held > LIMIT.load(Ordering::Relaxed) {
        refuse(n, false);
    }
}

/// Gives `n` freed bytes back: to the thread's credit, and what passes
/// two chunks to the shared count.
fn give(n: usize) {
    let kept = COUNTS.try_with(|c| {
        let credit = c.credit.get() + n;
        if credit > 2 * CHUNK {
            HELD.fetch_sub(credit - CHUNK, Ordering::Relaxed);
            c.credit.set(CHUNK);
        } else {
            c.credit.set(credit);
        }
    });
    if kept.is_err() {
        HELD.fetch_sub(n, Ordering::Relaxed);
    }
}

/// Ends the process: the limit (or the system) refused an allocation of
/// `n` bytes. Writes its message without allocating, and exits at once
/// (no destructors, which would allocate).
#[cold]
fn refuse(n: usize, system: bool) -> ! {
    static ENDING: AtomicBool = AtomicBool::new(false);
    if !ENDING.swap(true, Ordering::Relaxed) {
        let mut line = Line::default();
        let limit = LIMIT.load(Ordering::Relaxed) >> 20;
        let _ = if system {
            writeln!(
                line,
                "error: the system has no memory left for bpvm (an allocation of {n} bytes failed, under bpvm's own limit of {limit} MiB)"
            )
        } else {
            writeln!(
                line,
                "error: bpvm reached its memory limit of {limit} MiB (an allocation of {n} bytes would pass it; set {VARIABLE} to raise it)"
            )
        };
        // SAFETY: writes the bytes of a live buffer to standard error.
        unsafe {
            libc::write(2, line.bytes.as_ptr().cast(), line.len);
        }
    }
    // SAFETY: `_exit` ends the process without running anything else.
    unsafe { libc::_exit(i32::from(OUT_OF_MEMORY)) }
}

/// A message built on the stack: the allocator cannot allocate it.
struct Line {
    bytes: [u8; 320],
    len: usize,
}

impl Default for Line {
    fn default() -> Line {
        Line {
            bytes: [0; 320],
            len: 0,
        }
    }
}

impl std::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = (self.len + s.len()).min(self.bytes.len());
        self.bytes[self.len..end].copy_from_slice(&s.as_bytes()[..end - self.len]);
        self.len = end;
        Ok(())
    }
}

/// mimalloc, counting calls and bytes.
pub struct Counting;

/// `p`, or the end of the process when the system gave no memory.
fn given(p: *mut u8, n: usize) -> *mut u8 {
    if p.is_null() {
        refuse(n, true);
    }
    p
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        given(unsafe { MiMalloc.alloc(layout) }, layout.size())
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { MiMalloc.dealloc(ptr, layout) };
        give(layout.size());
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        take(layout.size());
        given(unsafe { MiMalloc.alloc_zeroed(layout) }, layout.size())
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        // Counted as an allocation either way, as `bench` always has.
        take(new_size.saturating_sub(old));
        let p = given(unsafe { MiMalloc.realloc(ptr, layout, new_size) }, new_size);
        if new_size < old {
            give(old - new_size);
        }
        p
    }
}

/// Allocations made so far by this thread.
pub fn allocations() -> u64 {
    COUNTS.try_with(|c| c.allocations.get()).unwrap_or(0)
}
