//! The keys environment variables' values are hashed under. A value is
//! noted by `blake3::keyed_hash(key, value)`, never by a plain hash: a
//! plain hash of a short or guessable secret (a token, a password) could
//! be checked against guesses by anyone who reads a manifest, while a
//! keyed one can be checked only by someone who also holds the key. A
//! leaf.

use std::sync::OnceLock;

/// A key, and a hash (32 bytes each, as BLAKE3 makes them).
type Hash = [u8; 32];

/// The keyed hash an environment variable's value is noted by under
/// `key`.
///
/// ```
/// use bpvm_runtime::root::inputs::{hash_env, hash_value};
/// let (one, two) = ([1; 32], [2; 32]);
/// assert_eq!(hash_env(&one, b"s3cret"), hash_env(&one, b"s3cret"));
/// assert_ne!(hash_env(&one, b"s3cret"), hash_env(&two, b"s3cret"));
/// assert_ne!(hash_env(&one, b"s3cret"), hash_value(b"s3cret"));
/// ```
pub fn hash_env(key: &Hash, value: &[u8]) -> Hash {
    *blake3::keyed_hash(key, value).as_bytes()
}

/// A new key, drawn from the system's random source.
///
/// ```
/// use bpvm_runtime::root::inputs::random_key;
/// assert_ne!(random_key(), random_key());
/// ```
pub fn random_key() -> Hash {
    let mut key = [0; 32];
    if getrandom::fill(&mut key).is_err() {
        // No system source (a sandbox refusing the call): std's hash seeds,
        // the time and the process id are what is left, and still keep
        // the key out of reach of someone reading a manifest.
        key = fallback_key();
    }
    key
}

fn fallback_key() -> Hash {
    use std::hash::{BuildHasher, Hasher};
    let mut h = blake3::Hasher::new();
    for i in 0..4u64 {
        let mut seeded = std::collections::hash_map::RandomState::new().build_hasher();
        seeded.write_u64(i);
        h.update(&seeded.finish().to_le_bytes());
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    h.update(&now.map_or(0, |d| d.as_nanos()).to_le_bytes());
    h.update(&std::process::id().to_le_bytes());
    *h.finalize().as_bytes()
}

/// This process's key: made at random on first use, the same for every
/// recorder made without one (so that their notes can be compared within
/// the process, and with nothing outside it).
pub(super) fn process_key() -> Hash {
    static KEY: OnceLock<Hash> = OnceLock::new();
    *KEY.get_or_init(random_key)
}
