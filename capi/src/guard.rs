//! The panic boundary: every exported function runs its body here, so a
//! panic becomes an error message instead of unwinding into C.

use crate::strings::{clear_err, set_err};
use std::any::Any;
use std::os::raw::{c_char, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Runs `body`, catching a panic. On success `*err` is set to NULL (when
/// `err` is not NULL); on failure it is set to the message (see
/// [`set_err`]) and `None` is returned.
///
/// # Safety
/// `err` must be NULL or valid for writing one pointer.
pub(crate) unsafe fn guard<T>(err: *mut *mut c_char, body: impl FnOnce() -> Result<T, String>) -> Option<T> {
    // SAFETY: the caller promises `err` is NULL or writable.
    unsafe { clear_err(err) };
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| Err(panic_message(&*payload)));
    match outcome {
        Ok(value) => Some(value),
        Err(message) => {
            // SAFETY: as above.
            unsafe { set_err(err, message) };
            None
        }
    }
}

/// [`guard`] for a function that returns a status: 0 on success, 1 on error.
///
/// # Safety
/// As [`guard`].
pub(crate) unsafe fn status(err: *mut *mut c_char, body: impl FnOnce() -> Result<(), String>) -> c_int {
    // SAFETY: the caller's promise about `err` is passed on.
    match unsafe { guard(err, body) } {
        Some(()) => 0,
        None => 1,
    }
}

/// "internal error: …" with the panic's message, when it has one.
fn panic_message(payload: &(dyn Any + Send)) -> String {
    let what = if let Some(s) = payload.downcast_ref::<&str>() {
        s
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.as_str()
    } else {
        "a panic without a message"
    };
    format!("internal error: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strings::take;
    use std::ptr;

    #[test]
    fn a_panic_becomes_an_internal_error() {
        let mut err = ptr::null_mut();
        // SAFETY: `err` is a local pointer, writable.
        let code = unsafe { status(&mut err, || panic!("boom")) };
        assert_eq!(code, 1);
        // SAFETY: `err` was set by `status` and is taken once.
        assert_eq!(unsafe { take(err) }, "internal error: boom");
    }

    #[test]
    fn success_clears_the_error() {
        let mut err = 7 as *mut c_char;
        // SAFETY: `err` is a local pointer, writable.
        assert_eq!(unsafe { status(&mut err, || Ok(())) }, 0);
        assert!(err.is_null());
    }
}
