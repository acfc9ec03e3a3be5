//! What a run depends on by absolute path, judged by the same rule as
//! `affected` is: whether a file saved in the work tree just now affects
//! it (what `--watch` asks after each burst of saves).

use super::rule::{self, Basis, Known};
use crate::batch::manifest::{Read, hex, looked};
use crate::batch::why::How;
use bpvm_runtime::root::inputs::{Inputs, Seen};
use std::path::{Path, PathBuf};

/// What a run (a render, a test run, a batch target) depends on, every
/// path absolute: files read, paths looked at, folders listed, facets
/// left out, and folders any change under which counts.
///
/// ```
/// use bpvm::batch::{Depends, How};
/// use bpvm::runtime::root::inputs::{Inputs, Seen};
/// use std::path::Path;
/// let mut inputs = Inputs::default();
/// inputs.files.insert("/p/parts/queue.yaml".into(), Seen::File([0; 32]));
/// inputs.files.insert("/p/facets".into(), Seen::Folder([0; 32]));
/// let depends = Depends::from_inputs(&inputs);
/// assert_eq!(depends.affected_by(Path::new("/p/parts/queue.yaml"), false), Some(How::Read));
/// // Renaming the folder on the way to a file read moves the file.
/// assert_eq!(depends.affected_by(Path::new("/p/parts"), true), Some(How::Read));
/// assert_eq!(depends.affected_by(Path::new("/p/facets/new.yaml"), true), Some(How::Listed));
/// assert_eq!(depends.affected_by(Path::new("/p/facets/old.yaml"), false), None);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Depends {
    basis: Basis,
}

impl Depends {
    /// What a tracked run read (its environment variables aside: a change
    /// to them is not a saved file).
    pub fn from_inputs(inputs: &Inputs) -> Depends {
        let mut read = Read::default();
        for (path, seen) in &inputs.files {
            let path = Path::new(path).display().to_string();
            match seen {
                Seen::File(h) => read.files.insert(path, hex(h)),
                Seen::Folder(h) => read.folders.insert(path, hex(h)),
                other => read.paths.insert(path, looked(other).to_string()),
            };
        }
        Depends::of(read)
    }

    /// What a batch target's manifest lists, its paths relative to `base`
    /// (the target's base, with links resolved, as manifests are made).
    pub fn from_manifest(read: &Read, base: &Path) -> Depends {
        let abs = |rel: &String| rule::absolute(base, rel).display().to_string();
        Depends::of(Read {
            files: read.files.iter().map(|(k, v)| (abs(k), v.clone())).collect(),
            folders: read.folders.iter().map(|(k, v)| (abs(k), v.clone())).collect(),
            paths: read.paths.iter().map(|(k, v)| (abs(k), v.clone())).collect(),
            env: read.env.clone(),
            facets_left_out: read.facets_left_out.iter().map(|(k, v)| (abs(k), v.clone())).collect(),
        })
    }

    fn of(read: Read) -> Depends {
        Depends {
            basis: Basis {
                read,
                ..Basis::default()
            },
        }
    }

    /// Counts any change at or under `folder` (absolute), as for a
    /// template that failed to load: what it would read is not known.
    pub fn add_within(&mut self, folder: &Path) {
        self.basis.within.push(folder.display().to_string());
    }

    /// Counts `file` (absolute) as read (one read without a root, which
    /// no recorder saw).
    pub fn add_read(&mut self, file: &Path) {
        let files = &mut self.basis.read.files;
        files.entry(file.display().to_string()).or_default();
    }

    /// Counts `folder` (absolute) as listed: an entry created in it or
    /// removed counts (a new template in a folder searched).
    pub fn add_listed(&mut self, folder: &Path) {
        let folders = &mut self.basis.read.folders;
        folders.entry(folder.display().to_string()).or_default();
    }

    /// Adds what `other` depends on.
    pub fn extend(&mut self, other: &Depends) {
        let (mine, theirs) = (&mut self.basis.read, &other.basis.read);
        mine.files.extend(theirs.files.clone());
        mine.folders.extend(theirs.folders.clone());
        mine.paths.extend(theirs.paths.clone());
        mine.facets_left_out.extend(theirs.facets_left_out.clone());
        self.basis.within.extend(other.basis.within.iter().cloned());
    }

    /// How a change saved at `path` (absolute) affects the run, by the
    /// rule [`affected`](crate::batch::affected) judges a revision's
    /// changes by; `None` when it does not. `entry`: the path itself was
    /// created, removed or renamed (a folder listing it changed), not
    /// only written. What a left-out facet's condition was is not kept:
    /// any save of that facet counts.
    pub fn affected_by(&self, path: &Path, entry: bool) -> Option<How> {
        let rel = path.display().to_string();
        rule::affects(&self.basis, Path::new("/"), &rel, &Known::Saved { entry })
    }

    /// The paths whose own change is seen: files read, paths looked at
    /// and facets left out.
    pub fn files(&self) -> impl Iterator<Item = PathBuf> + '_ {
        let read = &self.basis.read;
        let keys = read.files.keys().chain(read.paths.keys());
        keys.chain(read.facets_left_out.keys()).map(PathBuf::from)
    }

    /// The folders listed.
    pub fn folders(&self) -> impl Iterator<Item = PathBuf> + '_ {
        self.basis.read.folders.keys().map(PathBuf::from)
    }

    /// The folders any change under which counts.
    pub fn within(&self) -> impl Iterator<Item = PathBuf> + '_ {
        self.basis.within.iter().map(PathBuf::from)
    }
}
