//! The bpvm virtual machine: the instruction set ([`Op`]), compiled
//! programs ([`Program`]), the dispatch loop ([`Vm`]) and a disassembler.
//!
//! It knows nothing about source syntax, YAML or blueprints: it runs
//! bytecode over [`bpvm_runtime::Val`] values against an
//! [`bpvm_runtime::Environment`].
//!
//! ```
//! use bpvm_vm::{Op, Program, Vm};
//! use bpvm_runtime::{Environment, Val};
//! let prog = Program { code: vec![Op::True, Op::Not, Op::Return], ..Program::default() };
//! let env = Environment::new();
//! assert!(matches!(Vm::new().run(&prog, &env), Ok(Val::Bool(false))));
//! ```

#![warn(missing_docs)]

mod disasm;
mod error;
mod eval;
mod index;
mod op;
mod program;
pub mod reads;
mod vm;

pub use disasm::disassemble;
pub use error::{Fault, RunError};
pub use eval::{eval, eval_with};
pub use op::{Access, Loop, Op, Test, TextRule};
pub use program::{MAX_ALTERNATIVES, Path, Program, Seg, Site, UNBOUND, has_jumps, is_decision, max_depth};
pub use vm::Vm;
