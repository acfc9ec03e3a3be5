//! `bpvm_eval_json` reads `file()` inside the process's current folder at
//! the time of the call, also when the folder changes between calls (the
//! root is kept per thread and made again when `getcwd` names another
//! folder).
//! Its own test binary: it changes the process's current folder, against
//! which every other test in the same process would then resolve paths.

#![deny(clippy::undocumented_unsafe_blocks)]

use bpvm_capi::{bpvm_compile, bpvm_env_free, bpvm_env_from_json, bpvm_eval_json, bpvm_program_free, bpvm_string_free};
use std::ffi::{CStr, CString};
use std::ptr;

/// `*p` as text, then freed.
///
/// # Safety
/// `p` is a string from the library, not freed before.
unsafe fn take(p: *mut std::os::raw::c_char) -> String {
    // SAFETY: as the caller promises.
    unsafe {
        let s = CStr::from_ptr(p).to_string_lossy().into_owned();
        bpvm_string_free(p);
        s
    }
}

#[test]
fn file_reads_where_the_process_is_now() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(a.path().join("name.txt"), "first").unwrap();
    std::fs::write(b.path().join("name.txt"), "second").unwrap();
    let (dialect, source, empty) = (
        CString::new("bluelink").unwrap(),
        CString::new("file(\"name.txt\")").unwrap(),
        CString::new("").unwrap(),
    );
    let mut err = ptr::null_mut();
    // SAFETY: valid strings and out pointers; every handle freed once.
    unsafe {
        let p = bpvm_compile(dialect.as_ptr(), source.as_ptr(), 0, &mut err);
        let e = bpvm_env_from_json(empty.as_ptr(), &mut err);
        assert!(!p.is_null() && !e.is_null());
        let mut read = |dir: &std::path::Path| {
            std::env::set_current_dir(dir).unwrap();
            let mut out = ptr::null_mut();
            assert_eq!(bpvm_eval_json(p, e, &mut out, &mut err), 0, "{}", take(err));
            take(out)
        };
        assert_eq!(read(a.path()), "\"first\"");
        assert_eq!(read(b.path()), "\"second\"");
        assert_eq!(read(a.path()), "\"first\"");
        bpvm_program_free(p);
        bpvm_env_free(e);
    }
}
