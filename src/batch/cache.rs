//! The render cache: a folder of complete files, each written to a
//! temporary file in its `tmp` folder and renamed into place, so that
//! readers (and other batches sharing the folder) see a whole file or
//! none, with no lock.
//!
//! - `entries/<hash of the target's identity>`: one file per target, its
//!   last [`Manifest`] and the output rendered under it, as the batch
//!   writes it (after the `# Rendered by bpvm` line of YAML; masked
//!   values stay masked: the cache never holds more than the output
//!   folder would), with a checksum (see `cache_entry`). A render's
//!   inputs are known only after it, so a later run reads the manifest,
//!   checks each of its inputs again, and when all are as they were,
//!   takes the output beside it. A file that is not a whole entry of its
//!   target is a miss, rendered again and written over.
//! - `key`: the key environment variables' values are hashed under in
//!   the manifests (see `cache_key`).
//! - `tmp`: files being written.
//!
//! Taking an entry sets its modification time (when it is over an hour
//! old), so [`Cache::evict`] removes the least recently used first.
//!
//! Layout 1 kept each target in two files, `index/<identity>.json` (the
//! manifest) and `objects/<manifest key>` (the output); a profile of a
//! cold run over 1,200 targets put a quarter of its samples in creating
//! those 2,400 files. Its files are never read, and eviction removes
//! them. The output follows the entry's first line raw: escaping it into
//! a JSON string and back cost more (see below).
//!
//! Measured 2026-11-28 (2-core machine, shared; release build; the
//! generated 1,200-target monorepo, `bpvm batch --jobs 2 --out`): three
//! sessions, each of 5 interleaved runs of every kind with this layout
//! and with layout 1 (the same day's main); per session the medians of
//! wall seconds (user + system):
//!
//! ```text
//! cold --cache, this layout  1.38 (1.34 + 1.10)  2.46 (1.52 + 2.23)  2.11 (1.47 + 2.43)
//! cold --cache, layout 1     2.65 (1.47 + 1.74)  2.67 (1.45 + 3.24)  2.58 (1.47 + 3.30)
//! warm --cache, this layout  0.50 (0.22 + 0.42)  0.91 (0.27 + 0.95)  1.06 (0.30 + 1.07)
//! warm --cache, layout 1     0.45 (0.25 + 0.30)  0.97 (0.25 + 0.91)  0.95 (0.29 + 1.04)
//! no cache, this build       1.07 (1.25 + 0.63)  1.30 (1.27 + 1.15)  1.35 (1.30 + 1.12)
//! no cache, main             1.12 (1.27 + 0.58)  1.62 (1.32 + 1.13)  1.51 (1.35 + 1.28)
//! ```
//!
//! A cold run took 48 %, 8 % and 18 % less wall time and 26–37 % less
//! system time; user time and warm runs are unchanged. The folder holds
//! 1,201 files (16 MB) instead of 2,401 (21 MB). Writing and reading back
//! the 1,200 outputs (9.7 MB) with their checksums took 12 ms raw against
//! 27 ms as JSON strings.

use super::cache_entry::{read_entry, write_entry};
use super::cache_key::cache_key;
use super::manifest::{Checked, Manifest, hex};
use super::target::{Kind, Target};
use super::template::Output;
use bpvm_runtime::root::inputs::Hash;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The folders of layout 1, removed by [`Cache::evict`].
const OLD_LAYOUT: [&str; 2] = ["index", "objects"];

/// How old an entry's modification time must be for a hit to set it
/// again: eviction tells entries used within the hour apart no more.
const USED_AGAIN_AFTER: Duration = Duration::from_secs(3600);

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
    /// Whether a batch takes outputs from it (see [`Cache::storing_only`]).
    lookups: bool,
}

// Not derived: the key stays out of anything printed.
impl std::fmt::Debug for Cache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cache").field("dir", &self.dir).finish_non_exhaustive()
    }
}

impl Cache {
    /// The cache in `dir`, made if it does not exist (with a new random
    /// key, see [`Cache::key`]).
    pub fn open(dir: &Path) -> io::Result<Cache> {
        for sub in ["entries", "tmp"] {
            std::fs::create_dir_all(dir.join(sub))?;
        }
        Ok(Cache {
            dir: dir.to_path_buf(),
            key: cache_key(dir)?,
            lookups: true,
        })
    }

    /// The same cache, but a batch given it only stores what it renders:
    /// for the renders of targets whose outputs were already looked for
    /// (see [`take_cached`](super::take_cached)), which would only read
    /// their entries again.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("bpvm-storing-doc-{}", std::process::id()));
    /// let cache = bpvm::batch::Cache::open(&dir).unwrap();
    /// assert_eq!(cache.clone().storing_only().key(), cache.key());
    /// assert_ne!(cache.clone().storing_only(), cache);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn storing_only(self) -> Cache {
        Cache { lookups: false, ..self }
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

    /// What names `target`'s entry: a hash of what identifies it (its
    /// base, id, template and the files that pick its render out).
    fn identity(&self, target: &Target) -> String {
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
        hex(blake3::hash(who.as_bytes()).as_bytes())
    }

    fn entry(&self, identity: &str) -> PathBuf {
        self.dir.join("entries").join(identity)
    }

    /// `target`'s entry, when it has a whole one: the open file, when it
    /// was last used, its manifest and output.
    fn read(&self, target: &Target) -> Option<(File, SystemTime, Manifest, Output)> {
        let identity = self.identity(target);
        let mut file = File::open(self.entry(&identity)).ok()?;
        let meta = file.metadata().ok()?;
        // Entries are renamed into place whole, never written in place:
        // its length now is its length.
        let mut bytes = vec![0; usize::try_from(meta.len()).ok()?];
        file.read_exact(&mut bytes).ok()?;
        let (manifest, output) = read_entry(&bytes, &identity)?;
        Some((file, meta.modified().ok()?, manifest, output))
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
        let (_, _, manifest, _) = self.read(target)?;
        manifest
            .unchanged(target, version, options, &self.key, seen)
            .then_some(manifest)
    }

    /// `target`'s output from the cache, with its manifest, when every
    /// input of its last manifest is unchanged and the entry is whole.
    pub(crate) fn lookup(
        &self,
        target: &Target,
        version: &str,
        options: &BTreeMap<String, String>,
        seen: &mut Checked,
    ) -> Option<(Manifest, Output)> {
        if !self.lookups {
            return None;
        }
        let (file, used, manifest, output) = self.read(target)?;
        if !manifest.unchanged(target, version, options, &self.key, seen) {
            return None;
        }
        // Used: not the least recently used. Once an hour at most: setting
        // the time on every hit was three of a hit's twenty-odd system
        // calls.
        let now = SystemTime::now();
        if now.duration_since(used).is_ok_and(|age| age > USED_AGAIN_AFTER) {
            let _ = file.set_modified(now);
        }
        Some((manifest, output))
    }

    /// Makes `manifest` (its JSON as an entry keeps it, with each facet
    /// left out's bytes) and `output` `target`'s entry, written whole: a
    /// temporary file renamed into place.
    pub(crate) fn store(&self, target: &Target, manifest: &[u8], output: &Output) -> io::Result<()> {
        let identity = self.identity(target);
        let mut tmp = BufWriter::new(tempfile::NamedTempFile::new_in(self.dir.join("tmp"))?);
        write_entry(&mut tmp, &identity, manifest, output)?;
        let tmp = tmp.into_inner().map_err(|e| e.into_error())?;
        tmp.persist(self.entry(&identity)).map_err(|e| e.error)?;
        Ok(())
    }

    /// Removes the least recently used entries until the cache holds at
    /// most `max_bytes`, and every file of layout 1; returns how many
    /// files it removed. An entry
    /// another batch is reading as it goes is a miss there, never a wrong
    /// output.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("bpvm-evict-doc-{}", std::process::id()));
    /// let cache = bpvm::batch::Cache::open(&dir).unwrap();
    /// std::fs::write(dir.join("entries/a"), vec![0u8; 100]).unwrap();
    /// assert_eq!(cache.evict(1000).unwrap(), 0);
    /// assert_eq!(cache.evict(10).unwrap(), 1);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn evict(&self, max_bytes: u64) -> io::Result<usize> {
        self.clear_abandoned()?;
        let mut removed = self.clear_old_layout()?;
        let mut files = Vec::new();
        for entry in std::fs::read_dir(self.dir.join("entries"))? {
            let entry = entry?;
            let Ok(meta) = entry.metadata() else { continue };
            let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
            files.push((used, meta.len(), entry.path()));
        }
        let mut total: u64 = files.iter().map(|f| f.1).sum();
        files.sort();
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
        let hour_ago = SystemTime::now() - Duration::from_secs(3600);
        for entry in std::fs::read_dir(self.dir.join("tmp"))? {
            let entry = entry?;
            let old = entry.metadata().and_then(|m| m.modified()).is_ok_and(|t| t < hour_ago);
            if old {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(())
    }

    /// Removes the files of layout 1, which no batch of this layout
    /// reads; returns how many. Files another batch removes meanwhile
    /// are no error.
    fn clear_old_layout(&self) -> io::Result<usize> {
        let mut removed = 0;
        for sub in OLD_LAYOUT {
            let dir = self.dir.join(sub);
            let entries = match std::fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
            };
            for entry in entries {
                if std::fs::remove_file(entry?.path()).is_ok() {
                    removed += 1;
                }
            }
            let _ = std::fs::remove_dir(&dir);
        }
        Ok(removed)
    }
}
