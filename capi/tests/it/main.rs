//! The C ABI's integration tests, in one binary (one link, and the CLI and
//! the C libraries built once for all of them). Two tests keep their own
//! binary, each saying why at its top: `current_folder.rs` changes the
//! process's current folder, `eval_bool_allocation.rs` installs a global
//! allocator.

#![deny(clippy::undocumented_unsafe_blocks)]

// What the tests run besides themselves: the CLI and the C libraries.
mod built;
// Strings in and out of the library.
mod c_strings;

mod abi;
mod c_program;
mod cli_parity;
mod header;
mod readme;
