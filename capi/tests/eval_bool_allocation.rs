//! `bpvm_eval_bool` allocates nothing once its thread's VM is warm.
//! Its own test binary: it installs a counting global allocator, which is
//! the whole process's, so every test beside it would run on it too.

#![deny(clippy::undocumented_unsafe_blocks)]

use bpvm_capi::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::CString;
use std::ptr;

/// The system allocator, counting this thread's allocations.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's layout is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: `p` came from `alloc` with this layout.
        unsafe { System.dealloc(p, layout) }
    }

    unsafe fn realloc(&self, p: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's pointer, layout and size are passed on.
        unsafe { System.realloc(p, layout, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_warm_condition_allocates_nothing() {
    let yaml = CString::new("provider: aws\ncluster: {enabled: true, nodes: [a, b]}\n").unwrap();
    let mut err = ptr::null_mut();
    // SAFETY: a NUL-terminated string and a writable `err`.
    let env = unsafe { bpvm_env_from_yaml(yaml.as_ptr(), &mut err) };
    assert!(!env.is_null());
    assert!(ALLOCATIONS.with(Cell::get) > 0, "the allocator counts");
    for source in [
        "provider == 'aws' && cluster.enabled",
        "len(cluster.nodes) > 1 && 'a' in cluster.nodes",
        "missing",
    ] {
        let (dialect, text) = (CString::new("windsor").unwrap(), CString::new(source).unwrap());
        // SAFETY: NUL-terminated strings and a writable `err`.
        let p = unsafe { bpvm_compile(dialect.as_ptr(), text.as_ptr(), 0, &mut err) };
        assert!(!p.is_null(), "{source}");
        let mut out = -1;
        // SAFETY: live objects and writable outputs; the first call warms the VM.
        assert_eq!(unsafe { bpvm_eval_bool(p, env, &mut out, &mut err) }, 0);
        let before = ALLOCATIONS.with(Cell::get);
        for _ in 0..100 {
            // SAFETY: as above.
            assert_eq!(unsafe { bpvm_eval_bool(p, env, &mut out, &mut err) }, 0);
        }
        assert_eq!(ALLOCATIONS.with(Cell::get) - before, 0, "{source} allocates");
        // SAFETY: made by the library, freed once.
        unsafe { bpvm_program_free(p) };
    }
    // SAFETY: made by the library, freed once.
    unsafe { bpvm_env_free(env) };
}
