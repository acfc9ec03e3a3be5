//! Test fixtures on disk: a folder of examples copied where a test may
//! change it.

use std::path::Path;

/// Copies the folder `from`, its subfolders and files, into `to` (made
/// if missing). Panics on any error: it is for tests and benchmarks.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let from = dir.path().join("a");
/// std::fs::create_dir_all(from.join("b/empty")).unwrap();
/// std::fs::write(from.join("b/c.txt"), "c").unwrap();
/// bpvm_harness::copy_tree(&from, &dir.path().join("copy"));
/// assert_eq!(std::fs::read_to_string(dir.path().join("copy/b/c.txt")).unwrap(), "c");
/// assert!(dir.path().join("copy/b/empty").is_dir());
/// ```
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
