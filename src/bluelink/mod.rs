//! Bluelink blueprints: a blueprint file validated as a whole, then
//! materialised with its substitutions resolved (`bpvm render BLUEPRINT`).

pub mod blueprint;
mod error;
pub mod load;
pub mod node;
pub mod sub;

pub use blueprint::Blueprint;
pub use error::{Error, Errors, Pos};
