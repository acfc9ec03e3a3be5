//! Running a program to a document value: what a host wants when it does
//! not keep the VM's borrowed result.

use crate::{Program, Vm};
use bpvm_runtime::{Diagnostic, Environment, Value};

/// Runs `prog` and copies the result out of the VM, describing a failure
/// against the program's source.
///
/// ```
/// use bpvm_vm::{Op, Program, Vm, eval};
/// use bpvm_runtime::{Environment, Value};
/// let prog = Program { code: vec![Op::True, Op::Return], ..Program::default() };
/// assert_eq!(eval(&mut Vm::new(), &prog, &Environment::new()).unwrap(), Value::Bool(true));
/// ```
pub fn eval(vm: &mut Vm, prog: &Program, env: &Environment) -> Result<Value, Diagnostic> {
    eval_with(vm, prog, env, &())
}

/// [`eval`], handing `host` to the functions that need it (Bluelink's
/// `Effects`, a renderer's files).
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
