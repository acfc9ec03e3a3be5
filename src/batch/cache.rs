//! The render cache: a folder of complete files, each written to a
//! temporary file beside it and renamed into place, so that readers (and
//! other batches sharing the folder) see a whole file or none, with no
//! lock.
//!
//! - `index/<hash of the target's identity>.json`: the target's last
//!   [`Manifest`]. A render's inputs are known only after it, so a later
//!   run reads the manifest, checks each of its inputs again, and when all
//!   are as they were, its key names the output.
//! - `objects/<key>`: a rendered output, exactly as the batch writes it
//!   (masked values stay masked: the cache never holds more than the
//!   output folder would), after a first line with a checksum of the rest.
//!   A file that does not match its checksum is a miss, rendered again and
//!   written over.
//!
//! - `key`: the key environment variables' values are hashed under in
//!   the manifests (see `cache_key`).
//!
//! Reading an entry sets its modification time, so [`Cache::evict`]
//! removes the least recently used first.

use super::cache_key::cache_key;
use super::manifest::{Checked, Manifest, hex};
use super::target::{Kind, Target};
use super::template::Output;
use bpvm_runtime::root::inputs::Hash;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The first word of an object's first line.
const OBJECT: &str = "bpvm-cache-object-1";

/// A render cache folder.
///
/// ```
/// use bpvm::batch::{Cache, Options, Target, run};
/// let dir = std::env::temp_dir().join(format!("bpvm-cache-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("q.yaml"), "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: orders}\n").unwrap();
/// let targets = [Target::bluelink(&dir, "q.yaml", None, Default::default())];
/// let options = Options { cache: Some(Cache::open(&dir.join(".cache")).unwrap()), ..Options::default() };
/// let first = run(&targets, &options, &());
/// let second = run(&targets, &options, &());
/// assert_eq!(first[0].status, bpvm::batch::Status::Ok);
/// assert!(!first[0].cached && second[0].cached);
/// assert_eq!(first[0].manifest, second[0].manifest);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
    key: Hash,
}

// Not derived: the key stays out of anything printed.
impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache").field("dir", &self.dir).finish_non_exhaustive()
    }
}

/// An object's body.
#[derive(Serialize, Deserialize)]
struct Stored {
    text: String,
    notes: Vec<String>,
}

impl Cache {
    /// The cache in `dir`, made if it does not exist (with a new random
    /// key, see [`Cache::key`]).
    pub fn open(dir: &Path) -> io::Result<Cache> {
        for sub in ["index", "objects", "tmp"] {
            std::fs::create_dir_all(dir.join(sub))?;
        }
        Ok(Cache {
            dir: dir.to_path_buf(),
            key: cache_key(dir)?,
        })
    }

    /// The key environment variables' values are hashed under in the
    /// manifests of batches that use this cache: the same for every batch
    /// that opens the folder, kept in its file `key`.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("bpvm-cache-key-doc-{}", std::process::id()));
    /// let one = bpvm::batch::Cache::open(&dir).unwrap();
    /// let two = bpvm::batch::Cache::open(&dir).unwrap();
    /// assert_eq!(one.key(), two.key());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn key(&self) -> Hash {
        self.key
    }

    /// The cache's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The index entry of `target`: named by what identifies it (its base,
    /// id, template and the files that pick its render out).
    fn index(&self, target: &Target) -> PathBuf {
        let mut who = format!(
            "{}\n{}\n{}\n",
            target.base.display(),
            target.id,
            target.template.display()
        );
        if let Kind::Bluelink { files, .. } = &target.kind {
            for f in [&files.vars, &files.datasources, &files.resource_state] {
                who.push_str(&f.as_ref().map(|p| p.display().to_string()).unwrap_or_default());
                who.push('\n');
            }
        }
        let name = hex(blake3::hash(who.as_bytes()).as_bytes());
        self.dir.join("index").join(format!("{name}.json"))
    }

    fn object(&self, key: &str) -> PathBuf {
        self.dir.join("objects").join(key)
    }

    /// `target`'s last manifest, when every input of it is as it was (a
    /// render now would read the same), without touching the entry.
    pub(crate) fn current(
        &self,
        target: &Target,
        version: &str,
        options: &BTreeMap<String, String>,
        seen: &mut Checked,
    ) -> Option<Manifest> {
        let manifest: Manifest = serde_json::from_slice(&std::fs::read(self.index(target)).ok()?).ok()?;
        manifest
            .unchanged(target, version, options, &self.key, seen)
            .then_some(manifest)
    }

    /// `target`'s output from the cache, with its manifest, when every
    /// input of its last manifest is unchanged and the stored output is
    /// whole.
    pub(crate) fn lookup(
        &self,
        target: &Target,
        version: &str,
        options: &BTreeMap<String, String>,
        seen: &mut Checked,
    ) -> Option<(Manifest, Output)> {
        let index = self.index(target);
        let manifest: Manifest = serde_json::from_slice(&std::fs::read(&index).ok()?).ok()?;
        if !manifest.unchanged(target, version, options, &self.key, seen) {
            return None;
        }
        let object = self.object(&manifest.key);
        let stored = read_object(&std::fs::read(&object).ok()?)?;
        // Both were used: neither is the least recently used.
        for used in [&index, &object] {
            let _ = std::fs::File::options()
                .append(true)
                .open(used)
                .and_then(|f| f.set_modified(SystemTime::now()));
        }
        let output = Output {
            text: stored.text,
            notes: stored.notes,
        };
        Some((manifest, output))
    }

    /// Stores `output` under `manifest`'s key and makes `manifest`
    /// `target`'s index entry.
    pub(crate) fn store(&self, target: &Target, manifest: &Manifest, output: &Output) -> io::Result<()> {
        let body = serde_json::to_vec(&Stored {
            text: output.text.clone(),
            notes: output.notes.clone(),
        })?;
        let mut object = format!("{OBJECT} {}\n", hex(blake3::hash(&body).as_bytes())).into_bytes();
        object.extend_from_slice(&body);
        self.put(&self.object(&manifest.key), &object)?;
        self.put(&self.index(target), &serde_json::to_vec(manifest)?)
    }

    /// Writes `bytes` to `path` whole: a temporary file renamed into place.
    fn put(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut tmp = tempfile::NamedTempFile::new_in(self.dir.join("tmp"))?;
        tmp.write_all(bytes)?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    }

    /// Removes the least recently used entries until the cache holds at
    /// most `max_bytes`; returns how many files it removed. An entry
    /// another batch is reading as it goes is a miss there, never a wrong
    /// output.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("bpvm-evict-doc-{}", std::process::id()));
    /// let cache = bpvm::batch::Cache::open(&dir).unwrap();
    /// std::fs::write(dir.join("objects/a"), vec![0u8; 100]).unwrap();
    /// assert_eq!(cache.evict(1000).unwrap(), 0);
    /// assert_eq!(cache.evict(10).unwrap(), 1);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn evict(&self, max_bytes: u64) -> io::Result<usize> {
        self.clear_abandoned()?;
        let mut files = Vec::new();
        for sub in ["objects", "index"] {
            for entry in std::fs::read_dir(self.dir.join(sub))? {
                let entry = entry?;
                let Ok(meta) = entry.metadata() else { continue };
                let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                files.push((used, meta.len(), entry.path()));
            }
        }
        let mut total: u64 = files.iter().map(|f| f.1).sum();
        files.sort();
        let mut removed = 0;
        for (_, len, path) in files {
            if total <= max_bytes {
                break;
            }
            // Gone already (another batch evicting): counted all the same.
            let _ = std::fs::remove_file(&path);
            total = total.saturating_sub(len);
            removed += 1;
        }
        Ok(removed)
    }
}

impl Cache {
    /// Removes temporary files a killed batch left (a write under way
    /// takes seconds, not an hour).
    fn clear_abandoned(&self) -> io::Result<()> {
        let hour_ago = SystemTime::now() - std::time::Duration::from_secs(3600);
        for entry in std::fs::read_dir(self.dir.join("tmp"))? {
            let entry = entry?;
            let old = entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t < hour_ago);
            if old {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(())
    }
}

/// An object's body, when its checksum holds.
fn read_object(bytes: &[u8]) -> Option<Stored> {
    let end = bytes.iter().position(|&b| b == b'\n')?;
    let head = std::str::from_utf8(&bytes[..end]).ok()?;
    let sum = head.strip_prefix(OBJECT)?.trim();
    let body = &bytes[end + 1..];
    if hex(blake3::hash(body).as_bytes()) != sum {
        return None;
    }
    serde_json::from_slice(body).ok()
}
