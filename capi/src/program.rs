//! `bpvm_program`: an expression compiled once, evaluated many times.

use crate::guard::guard;
use crate::strings::text;
use bpvm::{Compiler, Dialect, Program};
use std::os::raw::{c_char, c_int};
use std::ptr;

/// A compiled expression or host string. Opaque to C; made by
/// [`bpvm_compile`], freed by [`bpvm_program_free`]. Immutable, so one
/// program may be evaluated by many threads at once.
#[allow(non_camel_case_types)]
pub struct bpvm_program {
    pub(crate) program: Program,
}

/// The dialect named `name`.
fn dialect(name: &str) -> Result<Dialect, String> {
    match name {
        "windsor" => Ok(Dialect::Windsor),
        "bluelink" => Ok(Dialect::Bluelink),
        other => Err(format!(
            "error: unknown dialect {other:?}: expected \"windsor\" or \"bluelink\""
        )),
    }
}

/// Compiles `source`, as `bpvm eval` does: a host string with `${…}` parts
/// when `template` is set, else a bare expression. A compile error reads
/// as the CLI prints it (`error: ` and the diagnostic, with line:column and
/// a caret under the spot).
pub fn compile(dialect_name: &str, source: &str, template: bool) -> Result<Program, String> {
    let compiler = Compiler::new(dialect(dialect_name)?);
    let program = if template {
        compiler.compile_template(source)
    } else {
        compiler.compile(source)
    };
    let mut program = program.map_err(|d| format!("error: {d}"))?;
    crate::paths::number(&mut program);
    Ok(program)
}

/// Compiles `source` in `dialect` ("windsor" or "bluelink"): a host string
/// with `${…}` parts when `template_mode` is non-zero, else a bare
/// expression. Returns the program, or NULL with `*err` set.
///
/// A source longer than 32 MiB (`BPVM_MAX_SOURCE_KIB` sets another limit,
/// in KiB) is an error, found before anything in proportion to its length
/// is allocated.
///
/// # Safety
/// `dialect` and `source` must be NULL or NUL-terminated strings; `err`
/// must be NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_compile(
    dialect: *const c_char,
    source: *const c_char,
    template_mode: c_int,
    err: *mut *mut c_char,
) -> *mut bpvm_program {
    // SAFETY: the caller's promises about the pointers are passed on.
    let made = unsafe {
        guard(err, || {
            let name = text(dialect, "dialect")?;
            let source = text(source, "source")?;
            compile(name, source, template_mode != 0)
        })
    };
    match made {
        Some(program) => Box::into_raw(Box::new(bpvm_program { program })),
        None => ptr::null_mut(),
    }
}

/// Frees a program from [`bpvm_compile`]; NULL is ignored.
///
/// # Safety
/// `p` must be NULL or a program from [`bpvm_compile`] not freed before,
/// and no other thread may be using it.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_program_free(p: *mut bpvm_program) {
    if !p.is_null() {
        // SAFETY: the caller promises it came from `Box::into_raw`, once.
        let program = unsafe { Box::from_raw(p) };
        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(program)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_dialect_names_the_two() {
        let e = compile("expr", "1", false).unwrap_err();
        assert_eq!(
            e,
            "error: unknown dialect \"expr\": expected \"windsor\" or \"bluelink\""
        );
    }

    #[test]
    fn a_template_and_a_bare_expression() {
        assert!(compile("windsor", "1 + 2", false).is_ok());
        assert!(compile("windsor", "a-${1 + 2}", true).is_ok());
        assert!(compile("bluelink", "${variables.x}", true).is_ok());
    }
}
