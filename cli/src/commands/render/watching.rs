//! `bpvm render --watch`: the render run again each time a file it read
//! is saved.

use super::args::Args;
use crate::watch::{self, Changes, Reads, Session};
use bpvm::runtime::root::inputs::{self, Recorder};
use std::path::PathBuf;
use std::process::ExitCode;

/// Renders, then renders again on each change to what it read, until
/// Ctrl-C.
pub fn watch(args: Args, once: fn(&Args) -> Result<(), String>) -> ExitCode {
    let mut session = Rendering {
        args,
        once,
        reads: Reads::default(),
    };
    session.run();
    let outputs: Vec<PathBuf> = session.args.out.iter().cloned().collect();
    watch::watch(&mut session, &outputs)
}

struct Rendering {
    args: Args,
    /// One render, as without `--watch`.
    once: fn(&Args) -> Result<(), String>,
    reads: Reads,
}

impl Rendering {
    /// One render, its inputs tracked; its error printed as without
    /// `--watch`.
    fn run(&mut self) {
        let recorder = Recorder::new();
        let result = inputs::track(&recorder, || (self.once)(&self.args));
        let mut reads = Reads::from_inputs(&recorder.inputs());
        // Files the flags name are read directly, not through a root.
        let flags = &self.args.bluelink;
        let named = [
            &self.args.blueprint,
            &flags.vars_file,
            &flags.datasources,
            &flags.resource_state,
            &self.args.terraform_outputs,
        ];
        for file in named.into_iter().flatten() {
            reads.add_file(&watch::resolved(file));
        }
        if result.is_err() {
            // What a render that failed early read is not all it would
            // read: any change in its folder may mend it.
            reads.add_tree(&self.folder());
        }
        self.reads = reads;
        let _ = crate::exit::code(result);
    }

    /// The Windsor project's folder, or the Bluelink blueprint's.
    fn folder(&self) -> PathBuf {
        match &self.args.blueprint {
            Some(file) => {
                let file = watch::resolved(file);
                file.parent().map_or(file.clone(), |p| p.to_path_buf())
            }
            None => watch::resolved(&self.args.windsor.project),
        }
    }
}

impl Session for Rendering {
    fn reads(&self) -> Reads {
        self.reads.clone()
    }

    fn changed(&mut self, changes: &Changes) -> bool {
        if !changes.iter().any(|(path, entry)| self.reads.affected_by(path, *entry)) {
            return false;
        }
        watch::announce(changes, "rendering again");
        self.run();
        true
    }
}
