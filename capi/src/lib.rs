//! The C ABI of bpvm: compile an expression once, evaluate it many times
//! against environments, and render whole Windsor projects and Bluelink
//! blueprints, from C or any host that calls C.
//!
//! The header is `include/bpvm.h`. Every function:
//! - returns 0 (or a non-NULL object) on success, and non-zero (or NULL)
//!   on error with `*err` set to the message, as the `bpvm` CLI prints it,
//!   when `err` is not NULL (and to NULL on success);
//! - takes NULL where a value is required, and text that is not UTF-8, as
//!   errors;
//! - is safe to call from any thread, and turns a panic into the error
//!   "internal error: …" instead of unwinding into the caller.
//!
//! Strings handed out are freed with [`bpvm_string_free`], programs with
//! [`bpvm_program_free`], environments with [`bpvm_env_free`].

#![deny(missing_docs, clippy::undocumented_unsafe_blocks, clippy::missing_safety_doc)]

mod guard;
mod paths;
mod stack;
mod strings;

pub mod env;
pub mod eval;
pub mod options;
pub mod program;
pub mod render;

pub use env::{bpvm_env, bpvm_env_free, bpvm_env_from_json, bpvm_env_from_yaml};
pub use eval::{bpvm_eval_bool, bpvm_eval_json};
pub use program::{bpvm_compile, bpvm_program, bpvm_program_free};
pub use render::{bpvm_render_bluelink, bpvm_render_windsor};

use std::os::raw::c_char;

/// This library's version, NUL-terminated.
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The library's version, e.g. "0.1.0": a static string, never freed.
#[unsafe(no_mangle)]
pub extern "C" fn bpvm_version() -> *const c_char {
    VERSION.as_ptr().cast()
}

/// Frees a string this library handed out (a result or an error); NULL
/// is ignored.
///
/// # Safety
/// `s` must be NULL or a string from this library not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_string_free(s: *mut c_char) {
    // SAFETY: the caller's promise is passed on.
    unsafe { strings::free(s) }
}

/// Programs and environments are shared by threads as they are: both must
/// stay `Send + Sync` for the header's promise to hold.
const _: () = {
    const fn shared<T: Send + Sync>() {}
    shared::<program::bpvm_program>();
    shared::<env::bpvm_env>();
};
