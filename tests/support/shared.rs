//! `../shared` (the specification and the corpus beside the repository),
//! for the tests of every crate that read it (each includes this file).
//! Without it a test has nothing to read: it says so where the test's
//! output shows it, or fails when `BPVM_CORPUS=required` (as CI sets).

use std::io::Write;
use std::path::Path;

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
