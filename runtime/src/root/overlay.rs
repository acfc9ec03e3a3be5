//! Text an editor holds and has not saved: a language server evaluates
//! a document as it is being edited, so every file [`Root`](super::Root)
//! reads is looked up here first. A leaf.
//!
//! The overlay is the process's: a check runs its templates on worker
//! threads, and each must see the same edits. Only a file that is there
//! on disk, inside the root and regular, is replaced — the overlay
//! changes what a file holds, never which files exist or may be read.
//! With nothing set (every command but `bpvm lsp`) a read costs one
//! uncontended lock.
//!
//! ```
//! use bpvm_runtime::root::{Root, overlay};
//! let dir = std::env::temp_dir().join(format!("bpvm-overlay-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("a.txt"), "saved").unwrap();
//! let root = Root::new(&dir, "project").unwrap();
//! overlay::set(&root.dir().join("a.txt"), "edited");
//! assert_eq!(root.read_string(root.dir(), "a.txt").unwrap(), "edited");
//! overlay::remove(&root.dir().join("a.txt"));
//! assert_eq!(root.read_string(root.dir(), "a.txt").unwrap(), "saved");
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError, RwLock};

/// Unsaved texts by absolute path, symlinks resolved.
static TEXTS: RwLock<BTreeMap<PathBuf, Arc<[u8]>>> = RwLock::new(BTreeMap::new());

/// Reads of the file at `path` (absolute, symlinks resolved, as
/// [`Root::dir`](super::Root::dir) gives a root) give `text` from now on.
pub fn set(path: &Path, text: impl AsRef<[u8]>) {
    let text: Arc<[u8]> = Arc::from(text.as_ref());
    TEXTS
        .write()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(path.to_path_buf(), text);
}

/// Reads of the file at `path` give what is on disk again.
pub fn remove(path: &Path) {
    TEXTS.write().unwrap_or_else(PoisonError::into_inner).remove(path);
}

/// The unsaved text of the file at `path`, if an editor set one.
pub fn text(path: &Path) -> Option<Arc<[u8]>> {
    TEXTS.read().unwrap_or_else(PoisonError::into_inner).get(path).cloned()
}

#[cfg(test)]
mod tests {
    use super::super::{MAX_FILE_BYTES, Root};
    use super::*;

    #[test]
    fn set_replaces_and_remove_restores() {
        let path = Path::new("/overlay-test/set-and-remove.yaml");
        assert!(text(path).is_none());
        set(path, "one");
        set(path, "two");
        assert_eq!(text(path).as_deref(), Some(&b"two"[..]));
        remove(path);
        assert!(text(path).is_none());
    }

    /// A scratch folder, removed when dropped.
    struct Scratch(PathBuf);
    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A root holding `a.yaml` (on disk: `saved`) in a scratch folder
    /// `name` that holds `outside.yaml` beside it.
    fn layout(name: &str) -> (Scratch, Root) {
        let dir = std::env::temp_dir().join(format!("bpvm-overlay-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("root")).unwrap();
        std::fs::write(dir.join("root/a.yaml"), "saved").unwrap();
        std::fs::write(dir.join("outside.yaml"), "outside").unwrap();
        let root = Root::new(&dir.join("root"), "project").unwrap();
        (Scratch(dir), root)
    }

    #[test]
    fn every_read_sees_the_unsaved_text() {
        let (_dir, root) = layout("reads");
        let file = root.dir().join("a.yaml");
        set(&file, "edited");
        assert_eq!(root.read(root.dir(), "a.yaml").unwrap(), b"edited");
        assert_eq!(root.read_string(root.dir(), "./a.yaml").unwrap(), "edited");
        assert_eq!(root.fetch(root.dir(), "a.yaml").unwrap().bytes, b"edited");
        assert_eq!(root.read_os(Path::new("a.yaml"), "a.yaml").unwrap(), b"edited");
        remove(&file);
        assert_eq!(root.read_string(root.dir(), "a.yaml").unwrap(), "saved");
    }

    #[test]
    fn the_overlay_never_adds_a_file_nor_opens_one_outside() {
        let (dir, root) = layout("never-adds");
        let missing = root.dir().join("missing.yaml");
        set(&missing, "unsaved and new");
        let err = root.read_string(root.dir(), "missing.yaml").unwrap_err();
        assert!(err.is_missing(), "{err}");
        remove(&missing);
        let outside = dir.0.canonicalize().unwrap().join("outside.yaml");
        set(&outside, "edited");
        let err = root.read_string(root.dir(), "../outside.yaml").unwrap_err();
        assert!(err.to_string().contains("outside the project"), "{err}");
        remove(&outside);
    }

    #[test]
    fn unsaved_text_past_the_size_limit_is_refused() {
        let (_dir, root) = layout("limit");
        let file = root.dir().join("a.yaml");
        set(&file, vec![b'x'; MAX_FILE_BYTES as usize + 1]);
        let err = root.read(root.dir(), "a.yaml").unwrap_err();
        remove(&file);
        assert!(err.to_string().contains("over the limit"), "{err}");
    }
}
