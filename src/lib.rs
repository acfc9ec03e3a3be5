//! bpvm: blueprint expressions compiled once to bytecode and run on a tight VM.
//!
//! This crate is the front door. The engine's phases are separate crates,
//! re-exported here: [`compiler`] (source → tokens → syntax tree →
//! bytecode), [`vm`] (the instruction set and the dispatch loop) and
//! [`runtime`] (values, environments, builtin functions). Each blueprint
//! language is a crate of its own over that engine, re-exported as
//! [`windsor`] (facets composed per context) and [`bluelink`] (blueprints
//! with `${..}` substitutions); the two share nothing but the engine.
//! Features over both languages live here: [`batch`] finds every target
//! of a repository (Windsor contexts, Bluelink variable sets) and splits
//! them into shards; [`vcs`] reads git (the files a revision changed, a
//! revision's files without a checkout); [`diff`] renders every target
//! at a revision and in the work tree and says what changed.
//!
//! The four uses, each a program in `examples/` that CI runs:
//! `evaluate.rs` (compile once, bind, evaluate), `render_windsor.rs` (a
//! project loaded once, a context rendered), `render_bluelink.rs` (a
//! blueprint loaded once, rendered with two variable sets) and `batch.rs`
//! (every target under a folder found, sharded and rendered on all cores).
//!
//! Threads: a [`Program`], an [`Environment`], a [`PathTable`], a loaded
//! [`windsor::Project`] and a loaded [`bluelink::Blueprint`] are `Send +
//! Sync` — load and compile once, then share them by reference between
//! threads (an environment's bound slots are filled safely by any of
//! them). A [`Vm`] is one thread's: keep one per thread and reuse it.
//!
//! Errors: each phase returns its own (a [`Diagnostic`] for an
//! expression, [`windsor::Errors`], [`bluelink::Errors`]); a host that
//! wants one type converts them into an [`Error`], matches on the phase
//! and reads each problem's file, YAML path and line:column from
//! [`Error::problems`].
//!
//! ```
//! use bpvm::{Compiler, Dialect, Environment, Vm};
//! let env = Environment::from_yaml("provider: aws\ncluster: {enabled: true}").unwrap();
//! let prog = Compiler::new(Dialect::Windsor).compile("provider == 'aws' && cluster.enabled == true").unwrap();
//! let mut vm = Vm::new();
//! assert_eq!(bpvm::eval(&mut vm, &prog, &env).unwrap(), bpvm::Value::Bool(true));
//! ```

#![warn(missing_docs)]

pub mod batch;
pub mod check;
pub mod diff;
mod error;
pub mod graph;
pub mod schema;
pub mod vcs;

pub use bpvm_bluelink as bluelink;
pub use bpvm_checker as checker;
pub use bpvm_compiler as compiler;
pub use bpvm_runtime as runtime;
pub use bpvm_vm as vm;
pub use bpvm_windsor as windsor;

pub use bpvm_compiler::{Compiler, Dialect, Logic};
pub use bpvm_runtime::{Diagnostic, Environment, PathTable, Problems, Val, Value};
pub use bpvm_vm::{Program, Vm, disassemble, eval, eval_with};
pub use error::{Error, Problem};

/// The Rust examples of `docs/library.md`, compiled and run as doctests.
#[doc = include_str!("../docs/library.md")]
#[cfg(doctest)]
pub struct LibraryDocDoctests;
