//! `bpvm lsp` driven over stdio as an editor drives it: framed JSON-RPC
//! written to the child's stdin, its messages read with a bounded wait,
//! and what it answers compared with expected files (`expected/`, which
//! `BPVM_BLESS=1` rewrites from what the server gave).

mod client;
mod completion;
mod core;
mod diagnostics;
mod expected;
mod hover;
mod lifecycle;
mod navigate;
mod neovim;
mod session;
mod symbols;
