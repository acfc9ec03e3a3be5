//! What a run read, as `--watch` needs it: which changed paths affect it
//! (judged by the library's rule, [`Depends`], as `bpvm batch
//! --affected-by` judges a revision's changes), and which folders to
//! watch for them. A leaf.

use bpvm::batch::{Depends, Read};
use bpvm::runtime::root::inputs::Inputs;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What one run (a render, a test run, a batch target) read, by absolute
/// path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reads(Depends);

impl Reads {
    /// What a tracked run read (its environment variables aside: a change
    /// to them is not a saved file).
    pub fn from_inputs(inputs: &Inputs) -> Reads {
        Reads(Depends::from_inputs(inputs))
    }

    /// What a batch target's manifest lists, its paths relative to `base`
    /// (the target's base, with links resolved, as manifests are made).
    pub fn from_manifest(read: &Read, base: &Path) -> Reads {
        Reads(Depends::from_manifest(read, base))
    }

    /// Counts any change under `folder` (the folder of a template that
    /// failed to load: what it read is not known).
    pub fn add_tree(&mut self, folder: &Path) {
        self.0.add_within(folder);
    }

    /// Counts `file` as read (a file named on the command line, read
    /// without a root).
    pub fn add_file(&mut self, file: &Path) {
        self.0.add_read(file);
    }

    /// Counts `folder` as listed: an entry created in it or removed is a
    /// change.
    pub fn add_listed(&mut self, folder: &Path) {
        self.0.add_listed(folder);
    }

    /// Adds what `other` read.
    pub fn extend(&mut self, other: &Reads) {
        self.0.extend(&other.0);
    }

    /// Whether a change at `path` can change what the run gives;
    /// `entry`: it was created, removed or renamed.
    pub fn affected_by(&self, path: &Path, entry: bool) -> bool {
        self.0.affected_by(path, entry).is_some()
    }

    /// How many paths a change at which is seen: files read or looked at.
    pub fn file_count(&self) -> usize {
        self.0.files().count()
    }

    /// The folders to watch, each with whether its whole tree is watched:
    /// each folder listed and each tree, and the folder of each file. A
    /// folder that does not exist (yet) is watched through its nearest
    /// existing ancestor, where its creation shows.
    pub fn folders(&self) -> Vec<(PathBuf, bool)> {
        let mut flat: BTreeSet<PathBuf> = BTreeSet::new();
        let files: Vec<PathBuf> = self.0.files().collect();
        let parents = files.iter().filter_map(|f| f.parent()).map(Path::to_path_buf);
        for folder in self.0.folders().chain(parents) {
            flat.insert(existing(&folder));
        }
        let mut trees = BTreeSet::new();
        for tree in self.0.within() {
            if tree.is_dir() {
                trees.insert(tree);
            } else {
                flat.insert(existing(&tree));
            }
        }
        // A folder inside a watched tree is watched already.
        flat.retain(|f| !trees.iter().any(|t| f.starts_with(t)));
        let flat = flat.into_iter().map(|f| (f, false));
        flat.chain(trees.into_iter().map(|t| (t, true))).collect()
    }
}

/// `folder`, or its nearest ancestor that is a folder.
fn existing(folder: &Path) -> PathBuf {
    folder.ancestors().find(|a| a.is_dir()).unwrap_or(folder).to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm::runtime::root::inputs::Seen;

    fn reads() -> Reads {
        let mut inputs = Inputs::default();
        for file in [
            "/p/windsor.yaml",
            "/p/contexts/dev/values.yaml",
            "/p/contexts/dev/blueprint.yaml",
        ] {
            inputs.files.insert(file.into(), Seen::File([0; 32]));
        }
        for folder in ["/p/contexts", "/p/contexts/_template/facets"] {
            inputs.files.insert(folder.into(), Seen::Folder([0; 32]));
        }
        let mut reads = Reads::from_inputs(&inputs);
        reads.add_tree(Path::new("/q"));
        reads
    }

    #[test]
    fn a_change_affects_a_run_that_read_it_or_listed_its_folder() {
        // (path, created/removed/renamed, affected)
        let table = [
            ("/p/windsor.yaml", false, true),
            ("/p/contexts/dev/values.yaml", true, true),
            ("/p/contexts/dev/blueprint.yaml", true, true),
            ("/p/contexts/prod", true, true),
            ("/p/contexts/_template/facets/new.yaml", true, true),
            ("/p/contexts/_template/facets/old.yaml", false, false),
            ("/p/README.md", true, false),
            ("/p/contexts/dev/notes.txt", true, false),
            ("/q/deep/inside/anything", false, true),
            ("/qq", true, false),
        ];
        let r = reads();
        for (path, entry, affected) in table {
            assert_eq!(r.affected_by(Path::new(path), entry), affected, "{path} {entry}");
        }
    }

    #[test]
    fn renaming_a_folder_on_the_way_to_a_file_read_affects_the_run() {
        // Only the folder's own event may arrive (its parent is watched for
        // the blueprint beside it, and lists nothing): the file read moved.
        let mut inputs = Inputs::default();
        inputs.files.insert("/r/blueprint.yaml".into(), Seen::File([0; 32]));
        inputs.files.insert("/r/parts/queue.yaml".into(), Seen::File([0; 32]));
        let r = Reads::from_inputs(&inputs);
        assert!(r.affected_by(Path::new("/r/parts"), true));
        assert!(!r.affected_by(Path::new("/r/other"), true));
    }

    #[test]
    fn a_manifest_names_its_paths_from_the_base() {
        let mut read = Read::default();
        read.files.insert("a/b.yaml".into(), "00".into());
        read.paths.insert("a/c.yaml".into(), "missing".into());
        read.folders.insert("a".into(), "00".into());
        let left_out = bpvm::batch::LeftOut::of("f/e.yaml", b"kind: Facet\n", true);
        read.facets_left_out.insert("f/e.yaml".into(), left_out);
        let r = Reads::from_manifest(&read, Path::new("/base"));
        assert!(r.affected_by(Path::new("/base/f/e.yaml"), false));
        assert!(r.affected_by(Path::new("/base/a/b.yaml"), false));
        assert!(r.affected_by(Path::new("/base/a/c.yaml"), true));
        assert!(r.affected_by(Path::new("/base/a/d.yaml"), true));
        assert!(!r.affected_by(Path::new("/a/b.yaml"), false));
    }
}
