//! `bpvm_env`: the document an expression reads, parsed once.

use crate::guard::guard;
use crate::strings::text;
use bpvm::Environment;
use std::os::raw::c_char;
use std::ptr;

/// An environment: the mapping expressions read. Opaque to C; made by
/// [`bpvm_env_from_json`] or [`bpvm_env_from_yaml`], freed by
/// [`bpvm_env_free`]. Immutable, so one environment may be read by many
/// threads at once.
#[allow(non_camel_case_types)]
pub struct bpvm_env {
    pub(crate) env: Environment,
}

/// Parses `json` as `bpvm eval --env FILE.json` does.
pub fn from_json(json: &str) -> Result<Environment, String> {
    // As documented: no text at all is an empty environment (YAML's
    // empty document already is one).
    if json.trim().is_empty() {
        return Ok(bound(Environment::new()));
    }
    Environment::from_json(json)
        .map(bound)
        .map_err(|e| format!("error: {e}"))
}

/// Parses `yaml` as `bpvm eval --env FILE.yaml` does.
pub fn from_yaml(yaml: &str) -> Result<Environment, String> {
    Environment::from_yaml(yaml)
        .map(bound)
        .map_err(|e| format!("error: {e}"))
}

/// `env`, bound to the C ABI's path table (see `paths.rs`).
fn bound(mut env: Environment) -> Environment {
    crate::paths::bind(&mut env);
    env
}

/// Boxes what `parse` makes of `source`, or NULL with `*err` set.
///
/// # Safety
/// As [`bpvm_env_from_json`].
unsafe fn made(
    source: *const c_char,
    what: &str,
    err: *mut *mut c_char,
    parse: fn(&str) -> Result<Environment, String>,
) -> *mut bpvm_env {
    // SAFETY: the caller's promises about the pointers are passed on.
    let env = unsafe { guard(err, || parse(text(source, what)?)) };
    match env {
        Some(env) => Box::into_raw(Box::new(bpvm_env { env })),
        None => ptr::null_mut(),
    }
}

/// An environment from a JSON mapping (an empty text is an empty one).
/// Returns NULL with `*err` set when it is not JSON or not a mapping.
///
/// Speed: an environment reads the paths of programs compiled before it
/// was made from slots filled once, and the paths of later programs by
/// name (the same results, a lookup per read): compile first, then make
/// the environments, as a host compiles its templates and then makes
/// each context.
///
/// # Safety
/// `json` must be NULL or a NUL-terminated string; `err` must be NULL or
/// valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_env_from_json(json: *const c_char, err: *mut *mut c_char) -> *mut bpvm_env {
    // SAFETY: the caller's promises are passed on.
    unsafe { made(json, "json", err, from_json) }
}

/// An environment from a YAML mapping. Returns NULL with `*err` set when
/// it is not YAML or not a mapping.
///
/// # Safety
/// As [`bpvm_env_from_json`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_env_from_yaml(yaml: *const c_char, err: *mut *mut c_char) -> *mut bpvm_env {
    // SAFETY: the caller's promises are passed on.
    unsafe { made(yaml, "yaml", err, from_yaml) }
}

/// Frees an environment; NULL is ignored.
///
/// # Safety
/// `e` must be NULL or an environment from this library not freed before,
/// and no other thread may be using it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_env_free(e: *mut bpvm_env) {
    if !e.is_null() {
        // SAFETY: the caller promises it came from `Box::into_raw`, once.
        let env = unsafe { Box::from_raw(e) };
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(env)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_text_is_an_empty_environment() {
        for env in [from_json(""), from_json(" \n"), from_yaml("")] {
            assert_eq!(env.unwrap().root().len(), 0);
        }
    }

    #[test]
    fn json_and_yaml() {
        assert!(from_json(r#"{"a": 1}"#).is_ok());
        assert!(from_yaml("a: 1").is_ok());
        assert!(from_json("{").unwrap_err().starts_with("error: "));
        assert!(from_yaml("a: [").unwrap_err().starts_with("error: "));
    }
}
