//! How far an evaluation may go: nesting depths ([`limits`]), the depth
//! of a value built while evaluating ([`nesting`]) and the memory one
//! evaluation may use ([`budget`]). They keep any input from exhausting
//! the stack or the machine.
//!
//! `limits` is a leaf; `budget` and `nesting` import the value model.

pub mod budget;
pub mod limits;
pub mod nesting;
