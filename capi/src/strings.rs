//! C strings in and out: borrowing the caller's, handing over ours.
//!
//! Every string this library hands out is a `CString` turned into a raw
//! pointer; `bpvm_string_free` takes it back.

use std::ffi::{CStr, CString};
use std::os::raw::c_char;

/// The caller's NUL-terminated UTF-8 text; `what` names the argument in
/// the error when it is NULL or not UTF-8.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn text<'a>(p: *const c_char, what: &str) -> Result<&'a str, String> {
    if p.is_null() {
        return Err(format!("error: {what} is NULL"));
    }
    // SAFETY: not NULL, and the caller promises NUL termination and lifetime.
    let bytes = unsafe { CStr::from_ptr(p) };
    bytes
        .to_str()
        .map_err(|e| format!("error: {what} is not valid UTF-8: {e}"))
}

/// [`text`], where NULL means "not given".
///
/// # Safety
/// As [`text`].
pub(crate) unsafe fn optional_text<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>, String> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: the caller's promise is passed on.
    unsafe { text(p, what) }.map(Some)
}

/// `s` as a string the caller frees with `bpvm_string_free`.
pub(crate) fn hand_out(s: String) -> Result<*mut c_char, String> {
    CString::new(s)
        .map(CString::into_raw)
        .map_err(|_| "error: the result holds a NUL byte, which a C string cannot".to_string())
}

/// The error for an output pointer `what` that is NULL; checked before
/// any work is done, so that a call that cannot hand back its result does
/// nothing.
pub(crate) fn need_out<T>(out: *mut T, what: &str) -> Result<(), String> {
    if out.is_null() {
        return Err(format!("error: {what} is NULL"));
    }
    Ok(())
}

/// Stores `s` in `*out` (see [`hand_out`]); a NULL `out` is an error.
///
/// # Safety
/// `out` must be NULL or valid for writing one pointer.
pub(crate) unsafe fn set_out(out: *mut *mut c_char, what: &str, s: String) -> Result<(), String> {
    need_out(out, what)?;
    let p = hand_out(s)?;
    // SAFETY: not NULL, and the caller promises it is writable.
    unsafe { *out = p };
    Ok(())
}

/// Sets `*err` to NULL, when `err` is not NULL.
///
/// # Safety
/// `err` must be NULL or valid for writing one pointer.
pub(crate) unsafe fn clear_err(err: *mut *mut c_char) {
    if !err.is_null() {
        // SAFETY: not NULL, and the caller promises it is writable.
        unsafe { *err = std::ptr::null_mut() };
    }
}

/// Stores `message` in `*err`, when `err` is not NULL. A NUL byte inside
/// the message is replaced, so the message always arrives.
///
/// # Safety
/// `err` must be NULL or valid for writing one pointer.
pub(crate) unsafe fn set_err(err: *mut *mut c_char, message: String) {
    if err.is_null() {
        return;
    }
    let p = hand_out(message.replace('\0', "\\0")).unwrap_or(std::ptr::null_mut());
    // SAFETY: not NULL, and the caller promises it is writable.
    unsafe { *err = p };
}

/// Takes back a string made by [`hand_out`]; NULL is ignored.
///
/// # Safety
/// `s` must be NULL or a pointer from [`hand_out`] not freed before.
pub(crate) unsafe fn free(s: *mut c_char) {
    if !s.is_null() {
        // SAFETY: the caller promises it came from `CString::into_raw`, once.
        drop(unsafe { CString::from_raw(s) });
    }
}

/// A handed-out string's text, freeing it (for tests).
///
/// # Safety
/// As [`free`], and `s` must not be NULL.
#[cfg(test)]
pub(crate) unsafe fn take(s: *mut c_char) -> String {
    // SAFETY: the caller's promise is passed on.
    let owned = unsafe { CString::from_raw(s) };
    owned.into_string().expect("UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_and_bad_utf8_are_errors() {
        // SAFETY: NULL is allowed.
        let null = unsafe { text(std::ptr::null(), "source") };
        assert_eq!(null, Err("error: source is NULL".into()));
        let bad = b"\xff\0";
        // SAFETY: a NUL-terminated local buffer.
        let e = unsafe { text(bad.as_ptr().cast(), "source") }.unwrap_err();
        assert!(e.starts_with("error: source is not valid UTF-8"), "{e}");
    }

    #[test]
    fn a_string_goes_out_and_comes_back() {
        let p = hand_out("héllo".into()).unwrap();
        // SAFETY: just handed out.
        assert_eq!(unsafe { take(p) }, "héllo");
        assert!(hand_out("a\0b".into()).is_err());
    }
}
