//! `bpvm jsonnet-worker`, hidden: the process a render runs Jsonnet in
//! (see `bpvm::windsor::jsonnet`), started by bpvm itself, not by users.

use crate::alloc;
use bpvm::windsor::jsonnet;
use std::process::ExitCode;

/// Evaluate Jsonnet files for the bpvm process that started this one.
#[derive(clap::Args)]
pub struct Args {
    /// The most heap this process may use, in bytes.
    #[arg(long)]
    memory_bytes: usize,
}

/// Serves requests on standard input until it ends; the heap capped first,
/// so that reaching the cap ends the process with the status its parent
/// reads as "out of memory".
pub fn run(args: Args) -> ExitCode {
    alloc::set_limit(args.memory_bytes);
    match jsonnet::serve(args.memory_bytes) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}

// The status the allocator ends with is the one the worker's parent reads.
const _: () = assert!(alloc::OUT_OF_MEMORY as i32 == jsonnet::OUT_OF_MEMORY);
