//! Whole renders, as `bpvm render` prints them on stdout.

pub mod bluelink;
pub mod windsor;

use crate::guard::status;
use crate::strings::{need_out, optional_text, set_out, text};
use std::os::raw::{c_char, c_int};

/// Renders `context` of the Windsor project in `project_dir` (NULL
/// `context`: the project's current context, as `bpvm render` without
/// `--context` chooses it — `.windsor/context`, else `WINDSOR_CONTEXT`,
/// else windsor.yaml's `context:`, else `local`) and sets `*out` to
/// the blueprint, exactly as `bpvm render --project DIR --context NAME`
/// prints it. `options_json` may be NULL. Returns 0, or non-zero with
/// `*err` set.
///
/// Jsonnet (`jsonnet()` in a facet): a host process cannot be restarted
/// as `bpvm`, so set the environment variable `BPVM_JSONNET_WORKER` to
/// the path of a `bpvm` executable (before the first render) and Jsonnet
/// runs in worker processes of it, under the same memory limit
/// (`BPVM_JSONNET_MEMORY_MIB`) and time limit (`BPVM_TIMEOUT_SECONDS`) as
/// `bpvm render`. Without it Jsonnet runs in the host's process, limited
/// only in recursion depth and result size: a Jsonnet file can then take
/// all the host's memory or run without end.
///
/// # Safety
/// The strings must be NULL or NUL-terminated; `out` and `err` must be
/// NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_render_windsor(
    project_dir: *const c_char,
    context: *const c_char,
    options_json: *const c_char,
    out: *mut *mut c_char,
    err: *mut *mut c_char,
) -> c_int {
    // SAFETY: the caller's promises about the pointers are passed on.
    unsafe {
        status(err, || {
            need_out(out, "out")?;
            let dir = text(project_dir, "project_dir")?;
            let context = optional_text(context, "context")?;
            let options = optional_text(options_json, "options_json")?;
            let (dir, context, options) = (
                dir.to_string(),
                context.map(str::to_string),
                options.map(str::to_string),
            );
            let rendered =
                crate::stack::on_render_stack(move || windsor::render(&dir, context.as_deref(), options.as_deref()))?;
            set_out(out, "out", rendered)
        })
    }
}

/// Validates and materialises the Bluelink blueprint at `blueprint_path`
/// and sets `*out` to it, exactly as `bpvm render BLUEPRINT` prints it.
/// `options_json` may be NULL. Returns 0, or non-zero with `*err` set.
///
/// # Safety
/// The strings must be NULL or NUL-terminated; `out` and `err` must be
/// NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_render_bluelink(
    blueprint_path: *const c_char,
    options_json: *const c_char,
    out: *mut *mut c_char,
    err: *mut *mut c_char,
) -> c_int {
    // SAFETY: the caller's promises about the pointers are passed on.
    unsafe {
        status(err, || {
            need_out(out, "out")?;
            let path = text(blueprint_path, "blueprint_path")?;
            let options = optional_text(options_json, "options_json")?;
            let (path, options) = (path.to_string(), options.map(str::to_string));
            let rendered = crate::stack::on_render_stack(move || bluelink::render(&path, options.as_deref()))?;
            set_out(out, "out", rendered)
        })
    }
}
