//! `bpvm batch`: every Windsor context and Bluelink blueprint under some
//! folders rendered in one run, written, checked or tested; and
//! `bpvm batch merge-reports`, the shards' reports as one.
//!
//! `args` is the command line (a leaf); `render` runs the batch through
//! `output` (where each text goes) and `progress` (the bar), and
//! `results` prints what it gave; `merge` reads and merges reports.
//! None imports this file; they may import the crate's shared modules
//! (`args`, `paint`, `write`).

mod args;
mod merge;
mod output;
mod progress;
mod render;
mod results;

pub use args::Args;

use crate::exit;
use args::Action;
use std::process::ExitCode;

pub fn run(args: Args) -> ExitCode {
    match &args.action {
        Some(Action::MergeReports(merge)) => exit::passed(merge::merge(merge)),
        None => exit::passed(render::render(&args)),
    }
}
