//! An insertion-ordered map from [`Key`] to [`Value`].
//!
//! Small maps (the common case in blueprints) are scanned linearly by hash;
//! larger ones get an open-addressing index over the same entries. Iteration
//! is always in insertion order (D1).

use crate::key::{Key, hash_key, same_text};
// The cycle map ↔ value is forced by the recursive type: a map holds
// values, and a value may be a map.
use crate::value::Value;
use std::sync::atomic::{AtomicU32, Ordering};

/// The position a key was last found at (see [`Map::get_hinted`]). A
/// cache: clones carry the current position, and any two hints are equal.
#[derive(Debug, Default)]
pub struct Hint(AtomicU32);

impl Clone for Hint {
    fn clone(&self) -> Hint {
        Hint(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
}

impl PartialEq for Hint {
    fn eq(&self, _: &Hint) -> bool {
        true
    }
}

/// Maps with more entries than this get a hash index.
const INDEX_FROM: usize = 12;

/// An insertion-ordered map of document values.
///
/// ```
/// use bpvm_runtime::{Map, Value};
/// let mut m = Map::new();
/// m.insert("b", Value::Int(1));
/// m.insert("a", Value::Int(2));
/// assert_eq!(m.keys().map(|k| k.as_str()).collect::<Vec<_>>(), ["b", "a"]);
/// assert_eq!(m.get("a"), Some(&Value::Int(2)));
/// ```
#[derive(Clone, Default)]
pub struct Map {
    entries: Vec<(Key, Value)>,
    /// Slots hold entry index + 1 (0 = empty); length is a power of two.
    index: Vec<u32>,
}

impl Map {
    /// An empty map.
    pub fn new() -> Map {
        Map::default()
    }

    /// An empty map with room for `n` entries.
    pub fn with_capacity(n: usize) -> Map {
        Map {
            entries: Vec::with_capacity(n),
            index: Vec::new(),
        }
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the map has no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Looks up `text` by its text.
    pub fn get(&self, text: &str) -> Option<&Value> {
        // A small map is scanned by text: cheaper than hashing `text`.
        if self.index.is_empty() {
            return self
                .entries
                .iter()
                .find(|(k, _)| same_text(k.as_str(), text))
                .map(|(_, v)| v);
        }
        self.get_hashed(hash_key(text), text)
    }

    /// Looks up a key whose hash is already known (the fast path of compiled paths).
    #[inline]
    pub fn get_hashed(&self, hash: u64, text: &str) -> Option<&Value> {
        self.position(hash, text).map(|i| &self.entries[i].1)
    }

    /// Looks up `key`, trying first the position `hint` remembers and
    /// remembering where the key was found. A compiled path keeps one hint
    /// per step, so environments of one shape are read with one key
    /// comparison per step, however many keys the maps have.
    #[inline(always)]
    pub fn get_hinted(&self, key: &Key, hint: &Hint) -> Option<&Value> {
        let at = hint.0.load(Ordering::Relaxed) as usize;
        if let Some((k, v)) = self.entries.get(at)
            && k.is(key.hash(), key.as_str())
        {
            return Some(v);
        }
        self.get_rehinted(key, hint)
    }

    /// [`Map::get_hinted`] when the hint misses: out of line, so the hit
    /// stays small enough to inline into the VM's loops.
    #[inline(never)]
    fn get_rehinted(&self, key: &Key, hint: &Hint) -> Option<&Value> {
        let i = self.position(key.hash(), key.as_str())?;
        hint.0.store(i as u32, Ordering::Relaxed);
        Some(&self.entries[i].1)
    }

    /// Mutable access to the value under `text`.
    pub fn get_mut(&mut self, text: &str) -> Option<&mut Value> {
        let i = self.position(hash_key(text), text)?;
        Some(&mut self.entries[i].1)
    }

    /// True when the map has `text`.
    pub fn contains_key(&self, text: &str) -> bool {
        self.get(text).is_some()
    }

    #[inline]
    fn position(&self, hash: u64, text: &str) -> Option<usize> {
        if self.index.is_empty() {
            return self.entries.iter().position(|(k, _)| k.is(hash, text));
        }
        let mask = self.index.len() - 1;
        let mut slot = (hash as usize) & mask;
        loop {
            let at = self.index[slot];
            if at == 0 {
                return None;
            }
            let i = (at - 1) as usize;
            if self.entries[i].0.is(hash, text) {
                return Some(i);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// A map of `entries` whose keys are already known to be distinct (the
    /// keys of another map, or of a document mapping): nothing is
    /// searched, and a large map's index is built once.
    ///
    /// ```
    /// use bpvm_runtime::{Key, Map, Value};
    /// let m = Map::from_distinct(vec![(Key::new("b"), Value::Int(1)), (Key::new("a"), Value::Int(2))]);
    /// assert_eq!(m.get("a"), Some(&Value::Int(2)));
    /// ```
    pub fn from_distinct(entries: Vec<(Key, Value)>) -> Map {
        debug_assert!(
            {
                let mut seen = std::collections::HashSet::new();
                entries.iter().all(|(k, _)| seen.insert(k))
            },
            "keys must be distinct"
        );
        let mut m = Map {
            entries,
            index: Vec::new(),
        };
        m.rebuild_index();
        m
    }

    /// Inserts or replaces; a replaced key keeps its original position.
    pub fn insert(&mut self, key: impl Into<Key>, value: Value) -> Option<Value> {
        let key = key.into();
        if let Some(i) = self.position(key.hash(), key.as_str()) {
            return Some(std::mem::replace(&mut self.entries[i].1, value));
        }
        self.entries.push((key, value));
        if self.entries.len() > INDEX_FROM {
            if self.entries.len() * 2 > self.index.len() {
                self.rebuild_index();
            } else {
                self.index_entry(self.entries.len() - 1);
            }
        }
        None
    }

    /// Removes `text`, keeping the order of the others.
    pub fn remove(&mut self, text: &str) -> Option<Value> {
        let i = self.position(hash_key(text), text)?;
        let (_, v) = self.entries.remove(i);
        if !self.index.is_empty() {
            self.rebuild_index();
        }
        Some(v)
    }

    /// Keeps the entries `keep` accepts, in their order.
    ///
    /// ```
    /// use bpvm_runtime::{Map, Value};
    /// let mut m: Map = (0..20).map(|i| (format!("k{i}").as_str().into(), Value::Int(i))).collect();
    /// m.retain(|k, _| k.as_str() != "k3");
    /// assert_eq!((m.len(), m.get("k3"), m.get("k19")), (19, None, Some(&Value::Int(19))));
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &Value) -> bool) {
        let before = self.entries.len();
        self.entries.retain(|(k, v)| keep(k, v));
        if self.entries.len() != before {
            self.rebuild_index();
        }
    }

    fn rebuild_index(&mut self) {
        self.index.clear();
        if self.entries.len() <= INDEX_FROM {
            return;
        }
        let size = (self.entries.len() * 2).next_power_of_two().max(32);
        self.index.resize(size, 0);
        for i in 0..self.entries.len() {
            self.index_entry(i);
        }
    }

    fn index_entry(&mut self, i: usize) {
        let mask = self.index.len() - 1;
        let mut slot = (self.entries[i].0.hash() as usize) & mask;
        while self.index[slot] != 0 {
            slot = (slot + 1) & mask;
        }
        self.index[slot] = (i + 1) as u32;
    }

    /// Entries in insertion order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&Key, &Value)> + DoubleEndedIterator {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Entries in insertion order, values mutable (keys are not: the
    /// index is built from them).
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (&Key, &mut Value)> {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }

    /// Keys in insertion order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &Key> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Values in insertion order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The entry at position `i` in insertion order.
    #[inline]
    pub fn entry_at(&self, i: usize) -> Option<(&Key, &Value)> {
        self.entries.get(i).map(|(k, v)| (k, v))
    }
}

impl PartialEq for Map {
    /// Maps are equal when they hold the same keys with equal values, in any order.
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, v)| other.get_hashed(k.hash(), k.as_str()) == Some(v))
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl FromIterator<(Key, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (Key, Value)>>(iter: I) -> Map {
        let mut m = Map::new();
        for (k, v) in iter {
            m.insert(k, v);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_maps_keep_order_and_find_every_key() {
        let mut m = Map::new();
        for i in 0..100 {
            m.insert(format!("k{i}").as_str(), Value::Int(i));
        }
        for i in 0..100 {
            assert_eq!(m.get(&format!("k{i}")), Some(&Value::Int(i)));
        }
        assert_eq!(m.get("nope"), None);
        assert_eq!(m.keys().next().unwrap().as_str(), "k0");
        m.remove("k50");
        assert_eq!(m.get("k50"), None);
        assert_eq!(m.get("k51"), Some(&Value::Int(51)));
        assert_eq!(m.len(), 99);
    }

    #[test]
    fn insert_replaces_in_place() {
        let mut m = Map::new();
        m.insert("a", Value::Int(1));
        m.insert("b", Value::Int(2));
        assert_eq!(m.insert("a", Value::Int(3)), Some(Value::Int(1)));
        let keys: Vec<_> = m.keys().map(|k| k.as_str().to_string()).collect();
        assert_eq!(keys, ["a", "b"]);
    }
}
