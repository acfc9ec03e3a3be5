//! The keys a mapping being read already has, for refusing a duplicate.
//! Past a handful of keys they are found by hash, so a mapping of n keys
//! is read with n lookups, not n²/2 text comparisons.

use super::tree::Entry;
use bpvm_runtime::Key;
use std::collections::HashSet;

/// Mappings with fewer keys than this are scanned (no hashing, no
/// allocation): most of a blueprint's mappings.
const INDEX_FROM: usize = 32;

/// The hashes of a mapping's keys, once it has [`INDEX_FROM`] of them.
#[derive(Debug, Default)]
pub(crate) struct Keys(HashSet<u64>);

impl Keys {
    /// True when `key` is not among `earlier` (every key read so far,
    /// each of which went through here), recording it.
    pub(crate) fn is_new(&mut self, key: &Key, earlier: &[Entry]) -> bool {
        let scan = || !earlier.iter().any(|e| e.key.key() == key);
        if earlier.len() < INDEX_FROM {
            return scan();
        }
        if self.0.is_empty() {
            self.0.extend(earlier.iter().map(|e| e.key.key().hash()));
        }
        // A known hash is a duplicate or, rarely, another key's collision.
        self.0.insert(key.hash()) || scan()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Pos;
    use crate::node::tree::{Kind, Node};
    use bpvm_runtime::Value;

    fn entry(key: &str) -> Entry {
        let at = Pos { line: 1, col: 1 };
        Entry {
            key: key.into(),
            key_at: at,
            value: Node {
                at,
                kind: Kind::Scalar(Value::Null),
            },
        }
    }

    #[test]
    fn small_and_large_mappings_find_every_duplicate() {
        for n in [3, 100] {
            let mut keys = Keys::default();
            let mut entries = Vec::new();
            for i in 0..n {
                let k = format!("k{i}");
                assert!(keys.is_new(&Key::new(&k), &entries), "{k} of {n}");
                entries.push(entry(&k));
            }
            for i in 0..n {
                assert!(!keys.is_new(&Key::new(&format!("k{i}")), &entries), "k{i} of {n}");
            }
            assert!(keys.is_new(&Key::new("other"), &entries));
        }
    }
}
