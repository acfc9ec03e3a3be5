//! Evaluating a program against an environment, on this thread's VM.
//!
//! Each thread keeps one [`Vm`] (its stack and arena are reused from one
//! evaluation to the next), so a program and an environment may be shared
//! by any number of threads.

use crate::env::bpvm_env;
use crate::guard::status;
use crate::program::bpvm_program;
use crate::strings::{need_out, set_out};
use bpvm::runtime::Val;
use bpvm::runtime::builtins::effects::Effects;
use bpvm::runtime::root::Root;
use bpvm::{Environment, Program, Vm};
use std::cell::RefCell;
use std::os::raw::{c_char, c_int};
use std::path::PathBuf;

thread_local! {
    static VM: RefCell<Vm> = RefCell::new(Vm::new());
    /// The current folder as `getcwd` named it at the last call, and its
    /// root: making a root resolves the path, which cost more than the
    /// evaluation, so it is made again only when the folder changes.
    static HERE: RefCell<Option<(PathBuf, Option<Root>)>> = const { RefCell::new(None) };
}

/// Runs `work` with this thread's VM. A VM left by a panic is replaced,
/// so the next evaluation starts clean.
fn with_vm<T>(work: impl FnOnce(&mut Vm) -> T) -> T {
    /// Replaces the VM when dropped during a panic.
    struct Renew<'a>(&'a mut Vm);
    impl Drop for Renew<'_> {
        fn drop(&mut self) {
            if std::thread::panicking() {
                *self.0 = Vm::new();
            }
        }
    }
    VM.with(|cell| {
        let mut vm = cell.borrow_mut();
        let renew = Renew(&mut vm);
        work(renew.0)
    })
}

/// What `bpvm eval` gives Bluelink's effect functions without flags:
/// files read inside the current folder, links from the environment's
/// `links`.
fn effects(env: &Environment) -> Effects {
    Effects {
        root: current_root(),
        links: env.root().get("links").cloned().unwrap_or_default(),
        ..Effects::default()
    }
}

/// The process's current folder as a root (see `HERE`).
fn current_root() -> Option<Root> {
    let dir = std::env::current_dir().ok()?;
    HERE.with(|here| {
        let mut here = here.borrow_mut();
        match &*here {
            Some((known, root)) if *known == dir => root.clone(),
            _ => {
                let root = Root::new(&dir, "current folder").ok();
                *here = Some((dir, root.clone()));
                root
            }
        }
    })
}

/// The result as one line of JSON, exactly as `bpvm eval` prints it
/// (without the newline); an error as the CLI prints it.
pub fn to_json(program: &Program, env: &Environment) -> Result<String, String> {
    let fx = effects(env);
    with_vm(|vm| bpvm::eval_with(vm, program, env, &fx))
        .map(|v| v.to_json())
        .map_err(|d| format!("error: {d}"))
}

/// A condition's truth, as Windsor decides a `when:`: a bool is itself,
/// nil is false, anything else is an error. Runs without effect
/// functions' host and allocates nothing once the thread's VM is warm.
pub fn truth(program: &Program, env: &Environment) -> Result<bool, String> {
    // The answer leaves the VM's closure as a bare bool: returned inside a
    // `Result` it was written a byte at a time and read back whole, a
    // store-forwarding stall that cost a third of the call.
    let mut failure = None;
    let yes = with_vm(|vm| match vm.run(program, env) {
        Ok(Val::Bool(b)) => b,
        Ok(Val::Nil) => false,
        Ok(other) => {
            failure = Some(format!(
                "error: a condition must give a bool, got {}",
                other.type_name()
            ));
            false
        }
        Err(e) => {
            failure = Some(format!("error: {}", program.diagnose(&e)));
            false
        }
    });
    match failure {
        None => Ok(yes),
        Some(message) => Err(message),
    }
}

/// The program and environment behind the caller's pointers.
///
/// # Safety
/// Each pointer must be NULL or a live object from this library.
unsafe fn operands<'a>(p: *const bpvm_program, e: *const bpvm_env) -> Result<(&'a Program, &'a Environment), String> {
    if p.is_null() {
        return Err("error: program is NULL".into());
    }
    if e.is_null() {
        return Err("error: env is NULL".into());
    }
    // SAFETY: neither is NULL, and the caller promises both are live.
    Ok(unsafe { (&(*p).program, &(*e).env) })
}

/// Evaluates `p` against `e` and sets `*out_json` to the result as one
/// line of JSON (freed with `bpvm_string_free`), exactly as `bpvm eval`
/// prints it without flags (nil is `null`, bytes their UTF-8 text; no
/// trailing newline). Bluelink's effect functions behave as there:
/// `file()` reads inside the process's current folder, `link()` reads the
/// environment's `links`, `uuid()` and `datetime()` are not pinned, and
/// `http_resource()` may fetch from no host. Returns 0, or non-zero with
/// `*err` set.
///
/// # Safety
/// `p` and `e` must be NULL or live objects from this library; `out_json`
/// and `err` must be NULL or valid for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_eval_json(
    p: *const bpvm_program,
    e: *const bpvm_env,
    out_json: *mut *mut c_char,
    err: *mut *mut c_char,
) -> c_int {
    // SAFETY: the caller's promises about the pointers are passed on.
    unsafe {
        status(err, || {
            need_out(out_json, "out_json")?;
            let (program, env) = operands(p, e)?;
            set_out(out_json, "out_json", to_json(program, env)?)
        })
    }
}

/// Evaluates the condition `p` against `e` and sets `*out` to 1 or 0: a
/// bool is itself, nil is false (as Windsor decides a facet's or
/// component's `when:`), anything else is the error "a condition must give
/// a bool, got TYPE". Allocates nothing on success once the calling
/// thread has evaluated once. Conditions run without the host of
/// Bluelink's effect functions: `file()` has no folder to read from and
/// fails, `link()` sees no links, `http_resource()` may fetch from no host
/// (`uuid()` and `datetime()` work, unpinned); `bpvm_eval_json` has them.
/// Returns 0, or non-zero with `*err` set.
///
/// # Safety
/// `p` and `e` must be NULL or live objects from this library; `out`
/// must be NULL or valid for writing one int; `err` must be NULL or valid
/// for writing one pointer.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn bpvm_eval_bool(
    p: *const bpvm_program,
    e: *const bpvm_env,
    out: *mut c_int,
    err: *mut *mut c_char,
) -> c_int {
    // SAFETY: the caller's promises about the pointers are passed on.
    unsafe {
        status(err, || {
            need_out(out, "out")?;
            let (program, env) = operands(p, e)?;
            let yes = truth(program, env)?;
            *out = c_int::from(yes);
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::program::compile;

    #[test]
    fn json_and_truth() {
        let env = Environment::from_yaml("provider: aws\nn: 2").unwrap();
        let p = compile("windsor", "{'a': n * 2, 'b': provider}", false).unwrap();
        assert_eq!(to_json(&p, &env).unwrap(), r#"{"a":4,"b":"aws"}"#);
        let yes = compile("windsor", "provider == 'aws'", false).unwrap();
        assert_eq!(truth(&yes, &env), Ok(true));
        let nil = compile("windsor", "missing", false).unwrap();
        assert_eq!(truth(&nil, &env), Ok(false));
        let n = compile("windsor", "n", false).unwrap();
        assert_eq!(
            truth(&n, &env),
            Err("error: a condition must give a bool, got int".into())
        );
    }
}
