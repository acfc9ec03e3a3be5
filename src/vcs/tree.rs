//! A revision's files written into a fresh folder, to render a revision
//! without checking it out: bounded, and never outside that folder.

use super::error::{Error, git, io};
use super::{links, revision};
use bpvm_runtime::root::MAX_FILE_BYTES;
use gix::bstr::ByteSlice;
use std::collections::HashMap;
use std::path::Path;

/// The most bytes [`tree_at`] writes in all (1 GiB).
///
/// ```
/// assert_eq!(bpvm::vcs::TREE_BYTES, 1024 * 1024 * 1024);
/// ```
pub const TREE_BYTES: u64 = 1 << 30;

/// The most files, links and folders [`tree_at`] writes.
///
/// ```
/// assert_eq!(bpvm::vcs::TREE_FILES, 200_000);
/// ```
pub const TREE_FILES: usize = 200_000;

/// What [`tree_at`] wrote.
///
/// ```
/// let nothing = bpvm::vcs::Written::default();
/// assert_eq!((nothing.files, nothing.links, nothing.bytes), (0, 0, 0));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    /// Files written.
    pub files: usize,
    /// Links written.
    pub links: usize,
    /// The files' bytes.
    pub bytes: u64,
}

/// Writes the files of revision `rev` under `subdir` (relative to the
/// repository's top, `/`-separated; `""` for all of it) into the folder
/// `into`, which must not exist or be empty: `subdir/a.yaml` becomes
/// `into/a.yaml`. `rev` is read as [`changed_files`](super::changed_files)
/// reads it.
///
/// Bounded: a file over `MAX_FILE_BYTES` (64 MiB, as the file layer
/// reads at most), more than [`TREE_BYTES`] in all or more than
/// [`TREE_FILES`] files is refused. Nothing is written outside `into`:
/// a link is written as the same link only when it resolves inside
/// `subdir` (through the revision's other links too), and is refused
/// otherwise; names that are not plain file names (`..`, `.git`) are
/// refused. Submodules are not written. On a refusal, what was written
/// so far stays in `into`.
///
/// ```no_run
/// use std::path::Path;
/// let into = std::env::temp_dir().join("bpvm-main");
/// let written = bpvm::vcs::tree_at(Path::new("."), "origin/main", "platform", &into)?;
/// println!("{} files, {} bytes", written.files, written.bytes);
/// # Ok::<(), bpvm::vcs::Error>(())
/// ```
pub fn tree_at(repo_dir: &Path, rev: &str, subdir: &str, into: &Path) -> Result<Written, Error> {
    let repo = revision::open(repo_dir)?;
    let root = revision::tree(&repo, rev)?;
    write_tree(&repo, root, rev, subdir, into)
}

/// [`tree_at`] of the tree `root` of revision `rev` in the open `repo`.
pub(super) fn write_tree(
    repo: &gix::Repository,
    root: gix::Tree<'_>,
    rev: &str,
    subdir: &str,
    into: &Path,
) -> Result<Written, Error> {
    let tree = subtree(root, subdir, rev)?;
    fresh(into)?;
    let entries = tree.traverse().breadthfirst.files().map_err(git)?;
    if entries.len() > TREE_FILES {
        let why = format!("{} files and folders, over the limit of {TREE_FILES}", entries.len());
        return Err(refused(subdir, why));
    }
    let mut written = Written::default();
    let mut links: HashMap<String, String> = HashMap::new();
    for e in &entries {
        let path = e.filepath.to_str_lossy().into_owned();
        plain(&path, subdir)?;
        if e.mode.is_tree() {
            std::fs::create_dir_all(into.join(&path)).map_err(|err| io(into.join(&path), &err))?;
        } else if e.mode.is_link() {
            let blob = repo.find_blob(e.oid).map_err(git)?;
            links.insert(path, blob.data.to_str_lossy().into_owned());
        } else if e.mode.is_blob() {
            written.bytes += write_blob(repo, e.oid, into, &path, subdir, written.bytes)?;
            written.files += 1;
        }
    }
    // Links last: no file above is written through one.
    let mut sorted: Vec<(&String, &String)> = links.iter().collect();
    sorted.sort();
    for (path, target) in sorted {
        if !links::inside(&links, path) {
            let why = format!("a link to {target:?}, outside {}: not written", shown(subdir));
            return Err(refused(&join(subdir, path), why));
        }
        write_link(target, &into.join(path), &join(subdir, path))?;
        written.links += 1;
    }
    Ok(written)
}

/// The folder `subdir` of `root`.
fn subtree<'r>(root: gix::Tree<'r>, subdir: &str, rev: &str) -> Result<gix::Tree<'r>, Error> {
    let subdir = subdir.trim_matches('/');
    if subdir.is_empty() || subdir == "." {
        return Ok(root);
    }
    let not_a_folder = || refused(subdir, format!("no such folder in revision {rev:?}"));
    let entry = root
        .lookup_entry_by_path(subdir)
        .map_err(git)?
        .ok_or_else(not_a_folder)?;
    if !entry.mode().is_tree() {
        return Err(not_a_folder());
    }
    entry.object().map_err(git)?.peel_to_tree().map_err(git)
}

/// `into` made, or checked empty.
fn fresh(into: &Path) -> Result<(), Error> {
    match std::fs::read_dir(into).map(|mut entries| entries.next().is_some()) {
        Ok(true) => Err(Error::Io {
            path: into.to_path_buf(),
            error: "not empty: a revision is written into a new or empty folder".into(),
        }),
        Ok(false) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => std::fs::create_dir_all(into).map_err(|e| io(into, &e)),
        Err(e) => Err(io(into, &e)),
    }
}

/// Refuses a path with a part that is not a plain name.
fn plain(path: &str, subdir: &str) -> Result<(), Error> {
    let bad = |part: &str| {
        matches!(part, "" | "." | "..")
            || part.eq_ignore_ascii_case(".git")
            || part.contains('\0')
            || (cfg!(windows) && part.contains(['\\', ':']))
    };
    match path.split('/').find(|p| bad(p)) {
        Some(part) => Err(refused(
            &join(subdir, path),
            format!("{part:?} is not a file name to write"),
        )),
        None => Ok(()),
    }
}

/// One file written, new; its size.
fn write_blob(
    repo: &gix::Repository,
    id: gix::ObjectId,
    into: &Path,
    path: &str,
    subdir: &str,
    so_far: u64,
) -> Result<u64, Error> {
    let size = repo.find_header(id).map_err(git)?.size();
    if size > MAX_FILE_BYTES {
        let why = format!("{size} bytes, over the limit of {MAX_FILE_BYTES} bytes (64 MiB) for one file");
        return Err(refused(&join(subdir, path), why));
    }
    if so_far + size > TREE_BYTES {
        let why = format!("over the limit of {TREE_BYTES} bytes (1 GiB) for a revision's files");
        return Err(refused(&join(subdir, path), why));
    }
    let blob = repo.find_blob(id).map_err(git)?;
    let file = into.join(path);
    if let Some(parent) = file.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io(parent, &e))?;
    }
    let mut out = std::fs::File::create_new(&file).map_err(|e| io(&file, &e))?;
    std::io::Write::write_all(&mut out, &blob.data).map_err(|e| io(&file, &e))?;
    Ok(size)
}

/// A link written as it is in the revision.
fn write_link(target: &str, at: &Path, shown: &str) -> Result<(), Error> {
    #[cfg(unix)]
    {
        let _ = shown;
        if let Some(parent) = at.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, &e))?;
        }
        std::os::unix::fs::symlink(target, at).map_err(|e| io(at, &e))
    }
    #[cfg(not(unix))]
    {
        let _ = (target, at);
        Err(refused(shown, "a link: links are written on Unix systems only".into()))
    }
}

fn refused(path: &str, why: String) -> Error {
    Error::Refused {
        path: path.to_string(),
        why,
    }
}

/// `path` under `subdir`, as the repository names it.
fn join(subdir: &str, path: &str) -> String {
    match subdir.trim_matches('/') {
        "" | "." => path.to_string(),
        dir => format!("{dir}/{path}"),
    }
}

/// The folder written, for messages.
fn shown(subdir: &str) -> String {
    match subdir.trim_matches('/') {
        "" | "." => "the repository".to_string(),
        dir => dir.to_string(),
    }
}
