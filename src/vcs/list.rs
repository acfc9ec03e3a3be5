//! A list of changed files that a CI system gives (`--changed-files
//! FILE`), read as the same set [`changed_files`](super::changed_files)
//! returns.

use super::error::{Error, io};
use bpvm_runtime::root::MAX_FILE_BYTES;
use std::collections::BTreeSet;
use std::path::Path;

/// The paths listed in `file`, one a line, relative to the repository's
/// top: blank lines and lines starting with `#` are passed over, spaces
/// around a path trimmed, a leading `./` dropped and `\` read as `/`
/// (lists made on Windows). A path that leaves the repository (`..`,
/// absolute) is refused with its line number.
///
/// ```
/// let list = std::env::temp_dir().join(format!("bpvm-changed-{}.txt", std::process::id()));
/// std::fs::write(&list, "# from the CI\n./platform/facets/dns.yaml\r\n\napps\\orders.yaml\n").unwrap();
/// let paths = bpvm::vcs::read_changed_files(&list).unwrap();
/// assert_eq!(paths.into_iter().collect::<Vec<_>>(), ["apps/orders.yaml", "platform/facets/dns.yaml"]);
/// std::fs::write(&list, "ok.yaml\n../secret\n").unwrap();
/// assert_eq!(
///     bpvm::vcs::read_changed_files(&list).unwrap_err().to_string(),
///     format!("{}:2: \"../secret\" is outside the repository: list paths relative to its top", list.display())
/// );
/// # std::fs::remove_file(&list).unwrap();
/// ```
pub fn read_changed_files(file: &Path) -> Result<BTreeSet<String>, Error> {
    let meta = std::fs::metadata(file).map_err(|e| io(file, &e))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(Error::Io {
            path: file.to_path_buf(),
            error: format!(
                "{} bytes, over the limit of {MAX_FILE_BYTES} bytes (64 MiB) for one file",
                meta.len()
            ),
        });
    }
    let text = std::fs::read_to_string(file).map_err(|e| io(file, &e))?;
    let mut paths = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let slashed = line.replace('\\', "/");
        let outside =
            slashed.starts_with('/') || slashed.get(1..2) == Some(":") || slashed.split('/').any(|p| p == "..");
        if outside {
            return Err(Error::Refused {
                path: format!("{}:{}", file.display(), i + 1),
                why: format!("{line:?} is outside the repository: list paths relative to its top"),
            });
        }
        let parts: Vec<&str> = slashed.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        if !parts.is_empty() {
            paths.insert(parts.join("/"));
        }
    }
    Ok(paths)
}
