//! `bpvm_program`: an expression compiled once, evaluated many times.

use crate::guard::guard;
use crate::strings::text;
use bpvm::{Compiler, Dialect, Logic, Program};
use std::os::raw::{c_char, c_int};
use std::ptr;

/// A compiled expression or host string. Opaque to C; made by
/// [`bpvm_compile`], freed by [`bpvm_program_free`]. Immutable, so one
/// program may be evaluated by many threads at once.
#[allow(non_camel_case_types)]
pub struct bpvm_program {
    pub(crate) program: Program,
}

/// The compiler of the dialect named `name`: `windsor` by the seed facet
/// format's rules (as since the first release), `windsor-v0.9` by Windsor
/// v0.9's (expr-lang as Windsor runs it), `bluelink`.
fn compiler(name: &str) -> Result<Compiler, String> {
    match name {
        "windsor" => Ok(Compiler::new(Dialect::Windsor)),
        "windsor-v0.9" => Ok(Compiler::new(Dialect::Windsor).logic(Logic::ExprLang)),
        "bluelink" => Ok(Compiler::new(Dialect::Bluelink)),
        other => Err(format!(
            "error: unknown dialect {other:?}: expected \"windsor\", \"windsor-v0.9\" or \"bluelink\""
        )),
    }
}

/// Compiles `source`, as `bpvm eval` does: a host string with `${…}` parts
/// when `template` is set, else a bare expression. A compile error reads
/// as the CLI prints it (`error: ` and the diagnostic, with line:column and
/// a caret under the spot).
pub fn compile(dialect_name: &str, source: &str, template: bool) -> Result<Program, String> {
    let compiler = compiler(dialect_name)?;
    let program = if template {
        compiler.compile_template(source)
    } else {
        compiler.compile(source)
    };
    let mut program = program.map_err(|d| format!("error: {d}"))?;
    crate::paths::number(&mut program);
    Ok(program)
}

/// Compiles `source` in `dialect` — "windsor" (the seed facet format's
/// rules: nil counts as false in `&&`, `||`, `!` and `?:`), "windsor-v0.9"
/// (Windsor v0.9's: expr-lang as Windsor runs it, `true && missing` is
/// nil) or "bluelink" —: a host string
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
    fn an_unknown_dialect_names_those_there_are() {
        let e = compile("expr", "1", false).unwrap_err();
        assert_eq!(
            e,
            "error: unknown dialect \"expr\": expected \"windsor\", \"windsor-v0.9\" or \"bluelink\""
        );
    }

    #[test]
    fn windsor_by_the_seed_rules_or_by_v09s() {
        let env = bpvm::Environment::from_yaml("{}").unwrap();
        let run = |dialect: &str| {
            let program = compile(dialect, "true && missing", false).unwrap();
            bpvm::eval(&mut bpvm::Vm::new(), &program, &env).unwrap()
        };
        assert_eq!(run("windsor"), bpvm::Value::Bool(false));
        assert_eq!(run("windsor-v0.9"), bpvm::Value::Null);
    }

    #[test]
    fn a_template_and_a_bare_expression() {
        assert!(compile("windsor", "1 + 2", false).is_ok());
        assert!(compile("windsor", "a-${1 + 2}", true).is_ok());
        assert!(compile("bluelink", "${variables.x}", true).is_ok());
    }
}
