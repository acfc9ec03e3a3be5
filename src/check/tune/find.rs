//! Where a check's configuration is: the nearest `bpvm.yaml`, or
//! `bpvm-batch.yaml` with a `check:` section, from the folder checked up
//! to its repository's root.

use super::{ConfigError, Tuning, read};
use bpvm_runtime::root::Root;
use std::path::{Path, PathBuf};

/// The configuration file's name.
pub const CONFIG: &str = "bpvm.yaml";

/// The batch manifest's name (its `check:` section counts too).
const MANIFEST: &str = "bpvm-batch.yaml";

/// The configuration for checking `path` (a folder or a file): the first
/// of `bpvm.yaml`, or `bpvm-batch.yaml` with a `check:` section, found in
/// its folder and the folders above it, up to the repository's root (the
/// first folder holding `.git`); outside a repository, only in its own
/// folder, so that a file in a home folder does not tune every check
/// below it. `None` when there is none; its mistakes when it has any.
/// `known` lists the rule ids.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("bpvm.yaml"), "check:\n  rules:\n    unknwn-path: off\n").unwrap();
/// let errors = bpvm::check::tune::find(dir.path(), &["unknown-path"]).unwrap_err();
/// assert!(errors[0].to_string().ends_with("bpvm.yaml:3:5: unknown rule unknwn-path; did you mean unknown-path?"));
/// ```
pub fn find(path: &Path, known: &[&str]) -> Result<Option<Tuning>, Vec<ConfigError>> {
    let absolute = super::normal(path);
    let start = if absolute.is_file() {
        absolute.parent().map(Path::to_path_buf).unwrap_or_default()
    } else {
        absolute
    };
    let top = start
        .ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(&start)
        .to_path_buf();
    for dir in start.ancestors() {
        if let Some(tuning) = tuning_in(dir, known)? {
            return Ok(Some(tuning));
        }
        if dir == top {
            break;
        }
    }
    Ok(None)
}

/// The configuration in the folder `dir`, if it holds one; files read as
/// every file bpvm reads (regular files, up to the size limit, no link
/// out of the folder).
fn tuning_in(dir: &Path, known: &[&str]) -> Result<Option<Tuning>, Vec<ConfigError>> {
    let Ok(root) = Root::new(dir, "folder") else {
        return Ok(None);
    };
    for (name, whole) in [(CONFIG, true), (MANIFEST, false)] {
        let text = match root.read_string(root.dir(), name) {
            Err(e) if e.is_missing() => continue,
            read => read,
        };
        let shown = shown(&dir.join(name));
        let text = text.map_err(|e| {
            vec![ConfigError {
                file: shown.clone(),
                line: 0,
                column: 0,
                message: format!("cannot read: {e}"),
            }]
        })?;
        if let Some(tuning) = read::read(&text, &shown, dir.to_path_buf(), whole, known)? {
            return Ok(Some(tuning));
        }
    }
    Ok(None)
}

/// `file` relative to the current folder when it is inside it.
fn shown(file: &Path) -> String {
    let here = std::env::current_dir().ok().and_then(|d| std::path::absolute(d).ok());
    let relative: Option<PathBuf> = here.and_then(|h| file.strip_prefix(h).ok().map(Path::to_path_buf));
    relative.unwrap_or_else(|| file.to_path_buf()).display().to_string()
}
