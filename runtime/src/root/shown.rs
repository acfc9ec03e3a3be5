//! How a file inside a folder the user named is printed: as it can be
//! opened from where bpvm runs, so that a person, an editor or a CI
//! annotator can follow every path a message gives.

use std::path::Path;

/// The file `file` (relative to `folder`) as it can be opened from where
/// bpvm runs: `folder` as the user gave it joined with `file`. `.` (or
/// no folder) leaves `file` bare, a leading `./` is dropped, and an
/// absolute folder stays absolute; `file` already absolute is kept.
///
/// ```
/// use bpvm_runtime::root::shown;
/// use std::path::Path;
/// assert_eq!(shown(Path::new("infra"), "contexts/dev/values.yaml"), "infra/contexts/dev/values.yaml");
/// assert_eq!(shown(Path::new("./infra/"), "a.yaml"), "infra/a.yaml");
/// assert_eq!(shown(Path::new("."), "a.yaml"), "a.yaml");
/// assert_eq!(shown(Path::new(""), "a.yaml"), "a.yaml");
/// assert_eq!(shown(Path::new("/srv/infra"), "a.yaml"), "/srv/infra/a.yaml");
/// assert_eq!(shown(Path::new("/"), "a.yaml"), "/a.yaml");
/// assert_eq!(shown(Path::new("infra"), "/etc/a.yaml"), "/etc/a.yaml");
/// ```
pub fn shown(folder: &Path, file: &str) -> String {
    if Path::new(file).is_absolute() {
        return file.to_string();
    }
    let given = folder.to_string_lossy();
    let mut folder: &str = &given;
    while let Some(rest) = folder.strip_prefix("./") {
        folder = rest.trim_start_matches('/');
    }
    let trimmed = folder.trim_end_matches('/');
    match trimmed {
        "" if folder.starts_with('/') => format!("/{file}"),
        "" | "." => file.to_string(),
        _ => format!("{trimmed}/{file}"),
    }
}
