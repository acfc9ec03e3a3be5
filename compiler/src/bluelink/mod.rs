//! The Bluelink dialect: the `${..}` substitution grammar of blueprint specification 2023-04-20.

pub mod lex;
pub mod parse;
