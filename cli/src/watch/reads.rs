//! What a run read, as `--watch` needs it: which changed paths affect it,
//! and which folders to watch for them. A leaf.

use bpvm::batch::Read;
use bpvm::runtime::root::inputs::{Inputs, Seen};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// What one run (a render, a test run, a batch target) read, by absolute
/// path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reads {
    /// Files read, and paths looked at (a file that appears at a path
    /// looked at and found missing is a change too).
    pub files: BTreeSet<PathBuf>,
    /// Folders listed: an entry they gain or lose is a change.
    pub folders: BTreeSet<PathBuf>,
    /// Folders any change under which is a change (the folder of a
    /// template that failed to load: what it read is not known).
    pub trees: BTreeSet<PathBuf>,
}

impl Reads {
    /// What a tracked run read (its environment variables aside: a change
    /// to them is not a saved file).
    pub fn from_inputs(inputs: &Inputs) -> Reads {
        let mut reads = Reads::default();
        for (path, seen) in &inputs.files {
            match seen {
                Seen::Folder(_) => reads.folders.insert(path.clone()),
                _ => reads.files.insert(path.clone()),
            };
        }
        reads
    }

    /// What a batch target's manifest lists, its paths relative to `base`
    /// (the target's base, with links resolved, as manifests are made).
    pub fn from_manifest(read: &Read, base: &Path) -> Reads {
        // A facet the render left out by its condition: saving it may
        // change the condition (what else changed is not told apart here).
        let files = read
            .files
            .keys()
            .chain(read.paths.keys())
            .chain(read.facets_left_out.keys());
        Reads {
            files: files.map(|rel| base.join(rel)).collect(),
            folders: read.folders.keys().map(|rel| base.join(rel)).collect(),
            trees: BTreeSet::new(),
        }
    }

    /// Adds what `other` read.
    pub fn extend(&mut self, other: &Reads) {
        self.files.extend(other.files.iter().cloned());
        self.folders.extend(other.folders.iter().cloned());
        self.trees.extend(other.trees.iter().cloned());
    }

    /// Whether a change at `path` can change what the run gives: `path`
    /// was read or looked at, or lies under a tree; or `entry` (it was
    /// created, removed or renamed) and its folder was listed.
    pub fn affected_by(&self, path: &Path, entry: bool) -> bool {
        self.files.contains(path)
            || self.trees.iter().any(|t| path.starts_with(t))
            || (entry && path.parent().is_some_and(|p| self.folders.contains(p)))
    }

    /// How many paths a change at which is seen: files read or looked at.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// The folders to watch, each with whether its whole tree is watched:
    /// each folder listed and each tree, and the folder of each file. A
    /// folder that does not exist (yet) is watched through its nearest
    /// existing ancestor, where its creation shows.
    pub fn folders(&self) -> Vec<(PathBuf, bool)> {
        let mut flat: BTreeSet<PathBuf> = BTreeSet::new();
        let parents = self.files.iter().filter_map(|f| f.parent());
        for folder in self.folders.iter().map(PathBuf::as_path).chain(parents) {
            flat.insert(existing(folder));
        }
        let mut trees = BTreeSet::new();
        for tree in &self.trees {
            if tree.is_dir() {
                trees.insert(tree.clone());
            } else {
                flat.insert(existing(tree));
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

    fn reads() -> Reads {
        Reads {
            files: [
                "/p/windsor.yaml",
                "/p/contexts/dev/values.yaml",
                "/p/contexts/dev/blueprint.yaml",
            ]
            .map(PathBuf::from)
            .into(),
            folders: ["/p/contexts", "/p/contexts/_template/facets"]
                .map(PathBuf::from)
                .into(),
            trees: ["/q"].map(PathBuf::from).into(),
        }
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
