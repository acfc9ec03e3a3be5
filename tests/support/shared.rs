//! `../shared` (the specification and the corpus beside the repository),
//! for the tests of every crate that read it (each includes this file).
//! Without it a test has nothing to read: it says so where the test's
//! output shows it, or fails when `BPVM_CORPUS=required` (as CI sets).

use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether `path` (a folder of `../shared`) is there. When it is not, the
/// calling test should return: this says "skipped" on the process's
/// stderr itself, past the test harness's capture, so the skip shows in
/// `cargo test`'s output; under `BPVM_CORPUS=required` it fails instead.
pub fn present(path: &Path) -> bool {
    if path.is_dir() {
        return true;
    }
    let required = std::env::var("BPVM_CORPUS").is_ok_and(|v| v == "required");
    assert!(!required, "BPVM_CORPUS=required but {} is missing", path.display());
    let test = std::thread::current().name().unwrap_or("a test").to_string();
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {} is not there", path.display());
    false
}

/// Every `.yaml` and `.yml` file under `dir`, in path order (a folder that
/// cannot be read gives none).
#[allow(dead_code)] // not every test that includes this file reads folders
pub fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            yaml_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "yaml" || x == "yml") {
            out.push(path);
        }
    }
}
