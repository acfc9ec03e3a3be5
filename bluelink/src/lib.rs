//! Bluelink blueprints: a blueprint file validated as a whole, then
//! materialised with its substitutions resolved (`bpvm render BLUEPRINT`).
//!
//! ```no_run
//! use bpvm_bluelink::{load, render};
//! let bp = load::load(std::path::Path::new("blueprint.yaml"), "blueprint.yaml").unwrap();
//! let out = render::render(&bp, &render::Options::default()).unwrap();
//! print!("{}", bpvm_runtime::text::to_yaml(&out.document));
//! ```

#![warn(missing_docs)]

pub mod blueprint;
pub mod check;
mod distinct;
mod error;
pub mod explain;
pub mod filter;
pub mod inside;
mod key_table;
pub mod lang;
pub mod load;
pub mod node;
mod place;
mod reads;
pub mod render;
pub mod resolved;
pub mod sub;

pub use blueprint::Blueprint;
pub use error::{Error, Errors, Pos};
pub use load::SCHEMA;
