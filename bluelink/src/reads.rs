//! What a blueprint's substitutions read of each resource, so that a
//! render builds `resources.<name>` with those parts only.

use bpvm_runtime::Key;

/// The parts of a resource that substitutions read: a tree of keys below
/// the resource (`spec`, `metadata`), `all` where a whole value is read.
///
/// ```
/// use bpvm_bluelink::blueprint::Reads;
/// use bpvm_runtime::Key;
/// let mut r = Reads::default();
/// r.add(&[Key::new("spec"), Key::new("name")]);
/// r.add(&[Key::new("spec"), Key::new("tags")]);
/// assert!(r.get("spec").unwrap().get("name").unwrap().all);
/// assert!(r.get("metadata").is_none());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Reads {
    /// The whole value is read.
    pub all: bool,
    /// The keys read below it, each with what is read of it, sorted by
    /// text. A vector rather than a tree map: most resources are read at
    /// one or two keys, and a tree map's first node alone is ten times
    /// their size. Paths added in sorted order are each appended, so a
    /// resource read at many keys still takes linear time.
    pub keys: Vec<(Key, Reads)>,
}

impl Reads {
    /// Records that the value at `path` is read whole.
    pub fn add(&mut self, path: &[Key]) {
        let mut at = self;
        for key in path {
            if at.all {
                return;
            }
            let i = match at.find(key.as_str()) {
                Ok(i) => i,
                Err(i) => {
                    if at.keys.is_empty() {
                        // Most are read at one key: room for one, not four.
                        at.keys.reserve_exact(1);
                    }
                    at.keys.insert(i, (key.clone(), Reads::default()));
                    i
                }
            };
            at = &mut at.keys[i].1;
        }
        at.all = true;
        at.keys = Vec::new();
    }

    /// What is read below `key`.
    pub fn get(&self, key: &str) -> Option<&Reads> {
        self.find(key).ok().map(|i| &self.keys[i].1)
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.keys.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }
}
