//! The Windsor dialect: expr-lang as Windsor facets write it.

pub mod lex;
pub mod parse;
