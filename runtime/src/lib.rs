//! The bpvm runtime: the value model shared with YAML/JSON documents, the
//! [`Environment`] expressions read, operator semantics, the text rules for
//! values, and the builtin function libraries of both dialects.
//!
//! ```
//! use bpvm_runtime::{Environment, Value};
//! let env = Environment::from_yaml("provider: aws").unwrap();
//! assert_eq!(env.root().get("provider"), Some(&Value::from("aws")));
//! ```

#![warn(missing_docs)]

mod bounds;
pub mod builtins;
mod document;
mod env;
pub mod func;
pub mod key;
mod kind;
mod map;
pub mod ops;
mod report;
pub mod root;
pub mod shape;
mod slots;
pub mod text;
pub mod time;
mod val;
mod value;

pub use bounds::{budget, govern, limits, nesting, source, steps};
pub use document::Typing;
pub use document::events as yaml_events;
pub use env::Environment;
pub use func::{Builtin, Ctx, Failure, FnError, FuncVal, Library, NativeFn};
pub use key::{Key, hash_key};
pub use kind::{Kind, Vocabulary};
pub use map::{Hint, Map};
pub use report::diag::Diagnostic;
pub use report::problems::Problems;
pub use report::{excerpt, locate, scalar, suggest};
pub use slots::{PathTable, Scope};
pub use val::{ListRef, MapRef, Val};
pub use value::Value;
