//! `bpvm test --watch`: the cases run again each time a file they read is
//! saved.

use super::args::Args;
use crate::watch::{self, Changes, Reads, Session};
use bpvm::runtime::root::inputs::{self, Recorder};
use std::path::PathBuf;
use std::process::ExitCode;

/// Runs the cases, then again on each change to what they read, until
/// Ctrl-C.
pub fn watch(args: Args, once: fn(&Args) -> Result<bool, String>) -> ExitCode {
    let mut session = Testing {
        args,
        once,
        reads: Reads::default(),
    };
    session.run();
    let outputs: Vec<PathBuf> = session.args.report.iter().cloned().collect();
    watch::watch(&mut session, &outputs)
}

struct Testing {
    args: Args,
    /// One run of the cases, as without `--watch`.
    once: fn(&Args) -> Result<bool, String>,
    reads: Reads,
}

impl Testing {
    /// One run, its inputs tracked; its failures printed as without
    /// `--watch`.
    fn run(&mut self) {
        let recorder = Recorder::new();
        let result = inputs::track(&recorder, || (self.once)(&self.args));
        let mut reads = Reads::from_inputs(&recorder.inputs());
        if result.is_err() {
            // The project did not load, or its cases were not found: what
            // it read is not all a run reads, so any change in the
            // project's folder may mend it.
            reads.add_tree(&watch::resolved(&self.args.project));
        }
        self.reads = reads;
        let _ = crate::exit::passed(result);
    }
}

impl Session for Testing {
    fn reads(&self) -> Reads {
        self.reads.clone()
    }

    fn changed(&mut self, changes: &Changes) -> bool {
        if !changes.iter().any(|(path, entry)| self.reads.affected_by(path, *entry)) {
            return false;
        }
        watch::announce(changes, "testing again");
        self.run();
        true
    }
}
