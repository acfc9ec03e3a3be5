//! The render cache's key: the 32 bytes environment variables' values
//! are hashed under in its manifests (see
//! [`hash_env`](bpvm_runtime::root::inputs::hash_env)), so that a
//! manifest hit in a later run compares like with like, while a reader of
//! a manifest without the key cannot check guesses of a value against
//! it. Made at random by the first batch that opens the folder, in the
//! file `key` (64 hex digits, mode 0600), written whole and put in place
//! only if no other batch has put one there meanwhile: two batches
//! starting at once end up with the same key.

use super::manifest::{hex, unhex};
use bpvm_runtime::root::inputs::{Hash, random_key};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// The key of the cache in `dir` (whose `tmp` folder exists), made if it
/// has none. A key file that is not one (damaged, cut short) is replaced
/// by a new key: every entry stored under the old one then misses once.
pub(super) fn cache_key(dir: &Path) -> io::Result<Hash> {
    let path = dir.join("key");
    let damaged = match read_key(&path)? {
        Found::Key(key) => return Ok(key),
        Found::Missing => false,
        Found::Damaged => true,
    };
    let key = random_key();
    let mut tmp = tempfile::Builder::new()
        .permissions(std::fs::Permissions::from_mode(0o600))
        .tempfile_in(dir.join("tmp"))?;
    writeln!(tmp, "{}", hex(&key))?;
    tmp.as_file().sync_all()?;
    if damaged {
        tmp.persist(&path).map_err(|e| e.error)?;
        return Ok(key);
    }
    match tmp.persist_noclobber(&path) {
        Ok(_) => Ok(key),
        // Another batch put its key there first: both use that one.
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => match read_key(&path)? {
            Found::Key(key) => Ok(key),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not a cache key", path.display()),
            )),
        },
        Err(e) => Err(e.error),
    }
}

enum Found {
    Key(Hash),
    Missing,
    Damaged,
}

fn read_key(path: &Path) -> io::Result<Found> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(std::str::from_utf8(&bytes)
            .ok()
            .and_then(|text| unhex(text.trim_end()))
            .map_or(Found::Damaged, Found::Key)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Found::Missing),
        Err(e) => Err(io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
    }
}
