//! One shared text for every mapping key of a blueprint: a key written in
//! many places (`spec`, `name`, `type`) is allocated once, when the
//! document is read, and every later copy is a reference count.

use bpvm_runtime::{Key, hash_key};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A table keyed by `hash_key`, which it does not hash again.
pub(crate) type ByHash = BuildHasherDefault<Prehashed>;

/// The hasher of [`ByHash`]: the key is already a hash.
#[derive(Default)]
pub(crate) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used; this keeps other input well defined.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// Every key made so far, by the hash of its text.
#[derive(Default)]
pub(crate) struct KeyTable(HashMap<u64, Key, ByHash>);

impl KeyTable {
    /// The key `text`, shared with every other key of that text.
    pub(crate) fn key(&mut self, text: &str) -> Key {
        let k = self.0.entry(hash_key(text)).or_insert_with(|| Key::new(text));
        if k.as_str() == text {
            k.clone()
        } else {
            // Another text of the same hash (rare): not shared.
            Key::new(text)
        }
    }
}
