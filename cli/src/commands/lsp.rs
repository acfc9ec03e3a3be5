//! `bpvm lsp`: the language server, served on stdin and stdout by the
//! `bpvm-lsp` crate.

use crate::exit;
use std::process::ExitCode;

/// Serve the language server protocol on stdin and stdout, for editors
///
/// An editor starts `bpvm lsp` and talks to it over stdin and stdout.
/// Open Windsor facets, values.yaml, schema.yaml, windsor.yaml, test
/// files and Bluelink blueprints are checked as `bpvm check` checks
/// them (the bpvm.yaml configuration applied) each time edits pause,
/// their unsaved text in place of the files on disk, and every finding
/// is shown where it is, with a quick fix where a name was misspelt.
/// The command exits when the editor ends the session; 1 when the
/// connection breaks or the editor does not follow the protocol. See
/// docs/lsp.md for each editor's setup.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  { printf 'Content-Length: 58\\r\\n\\r\\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}'; \\
    printf 'Content-Length: 52\\r\\n\\r\\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}'; \\
    printf 'Content-Length: 44\\r\\n\\r\\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}'; \\
    printf 'Content-Length: 33\\r\\n\\r\\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}'; } | bpvm lsp

An editor starts it itself: docs/lsp.md has the setup for Neovim, VS Code
and Helix.")]
pub struct Args {}

pub fn run(_args: Args) -> ExitCode {
    exit::code(bpvm_lsp::serve().map_err(|e| format!("error: {e}")))
}
