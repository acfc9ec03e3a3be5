//! The case files of a folder.

use std::path::{Path, PathBuf};

/// Every `.yaml` file in `dir` (and in its subfolders when `nested`), in
/// path order. A folder that cannot be read is a mistake in the harness
/// that lists it, so it panics.
pub fn yaml_files(dir: &Path, nested: bool) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    paths.sort();
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            if nested {
                files.extend(yaml_files(&path, true));
            }
        } else if path.extension().is_some_and(|e| e == "yaml") {
            files.push(path);
        }
    }
    files
}
