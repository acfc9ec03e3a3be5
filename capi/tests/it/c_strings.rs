//! Strings across the C ABI: Rust text as a C string, and a string the
//! library handed out read back and freed.

use bpvm_capi::bpvm_string_free;
use std::ffi::{CStr, CString, c_char};

/// `s` as a NUL-terminated C string.
pub fn c(s: &str) -> CString {
    CString::new(s).unwrap()
}

/// A handed-out string's text, freed.
pub fn take(s: *mut c_char) -> String {
    assert!(!s.is_null());
    // SAFETY: a NUL-terminated string from the library, read before it is freed.
    let text = unsafe { CStr::from_ptr(s) }.to_str().unwrap().to_string();
    // SAFETY: handed out by the library, freed once.
    unsafe { bpvm_string_free(s) };
    text
}
