//! The permissions of a written file.

use std::fs::{Metadata, Permissions};
use std::os::unix::fs::PermissionsExt;

/// What `open(2)` is asked for a file that did not exist: the kernel takes
/// the umask off, as for any new file (a temporary file alone would be 0600).
pub fn for_new_file() -> Permissions {
    Permissions::from_mode(0o666)
}

/// The replaced file's read/write/execute bits. Set-user-ID, set-group-ID
/// and sticky are dropped: they would be granted to content bpvm just
/// wrote, under the writer's ownership.
pub fn kept(old: &Metadata) -> Permissions {
    Permissions::from_mode(old.permissions().mode() & 0o777)
}
