//! `bpvm render`: the blueprint of a Windsor context, or a Bluelink
//! blueprint materialised, printed or written to `--out`.
//!
//! `args` is the command line this folder reads; `windsor` and `bluelink`
//! render by it, each importing `args` and the crate's shared modules.

mod args;
mod bluelink;
mod windsor;

pub use args::Args;

use crate::args::NEEDS_BLUEPRINT;
use crate::{exit, load};
use std::process::ExitCode;

pub fn run(args: Args) -> ExitCode {
    match &args.blueprint {
        Some(blueprint) => exit::code(bluelink::render(blueprint, &args)),
        None if args.bluelink.any() => exit::usage(NEEDS_BLUEPRINT),
        None => exit::code(load::windsor::at_now(args.bluelink.now.as_deref(), || {
            windsor::render(&args)
        })),
    }
}
