//! `when:` conditions: compiled once, and read as a bool by the seed
//! rules (`truth`) or by Windsor v0.9's (`holds`).

use crate::host::compiler_for;
use crate::template::tmpl::{Evaluator, Outcome};
use bpvm_runtime::Value;
use bpvm_vm::Program;

/// A `when:` condition, compiled.
#[derive(Debug, Clone)]
pub struct Cond {
    /// As written.
    pub src: String,
    /// The compiled expression (a template when it has `${…}`).
    pub prog: Program,
}

/// Compiles a condition: bare expr-lang, or a template when it has `${`.
pub fn condition(src: &str, v09: bool) -> Result<Cond, bpvm_runtime::Diagnostic> {
    let c = compiler_for(v09);
    let mut prog = if src.contains("${") {
        c.compile_template(src)?
    } else {
        c.compile(src)?
    };
    crate::template::numbering::number(&mut prog);
    Ok(Cond {
        src: src.to_string(),
        prog,
    })
}

/// A condition's value: nil is false, a bool is itself, anything else is
/// an error (W8).
pub(crate) fn truth(ev: &mut Evaluator, c: &Cond) -> Result<bool, crate::Why> {
    match ev.run(&c.prog) {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(Value::Null) => Ok(false),
        Ok(other) => Err(format!(
            "a condition must give a bool, got {} (from `{}`)",
            other.type_name(),
            c.src
        )
        .into()),
        // A deferred value decides nothing yet: not included.
        Err(Outcome::Deferred) => Ok(false),
        Err(Outcome::Failed(d)) => Err(d.into()),
    }
}

/// A condition's value, as Windsor v0.9 reads it: nil is false, a bool is
/// itself, the text `true` is true and any other text false; anything
/// else is an error.
pub fn holds(ev: &mut Evaluator, c: &Cond) -> Result<bool, crate::Why> {
    match ev.run(&c.prog) {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(Value::Null) => Ok(false),
        Ok(Value::Str(s)) => Ok(&*s == "true"),
        Ok(other) => Err(format!(
            "a condition must give a bool, got {} (from `{}`)",
            other.type_name(),
            c.src
        )
        .into()),
        Err(Outcome::Deferred) => {
            Err(format!("a condition cannot wait for a deferred value (from `{}`)", c.src).into())
        }
        Err(Outcome::Failed(d)) => Err(d.into()),
    }
}
