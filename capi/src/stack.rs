//! Renders run on a thread of their own: a host may call from a thread
//! with a small stack (256 KiB is common for C and Go threads), and a
//! render's recursive walks are bounded by the nesting limits, not sized
//! for any thread. The thread's stack is reserved address space: only
//! what a render touches is ever backed by memory.

/// The stack a render runs on: ample for the deepest value a render
/// allows, in a debug build too.
const RENDER_STACK: usize = 64 << 20;

/// Runs `render` on a thread with [`RENDER_STACK`] of stack, governed as
/// one render from loading to output (its deadline and limits), and
/// gives its result; a panic inside comes back as a panic here, for the
/// caller's panic boundary to report.
///
/// The render owns what it needs: a scoped thread would make the calling
/// thread allocate a handle of its own that is never freed, which a host
/// checking for leaks would see.
pub(crate) fn on_render_stack<T: Send + 'static>(render: impl FnOnce() -> T + Send + 'static) -> T {
    let spawned = std::thread::Builder::new()
        .name("bpvm-render".into())
        .stack_size(RENDER_STACK)
        .spawn(|| bpvm::runtime::govern::govern(render));
    match spawned {
        Ok(handle) => handle
            .join()
            .unwrap_or_else(|payload| std::panic::resume_unwind(payload)),
        Err(e) => panic!("cannot start a thread to render on: {e}"),
    }
}
