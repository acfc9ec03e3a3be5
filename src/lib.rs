//! bpvm: blueprint expressions compiled once to bytecode and run on a tight VM.
//!
//! The phases are separate crates, re-exported here:
//! [`compiler`] (source → tokens → syntax tree → bytecode),
//! [`vm`] (the instruction set and the dispatch loop) and
//! [`runtime`] (values, environments, builtin functions).
//!
//! ```
//! use bpvm::{Compiler, Dialect, Environment, Vm};
//! let env = Environment::from_yaml("provider: aws\ncluster: {enabled: true}").unwrap();
//! let prog = Compiler::new(Dialect::Windsor).compile("provider == 'aws' && cluster.enabled == true").unwrap();
//! let mut vm = Vm::new();
//! assert_eq!(bpvm::eval(&mut vm, &prog, &env).unwrap(), bpvm::Value::Bool(true));
//! ```

pub use bpvm_compiler as compiler;
pub use bpvm_runtime as runtime;
pub use bpvm_vm as vm;

pub use bpvm_compiler::{Compiler, Dialect};
pub use bpvm_runtime::{Diagnostic, Environment, Val, Value};
pub use bpvm_vm::{Program, Vm, disassemble};

pub mod bluelink;
mod problems;
pub mod windsor;

pub use problems::Problems;

/// Runs `prog` and copies the result out of the VM, describing a failure
/// against the program's source.
pub fn eval(vm: &mut Vm, prog: &Program, env: &Environment) -> Result<Value, Diagnostic> {
    eval_with(vm, prog, env, &())
}

/// [`eval`], handing `host` to the functions that need it (Bluelink's
/// [`runtime::builtins::effects::Effects`], a renderer's files).
pub fn eval_with(
    vm: &mut Vm,
    prog: &Program,
    env: &Environment,
    host: &dyn std::any::Any,
) -> Result<Value, Diagnostic> {
    match vm.run_with(prog, env, host) {
        Ok(v) => Ok(v.to_value()),
        Err(e) => Err(prog.diagnose(&e)),
    }
}

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
