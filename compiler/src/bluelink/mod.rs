//! The Bluelink dialect: the `${..}` substitution grammar of blueprint specification 2023-04-20.
//!
//! Here: the lexer and the parser. They import the shared syntax tree
//! (`ast`), tokens and the cursor over them; nothing of the code
//! generator.

pub mod lex;
pub mod parse;
