//! Input tracking: what a render read, so that a cache can tell whether
//! rendering again would give the same output, and a change can be traced
//! to the renders it affects. A leaf.
//!
//! A [`Recorder`] is made active on a thread with [`track`]; while it is,
//! every file [`Root`](super::Root) reads, every folder it lists and every
//! path it looks at is noted in it (with a BLAKE3 hash of what was
//! there), and so is every environment variable a host function reads
//! ([`env()`]: its name and a hash of its value keyed by the recorder's
//! key, never the value). With no recorder active a note costs one
//! thread-local check.
//!
//! Cost: instructions (callgrind, release build, every process of `bpvm
//! batch --jobs 1` over 120 targets of the `examples/monorepo.rs`
//! monorepo, 2026-11-28): a run with a JSON report (every input tracked,
//! each manifest sent to the parent and written) 804.1 M against 792.4 M
//! with a JUnit report (nothing tracked): +1.5 %, most of it hashing
//! what is read (BLAKE3) and making each target's manifest. It was
//! +24.8 %, then +4.8 %, then +2.4 %, before paths were hashed rather
//! than ordered (and then as bytes), facets left out were hashed from
//! the load's own parse, a load's inputs were named once for all of its
//! targets, manifests went to the report as the workers wrote them, and
//! manifests were made as JSON from the load's entries. In wall time
//! (`benches/cache.sh`, 1,200 targets) the whole run is +2.8 to +4.5 %.
//!
//! ```
//! use bpvm_runtime::root::{Root, inputs};
//! let dir = std::env::temp_dir().join(format!("bpvm-inputs-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! std::fs::write(dir.join("a.txt"), "hello").unwrap();
//! let root = Root::new(&dir, "project").unwrap();
//! let recorder = inputs::Recorder::new();
//! inputs::track(&recorder, || root.read(root.dir(), "a.txt").unwrap());
//! let seen = recorder.inputs();
//! let hash = *blake3::hash(b"hello").as_bytes();
//! assert_eq!(seen.files[root.dir().join("a.txt").as_os_str()], inputs::Seen::File(hash));
//! // Not active any more: nothing is noted.
//! root.read(root.dir(), "a.txt").unwrap();
//! assert_eq!(recorder.inputs().files.len(), 1);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

use super::listing::{Kind, Listing};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};

pub use super::env_key::{hash_env, random_key};

/// A BLAKE3 hash.
pub type Hash = [u8; 32];

/// What a render found at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seen {
    /// A regular file it read: the hash of its bytes.
    File(Hash),
    /// A folder it listed: the hash of its entries' names and kinds.
    Folder(Hash),
    /// A path it looked at without reading: what was there.
    Kind(Kind),
    /// A path it looked for and found nothing at.
    Missing,
}

impl Seen {
    /// Whether `self` says more than `other` (a read beats a look).
    fn stronger(&self, other: &Seen) -> bool {
        matches!(self, Seen::File(_) | Seen::Folder(_)) && !matches!(other, Seen::File(_) | Seen::Folder(_))
    }
}

/// What one or more renders read: files by absolute path, and
/// environment variables by name (a keyed hash of the value, see
/// [`hash_env`]; `None` when the variable was not set). Inputs noted by
/// recorders with different keys hash the same value differently.
///
/// Paths are hashed, not ordered: ordering paths compares them component
/// by component, which took 31 M of the 68 M instructions tracking added
/// to a batch of 120 targets (callgrind, 2026-11-28); a manifest sorts
/// them once, as text. They are hashed as bytes (`OsString`s, as the file
/// layer joins them), not as `Path`s, whose hash splits them into
/// components again: 2.5 M instructions of the same batch. The hasher is
/// foldhash's, which the file layer's notes need at each read (the
/// standard one spent 2.5 M more there).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inputs {
    /// Paths inside a root, absolute (look one up by
    /// `path.as_os_str()`), and what was there.
    pub files: foldhash::HashMap<OsString, Seen>,
    /// Variable names and the keyed hashes of their values.
    pub env: BTreeMap<String, Option<Hash>>,
}

impl Inputs {
    /// Adds what `other` read (a read of a path beats a look at it).
    pub fn extend(&mut self, other: &Inputs) {
        for (path, seen) in &other.files {
            self.note(path, *seen);
        }
        self.env.extend(other.env.iter().map(|(k, v)| (k.clone(), *v)));
    }

    fn note(&mut self, path: &OsStr, seen: Seen) {
        match self.files.get_mut(path) {
            Some(old) if seen.stronger(old) => *old = seen,
            Some(_) => {}
            None => {
                self.files.insert(path.to_os_string(), seen);
            }
        }
    }

    /// The inputs as bytes (for a worker process to send back what its
    /// evaluation read); [`Inputs::decode`] reads them.
    ///
    /// ```
    /// use bpvm_runtime::root::inputs::{Inputs, Seen};
    /// let mut i = Inputs::default();
    /// i.files.insert("/p/a.jsonnet".into(), Seen::File([7; 32]));
    /// i.files.insert("/p/gone".into(), Seen::Missing);
    /// i.env.insert("HOME".into(), None);
    /// assert_eq!(Inputs::decode(&i.encode()), Some(i));
    /// ```
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for (path, seen) in &self.files {
            let (tag, hash) = match seen {
                Seen::File(h) => (b'f', *h),
                Seen::Folder(h) => (b'd', *h),
                Seen::Kind(Kind::File) => (b'F', [0; 32]),
                Seen::Kind(Kind::Folder) => (b'D', [0; 32]),
                Seen::Kind(Kind::Other) => (b'O', [0; 32]),
                Seen::Missing => (b'm', [0; 32]),
            };
            record(&mut out, tag, &hash, path.as_bytes());
        }
        for (name, hash) in &self.env {
            let tag = if hash.is_some() { b'e' } else { b'u' };
            record(&mut out, tag, &hash.unwrap_or_default(), name.as_bytes());
        }
        out
    }

    /// Reads what [`Inputs::encode`] wrote; `None` when it is not that.
    pub fn decode(mut bytes: &[u8]) -> Option<Inputs> {
        let mut inputs = Inputs::default();
        while !bytes.is_empty() {
            let (&tag, rest) = bytes.split_first()?;
            let hash: Hash = rest.get(..32)?.try_into().ok()?;
            let len = u32::from_le_bytes(rest.get(32..36)?.try_into().ok()?) as usize;
            let name = rest.get(36..36 + len)?;
            bytes = &rest[36 + len..];
            let path = || OsStr::from_bytes(name).to_os_string();
            let seen = match tag {
                b'f' => Seen::File(hash),
                b'd' => Seen::Folder(hash),
                b'F' => Seen::Kind(Kind::File),
                b'D' => Seen::Kind(Kind::Folder),
                b'O' => Seen::Kind(Kind::Other),
                b'm' => Seen::Missing,
                b'e' | b'u' => {
                    let name = String::from_utf8(name.to_vec()).ok()?;
                    inputs.env.insert(name, (tag == b'e').then_some(hash));
                    continue;
                }
                _ => return None,
            };
            inputs.files.insert(path(), seen);
        }
        Some(inputs)
    }
}

fn record(out: &mut Vec<u8>, tag: u8, hash: &Hash, name: &[u8]) {
    out.push(tag);
    out.extend_from_slice(hash);
    out.extend_from_slice(&(name.len() as u32).to_le_bytes());
    out.extend_from_slice(name);
}

/// Where reads are noted while it is active on a thread (see [`track`]);
/// shared by threads and renders alike (a template's load and each of its
/// targets' renders may note into one, or each into its own). Its key is
/// what environment variables' values are hashed under.
pub struct Recorder(Mutex<Inputs>, Hash);

// Not derived: the key stays out of anything printed.
impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Recorder").field(&self.0).finish_non_exhaustive()
    }
}

impl Recorder {
    /// An empty recorder with this process's key (random, made once).
    pub fn new() -> Arc<Recorder> {
        Recorder::keyed(super::env_key::process_key())
    }

    /// An empty recorder that hashes environment variables' values under
    /// `key` (recorders whose notes are kept or compared across processes
    /// share one).
    ///
    /// ```
    /// use bpvm_runtime::root::inputs::{self, Recorder};
    /// let r = Recorder::keyed([7; 32]);
    /// inputs::track(&r, || inputs::env("TOKEN", Some(b"s3cret")));
    /// assert_eq!(r.inputs().env["TOKEN"], Some(inputs::hash_env(&[7; 32], b"s3cret")));
    /// assert_eq!(r.key(), [7; 32]);
    /// ```
    pub fn keyed(key: Hash) -> Arc<Recorder> {
        Arc::new(Recorder(Mutex::default(), key))
    }

    /// The key environment variables' values are hashed under.
    pub fn key(&self) -> Hash {
        self.1
    }

    /// What was noted so far.
    pub fn inputs(&self) -> Inputs {
        self.0.lock().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// What was noted so far, leaving the recorder empty (a recorder done
    /// with is not copied).
    ///
    /// ```
    /// use bpvm_runtime::root::inputs::{self, Recorder};
    /// let r = Recorder::new();
    /// inputs::track(&r, || inputs::env("HOME", None));
    /// assert_eq!(r.take().env.len(), 1);
    /// assert!(r.take().env.is_empty());
    /// ```
    pub fn take(&self) -> Inputs {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }

    fn with(&self, f: impl FnOnce(&mut Inputs)) {
        f(&mut self.0.lock().unwrap_or_else(PoisonError::into_inner));
    }
}

thread_local! {
    static ACTIVE: RefCell<Option<Arc<Recorder>>> = const { RefCell::new(None) };
}

/// Runs `f` with `recorder` active on this thread: what `f` reads is
/// noted in it. The recorder active before (if any) is active again
/// after, also when `f` panics.
pub fn track<T>(recorder: &Arc<Recorder>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<Recorder>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            ACTIVE.with(|a| *a.borrow_mut() = before);
        }
    }
    let before = ACTIVE.with(|a| a.replace(Some(Arc::clone(recorder))));
    let _restore = Restore(before);
    f()
}

/// Runs `f` with no recorder active on this thread: what it reads is not
/// noted. The recorder active before is active again after.
pub(super) fn quiet<T>(f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Arc<Recorder>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            ACTIVE.with(|a| *a.borrow_mut() = before);
        }
    }
    let _restore = Restore(ACTIVE.with(|a| a.replace(None)));
    f()
}

/// Whether a recorder is active on this thread.
pub fn tracking() -> bool {
    ACTIVE.with(|a| a.borrow().is_some())
}

fn active(f: impl FnOnce(&mut Inputs)) {
    ACTIVE.with(|a| {
        if let Some(r) = a.borrow().as_ref() {
            r.with(f);
        }
    });
}

/// Notes the bytes of the file at `path` as read. A file the active
/// recorder has already seen read is not hashed again: a render reads some
/// files (Jsonnet libraries) once per call, and its first read is what
/// a later check compares with.
pub(super) fn file(path: &Path, bytes: &[u8]) {
    let read_before = ACTIVE.with(|a| match a.borrow().as_ref() {
        None => true,
        Some(r) => {
            r.0.lock()
                .unwrap_or_else(PoisonError::into_inner)
                .files
                .get(path.as_os_str())
                .is_some_and(|s| matches!(s, Seen::File(_)))
        }
    });
    if !read_before {
        let hash = *blake3::hash(bytes).as_bytes();
        active(|i| i.note(path.as_os_str(), Seen::File(hash)));
    }
}

/// Notes what was found at `path`.
pub(super) fn seen(path: &Path, seen: Seen) {
    active(|i| i.note(path.as_os_str(), seen));
}

/// Notes a folder listed at `path`.
pub(super) fn folder(path: &Path, listing: &Listing) {
    if tracking() {
        let hash = listing_hash(listing);
        active(|i| i.note(path.as_os_str(), Seen::Folder(hash)));
    }
}

/// The hash of a listing: each entry's name and kind (a link's kind is its
/// target's; a link that leads nowhere readable counts as "other").
pub(super) fn listing_hash(listing: &Listing) -> Hash {
    let mut h = blake3::Hasher::new();
    for e in &listing.entries {
        let name = e.name.as_bytes();
        h.update(&(name.len() as u64).to_le_bytes());
        h.update(name);
        h.update(match e.kind {
            Ok(Kind::File) => b"f",
            Ok(Kind::Folder) => b"d",
            _ => b"o",
        });
    }
    *h.finalize().as_bytes()
}

/// Notes an environment variable a render read: its name and the hash of
/// its value keyed by the active recorder's key (`None`: not set). The
/// value itself, and any plain hash of it, is never kept.
///
/// ```
/// use bpvm_runtime::root::inputs;
/// let r = inputs::Recorder::new();
/// inputs::track(&r, || inputs::env("TOKEN", Some(b"s3cret")));
/// assert_eq!(r.inputs().env["TOKEN"], Some(inputs::hash_env(&r.key(), b"s3cret")));
/// assert_ne!(r.inputs().env["TOKEN"], Some(inputs::hash_value(b"s3cret")));
/// ```
pub fn env(name: &str, value: Option<&[u8]>) {
    ACTIVE.with(|a| {
        if let Some(r) = a.borrow().as_ref() {
            let hash = value.map(|v| hash_env(&r.1, v));
            r.with(|i| {
                i.env.insert(name.to_string(), hash);
            });
        }
    });
}

/// The hash a file's bytes are noted by (plain BLAKE3: a file's hash
/// tells no secret a reader of the file could not; environment
/// variables are keyed, see [`hash_env`]).
pub fn hash_value(value: &[u8]) -> Hash {
    *blake3::hash(value).as_bytes()
}

/// Notes everything in `inputs` (what a worker process read for this
/// thread's render).
pub fn add(inputs: &Inputs) {
    active(|i| i.extend(inputs));
}
