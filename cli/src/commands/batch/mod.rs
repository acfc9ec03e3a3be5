//! `bpvm batch`: every Windsor context and Bluelink blueprint under some
//! folders rendered in one run, written, checked or tested; and
//! `bpvm batch merge-reports`, the shards' reports as one.
//!
//! `args` is the command line (a leaf, with `limits`: the deadline and
//! memory limit); `select` chooses the targets that run here (`timings`
//! balancing the shards, `affected` keeping what a change affects);
//! `render` runs the batch through `pool` (worker processes, each a `process`, that run `worker` — the hidden `bpvm
//! batch-worker` — and speak `wire`; `crash` says why one died),
//! `guard` (nothing read is written over), `output` (where each text
//! goes) and `progress` (the bar), and `results` prints what it gave;
//! `merge` reads and merges reports; `watching` renders again what a
//! saved file affects (`--watch`).
//! None imports this file; they may import the crate's shared modules
//! (`args`, `paint`, `write`).

mod args;
mod crash;
mod guard;
mod limits;
mod merge;
mod output;
mod pool;
mod process;
mod progress;
mod render;
mod results;
mod select;
mod watching;
mod wire;
mod worker;

pub use args::Args;
pub use worker::{WorkerArgs, work};

use crate::exit;
use args::Action;
use std::process::ExitCode;

pub fn run(args: Args) -> ExitCode {
    match &args.action {
        Some(Action::MergeReports(merge)) => exit::passed(merge::merge(merge)),
        None if args.watch => watching::watch(&args),
        None => {
            crate::alloc::keep_freed();
            exit::passed(render::render(&args))
        }
    }
}
