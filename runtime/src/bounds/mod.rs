//! How far an evaluation may go: nesting depths ([`limits`]), the depth
//! of a value built while evaluating ([`nesting`]) and the memory one
//! evaluation may use ([`budget`]). They keep any input from exhausting
//! the stack or the machine. The length of a source to compile is
//! bounded too ([`source`]).
//!
//! `limits` and `source` are leaves; `budget` and `nesting` import the value model.

pub mod budget;
pub mod limits;
pub mod nesting;
pub mod source;
