//! A project's files read once each, to find where a YAML path is in them
//! (for messages, and for `explain`).

use bpvm_runtime::root::Root;

/// Files of a project, each read through its root the first time a path
/// in it is asked for.
pub(crate) struct Texts<'r> {
    root: &'r Root,
    /// By file: its document, or `None` when it could not be read.
    read: Vec<(String, Option<bpvm_runtime::locate::Located>)>,
}

impl<'r> Texts<'r> {
    pub(crate) fn new(root: &'r Root) -> Texts<'r> {
        Texts { root, read: Vec::new() }
    }

    /// The line and column of `path` in `file` (relative to the root).
    pub(crate) fn locate(&mut self, file: &str, path: &str) -> Option<(usize, usize)> {
        let i = match self.read.iter().position(|(f, _)| f == file) {
            Some(i) => i,
            None => {
                let doc = self
                    .root
                    .read_string(self.root.dir(), file)
                    .ok()
                    .and_then(|text| bpvm_runtime::locate::Located::new(&text));
                self.read.push((file.to_string(), doc));
                self.read.len() - 1
            }
        };
        self.read[i].1.as_ref()?.find(path)
    }
}
