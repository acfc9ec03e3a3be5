//! Writing output files so that a failed or interrupted run leaves the
//! old file as it was.

use std::io::Write;
use std::path::Path;

/// Writes `text` to a temporary file beside `path`, then renames it over
/// `path`: a reader never sees half a file, and a failure leaves the old one.
pub fn atomically(path: &Path, text: &str) -> Result<(), String> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .and_then(|_| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("error: cannot write {}: {e}", path.display())
    })
}
