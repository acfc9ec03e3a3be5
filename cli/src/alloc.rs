//! The global allocator: mimalloc, counting allocations so that `bpvm
//! bench` can report heap allocations per evaluation.
//!
//! mimalloc rather than the system allocator because a render allocates
//! and frees many small values: with glibc's allocator a 1,000-resource
//! blueprint renders in about 19 ms, with mimalloc in about 11 ms.

use mimalloc::MiMalloc;
use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;

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

    // `mi_option_purge_delay` and `mi_option_allow_thp` in the
    // `mi_option_t` of the mimalloc v3 that libmimalloc-sys 0.1.49 builds
    // (pinned in Cargo.toml for these numbers: its bindings name neither;
    // `MIMALLOC_VERBOSE=1` lists the options as set).
    const PURGE_DELAY: mi_option_t = 15;
    const ALLOW_THP: mi_option_t = 43;

    // SAFETY: an option may be set at any time, before or after mimalloc
    // starts.
    unsafe {
        mi_option_set(PURGE_DELAY, 0);
        mi_option_set(ALLOW_THP, 0);
    }
}

/// Run before `main` and before mimalloc initialises its view of the OS
/// (which reads `allow_thp` once): set from `main`, the peak is 8 MB higher.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static CONFIGURE: extern "C" fn() = configure;

/// mimalloc, counting calls.
pub struct Counting;

thread_local! {
    // Per thread: `bench` counts on the thread that evaluates, and one
    // shared counter would have every allocation of a parallel batch
    // contend for one cache line.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // After the thread's locals are gone (at its exit) nothing is counted.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { MiMalloc.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { MiMalloc.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { MiMalloc.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { MiMalloc.realloc(ptr, layout, new_size) }
    }
}

/// Allocations made so far by this thread.
pub fn allocations() -> u64 {
    ALLOCATIONS.try_with(Cell::get).unwrap_or(0)
}
