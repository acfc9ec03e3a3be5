//! How far an evaluation may go: nesting depths ([`limits`]), the depth
//! of a value built while evaluating ([`nesting`]), the memory one
//! evaluation may use ([`budget`]), the work it may do ([`steps`]), and
//! what a whole render may use and how long it may run ([`govern`]).
//! They keep any input from exhausting the stack, the machine or the
//! clock. The length of a source to compile is bounded too ([`source`]).
//!
//! `limits`, `source`, `steps` and `govern` are leaves; `budget` and
//! `nesting` import the value model.

pub mod budget;
pub mod govern;
pub mod limits;
pub mod nesting;
pub mod source;
pub mod steps;
