//! `bpvm render`: the blueprint of a Windsor context, or a Bluelink
//! blueprint materialised, printed or written to `--out`.
//!
//! `args` is the command line this folder reads; `windsor` and `bluelink`
//! render by it, each importing `args` and the crate's shared modules;
//! `watching` renders again on each saved input (`--watch`).

mod args;
mod bluelink;
mod watching;
mod windsor;

pub use args::Args;

use crate::args::NEEDS_BLUEPRINT;
use crate::{exit, load};
use bpvm::runtime::govern::govern;
use std::process::ExitCode;

pub fn run(args: Args) -> ExitCode {
    if args.blueprint.is_none() && args.bluelink.any() {
        return exit::usage(NEEDS_BLUEPRINT);
    }
    if args.watch {
        return watching::watch(args, once);
    }
    exit::code(once(&args))
}

/// One render, governed as one from loading to output.
fn once(args: &Args) -> Result<(), String> {
    govern(|| match &args.blueprint {
        Some(blueprint) => bluelink::render(blueprint, args),
        None => load::windsor::at_now(args.bluelink.now.as_deref(), || windsor::render(args)),
    })
}
