//! Map keys with their hash computed once.
//!
//! Every key of a document map and every key named in a compiled path carries
//! the same fixed-seed hash, so a lookup at run time compares two integers
//! before it ever looks at the text. Nothing here depends on hash order:
//! maps iterate in document order (D1).

use std::fmt;
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

/// The hash every key is given. Fixed-seed, so programs compiled in one
/// process and documents loaded in another agree.
#[inline]
pub fn hash_key(text: &str) -> u64 {
    let mut h = foldhash::fast::FixedState::with_seed(0x9e37_79b9_7f4a_7c15).build_hasher();
    h.write(text.as_bytes());
    h.finish()
}

/// A string key with its precomputed hash. The text is shared, so copying
/// a map copies no key text.
///
/// ```
/// use bpvm_runtime::Key;
/// let k = Key::new("cluster");
/// assert_eq!(k.as_str(), "cluster");
/// assert_eq!(k, Key::new("cluster"));
/// ```
#[derive(Clone)]
pub struct Key {
    hash: u64,
    text: Arc<str>,
}

impl Key {
    /// Makes a key, hashing `text` once.
    pub fn new(text: &str) -> Key {
        Key {
            hash: hash_key(text),
            text: text.into(),
        }
    }

    /// A key for `text` that shares its text with an equal key made by
    /// `shared` on this thread not long before, if one is still
    /// remembered: the names templates read (`cluster`, `provider`) recur
    /// in every `when`, and allocating each anew cost compiling anchor d
    /// (5 keys) 350 of its 15,800 instructions (callgrind). Equal to
    /// [`Key::new`] in every other way.
    ///
    /// ```
    /// use bpvm_runtime::Key;
    /// let (a, b) = (Key::shared("cluster"), Key::shared("cluster"));
    /// assert_eq!(a, b);
    /// assert_eq!(a, Key::new("cluster"));
    /// assert!(std::ptr::eq(a.as_str(), b.as_str()));
    /// ```
    pub fn shared(text: &str) -> Key {
        let hash = hash_key(text);
        if text.len() > shared::LONGEST {
            return Key {
                hash,
                text: text.into(),
            };
        }
        shared::get_or_make(hash, text)
    }

    /// The precomputed hash.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The key's text.
    #[inline]
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// True when this key is `text`, whose hash is `hash`.
    #[inline]
    pub fn is(&self, hash: u64, text: &str) -> bool {
        self.hash == hash && same_text(&self.text, text)
    }
}

/// String equality without a library call for the short strings keys
/// and compared values usually are: up to 16 bytes are compared as two
/// overlapping machine words.
///
/// ```
/// use bpvm_runtime::key::same_text;
/// assert!(same_text("single-node", "single-node"));
/// assert!(!same_text("single-node", "single-nodE"));
/// assert!(!same_text("aws", "azure"));
/// ```
#[inline(always)]
pub fn same_text(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_text`] over bytes (a prefix of a string need not end on a
/// character boundary).
#[inline(always)]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => ends::<4>(a) == ends::<4>(b),
        8..=16 => ends::<8>(a) == ends::<8>(b),
        _ => a == b,
    }
}

/// The first and the last `N` bytes (overlapping when the slice is
/// shorter than `2 * N`); chunks rather than ranges, so that the one
/// length check the caller made is the only one.
#[inline(always)]
fn ends<const N: usize>(s: &[u8]) -> ([u8; N], [u8; N]) {
    match (s.first_chunk::<N>(), s.last_chunk::<N>()) {
        (Some(first), Some(last)) => (*first, *last),
        _ => ([0; N], [0; N]),
    }
}

/// The keys [`Key::shared`] remembers: one per slot of a small table
/// chosen by the key's hash, a newer key replacing an older one, so it
/// holds at most [`shared::SLOTS`] short texts per thread however many
/// names a thread meets.
mod shared {
    use super::Key;
    use std::cell::RefCell;

    pub(super) const SLOTS: usize = 256;
    /// Longer names are rare and would make the table's memory grow with
    /// its input.
    pub(super) const LONGEST: usize = 64;

    thread_local! {
        static KEYS: RefCell<Vec<Option<Key>>> = const { RefCell::new(Vec::new()) };
    }

    pub(super) fn get_or_make(hash: u64, text: &str) -> Key {
        let make = || Key {
            hash,
            text: text.into(),
        };
        KEYS.try_with(|keys| {
            let Ok(mut keys) = keys.try_borrow_mut() else {
                return make();
            };
            if keys.is_empty() {
                keys.resize(SLOTS, None);
            }
            let slot = &mut keys[hash as usize % SLOTS];
            match slot {
                Some(k) if k.is(hash, text) => k.clone(),
                _ => slot.insert(make()).clone(),
            }
        })
        .unwrap_or_else(|_| make())
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.is(other.hash, &other.text)
    }
}

impl Eq for Key {}

impl std::hash::Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.text, f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key::new(s)
    }
}
