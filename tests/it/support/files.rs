//! Files written for a test.

use std::path::Path;

/// Writes `text` to `rel` under `root`, making the folders on the way.
pub fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}
