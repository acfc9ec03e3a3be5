//! A target's manifest: everything its output depends on — each file its
//! render read (and its template's load), each folder listed, each path
//! looked at, each environment variable `env()` read, the options that
//! change output and bpvm's version — and the key that hashes it all.
//!
//! Paths are relative to the target's [`base`](super::Target::base) with
//! `/` separators (the folder the batch searched, which holds every file a
//! target may read), so that a manifest names the same files on every
//! machine and a changed file's path is looked up as written. Hashes are
//! BLAKE3, in hex. Environment variables are named, and their values
//! hashed under a key (the render cache's, or one made for the run: see
//! [`Options::env_key`](super::Options::env_key)), never kept.

mod json;
mod named;

pub(crate) use named::{Made, Named};

use super::target::{Target, slashed};
use super::template::Format;
use bpvm_runtime::root::inputs::{self, Hash, Inputs, Seen};
use bpvm_runtime::root::{Kind, Root};
use bpvm_windsor::{Facet, Project};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a target's output depends on, and the key that hashes it.
///
/// ```
/// use bpvm::batch::{Options, Target, run};
/// let dir = std::env::temp_dir().join(format!("bpvm-manifest-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("q.yaml"), "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: orders}\n").unwrap();
/// let targets = [Target::bluelink(&dir, "q.yaml", None, Default::default())];
/// let records = run(&targets, &Options { track: true, ..Options::default() }, &());
/// let manifest = records[0].manifest.as_ref().unwrap();
/// assert!(manifest.inputs.files.contains_key("q.yaml"));
/// assert_eq!(manifest.key.len(), 64);
/// assert_eq!(manifest.options["format"], "yaml");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// The BLAKE3 hash (hex) of everything below: equal keys, equal
    /// output.
    pub key: String,
    /// The target's id (the same inputs may render differently for
    /// another context's name).
    pub target: String,
    /// The version of bpvm that rendered it.
    pub bpvm: String,
    /// The options that change output (`format`, `strict`).
    pub options: BTreeMap<String, String>,
    /// What the render read.
    pub inputs: Read,
}

/// The inputs of a [`Manifest`], paths relative to the target's base.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Read {
    /// Files read: the BLAKE3 hash of their bytes.
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// Folders listed: a hash of their entries' names and kinds (a new
    /// context folder or facet changes it).
    #[serde(default)]
    pub folders: BTreeMap<String, String>,
    /// Paths looked at without being read: `file`, `folder`, `other`, or
    /// `missing` (a file that appears there is a change too).
    #[serde(default)]
    pub paths: BTreeMap<String, String>,
    /// Environment variables read: the keyed hash of the value (see
    /// [`hash_env`](bpvm_runtime::root::inputs::hash_env)), `null` when
    /// unset.
    #[serde(default)]
    pub env: BTreeMap<String, Option<String>>,
    /// Windsor facet files the render left out by their condition (in
    /// no inclusion round did it hold): instead of the whole file, the
    /// hash of what such a render depends on — the condition, the
    /// facet's name, ordinal and forms, what it would provide, and
    /// whether it loads cleanly (see [`bpvm_windsor::facet_left_out`]).
    /// Editing the rest of the facet changes nothing for this target.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub facets_left_out: BTreeMap<String, LeftOut>,
}

impl Read {
    /// What `reads` read, one after the other, named relative to `base`,
    /// the facet files of `left_out` entered as left out rather than as
    /// read (those among the files read). Made this way, entry by entry,
    /// for one render; a batch's manifests are made as JSON from their
    /// template's load, which a test checks against this.
    pub(crate) fn of(base: &Path, reads: &[&Inputs], left_out: &LeftOuts) -> Read {
        let mut read = Read::default();
        for inputs in reads {
            read.add(base, inputs);
        }
        for left in left_out {
            let (path, entry) = &**left;
            let rel = relative(base, path);
            if read.files.remove(&rel).is_some() {
                read.facets_left_out.insert(rel, entry.clone());
            }
        }
        read
    }

    /// Enters what `inputs` read, named relative to `base`.
    fn add(&mut self, base: &Path, inputs: &Inputs) {
        for (path, seen) in &inputs.files {
            self.note(relative(base, Path::new(path)), seen);
        }
        for (name, value) in &inputs.env {
            self.env.insert(name.clone(), value.as_ref().map(hex));
        }
    }

    /// Enters what was seen at `rel`; a read beats a look, and what was
    /// seen first stays.
    fn note(&mut self, rel: String, seen: &Seen) {
        match seen {
            Seen::File(h) => {
                self.paths.remove(&rel);
                self.files.entry(rel).or_insert_with(|| hex(h));
            }
            Seen::Folder(h) => {
                self.paths.remove(&rel);
                self.folders.entry(rel).or_insert_with(|| hex(h));
            }
            other if !self.files.contains_key(&rel) && !self.folders.contains_key(&rel) => {
                self.paths.entry(rel).or_insert_with(|| looked(other).to_string());
            }
            _ => {}
        }
    }
}

/// A facet file a render left out: the rules its project was loaded by
/// (`seed` or `v0.9`, which its hash depends on) and the hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeftOut {
    /// `seed` or `v0.9`.
    pub rules: String,
    /// [`bpvm_windsor::facet_left_out`] of the file, in hex.
    pub hash: String,
    /// The BLAKE3 hash (hex) of the file's bytes when the entry was made:
    /// while they are the same, checking the entry needs no parse of the
    /// facet. Not part of the manifest's key (an edit the render does not
    /// depend on changes it), and kept only where the render cache keeps
    /// the manifest: written as JSON (in a report), a manifest leaves it
    /// out (a sixth of a report's bytes).
    #[serde(default, skip_serializing)]
    pub bytes: Option<String>,
}

impl LeftOut {
    /// The entry of the facet file `file` (relative to its project) whose
    /// bytes are `bytes`, for a project loaded by the v0.9 rules when
    /// `v09`.
    ///
    /// ```
    /// use bpvm::batch::LeftOut;
    /// let file = "contexts/_template/facets/a.yaml";
    /// let one = LeftOut::of(file, b"kind: Facet\nmetadata: {name: a}\nwhen: x == 1\nconfig: [{name: c, k: 1}]\n", false);
    /// let two = LeftOut::of(file, b"kind: Facet\nmetadata: {name: a}\nwhen: x == 1\nconfig: [{name: c, k: 2}]\n", false);
    /// assert!(one.decides_as(&two));
    /// assert_ne!(one.bytes, two.bytes);
    /// assert_eq!(one.rules, "seed");
    /// ```
    pub fn of(file: &str, bytes: &[u8], v09: bool) -> LeftOut {
        let hash = bpvm_windsor::facet_left_out(file, bytes, v09);
        LeftOut::hashed(&hash, &inputs::hash_value(bytes), v09)
    }

    /// The entry of a facet whose [`bpvm_windsor::facet_left_out`] hash
    /// is `hash`, of a file whose bytes hash as `bytes`.
    pub(crate) fn hashed(hash: &Hash, bytes: &Hash, v09: bool) -> LeftOut {
        LeftOut {
            rules: rules_name(v09).to_string(),
            hash: hex(hash),
            bytes: Some(hex(bytes)),
        }
    }

    /// Whether a render that leaves out the facet of `self` is the same as
    /// one that leaves out that of `other` (the same rules and hash).
    pub fn decides_as(&self, other: &LeftOut) -> bool {
        self.rules == other.rules && self.hash == other.hash
    }

    /// The entry of `facet` of `project` (loaded by the v0.9 rules when
    /// `v09`, reading `load_read`), by the facet file's absolute path: the
    /// hash its load noted, or, for a facet that loaded with a warning,
    /// the file's bytes — when they are still what the load read.
    pub(crate) fn loaded(
        project: &Project,
        facet: &Facet,
        load_read: &Inputs,
        v09: bool,
    ) -> Option<(PathBuf, LeftOut)> {
        let path = project.root.dir().join(&facet.file);
        if let (Some(hash), Some(Seen::File(bytes))) = (facet.left_out, load_read.files.get(path.as_os_str())) {
            return Some((path, LeftOut::hashed(&hash, bytes, v09)));
        }
        let bytes = project.root.read(project.root.dir(), &facet.file).ok()?;
        (load_read.files.get(path.as_os_str()) == Some(&Seen::File(inputs::hash_value(&bytes))))
            .then(|| (path, LeftOut::of(&facet.file, &bytes, v09)))
    }

    /// Whether the entry was made by the v0.9 rules; `None` when its
    /// `rules` names neither.
    pub fn v09(&self) -> Option<bool> {
        match self.rules.as_str() {
            "seed" => Some(false),
            "v0.9" => Some(true),
            _ => None,
        }
    }
}

fn rules_name(v09: bool) -> &'static str {
    if v09 { "v0.9" } else { "seed" }
}

/// A facet file left out, by absolute path, and its entry (shared: a
/// template's renders leave out the same facets, each entry made once).
pub(crate) type LeftOutAt = Arc<(PathBuf, LeftOut)>;

/// The facet files a render left out.
pub(crate) type LeftOuts = Vec<LeftOutAt>;

/// The options of a batch that change a target's output, as a manifest
/// names them. `secrets: masked` says the stored output masks what is
/// computed from secrets: an entry stored before Windsor output was
/// masked lacks it, so it is rendered again rather than served.
pub(crate) fn output_options(format: Format, strict: bool) -> BTreeMap<String, String> {
    BTreeMap::from([
        ("format".to_string(), format.extension().to_string()),
        ("secrets".to_string(), "masked".to_string()),
        ("strict".to_string(), strict.to_string()),
    ])
}

impl Manifest {
    /// Whether rendering `target` again with `version` and `options` would
    /// read the same: the same version and options, and every input as it
    /// was (files read again through the target's base, variables hashed
    /// under `key`, the one the manifest was made with). The manifest's
    /// own key is not checked against the rest: the entry it came from is
    /// checked whole, and whoever could make an entry that passes that
    /// could make a key that passes too (checking it was a tenth of a warm
    /// run). `seen` keeps what each path holds now, so that the targets of
    /// one template check the files they share once.
    pub(crate) fn unchanged(
        &self,
        target: &Target,
        version: &str,
        options: &BTreeMap<String, String>,
        key: &Hash,
        seen: &mut Checked,
    ) -> bool {
        if self.target != target.id || self.bpvm != version || &self.options != options {
            return false;
        }
        let Some(root) = seen.root(&target.base) else {
            return false;
        };
        let seen = &mut seen.paths;
        let mut same = |rel: &str, before: Seen| {
            let path = root.dir().join(rel).into_os_string();
            let sort = match before {
                Seen::File(_) => 0,
                Seen::Folder(_) => 1,
                _ => 2,
            };
            let now = seen
                .entry((path, sort))
                .or_insert_with_key(|(path, _)| root.seen_again(Path::new(path), &before));
            *now == before
        };
        let files = self.inputs.files.iter().map(|(rel, h)| (rel, unhex(h).map(Seen::File)));
        let folders = self
            .inputs
            .folders
            .iter()
            .map(|(rel, h)| (rel, unhex(h).map(Seen::Folder)));
        let paths = self.inputs.paths.iter().map(|(rel, k)| (rel, unlooked(k)));
        files
            .chain(folders)
            .chain(paths)
            .all(|(rel, before)| before.is_some_and(|b| same(rel, b)))
            && self.facets_unchanged(target, &root, seen)
            && self.inputs.env.iter().all(|(name, h)| env_hash(key, name) == *h)
    }

    /// Whether each facet file left out still hashes as it did.
    fn facets_unchanged(&self, target: &Target, root: &Root, seen: &mut Now) -> bool {
        // Resolved only for a facet whose bytes changed (it costs a system
        // call for each part of the path).
        let project = std::cell::OnceCell::new();
        self.inputs.facets_left_out.iter().all(|(rel, entry)| {
            let path = root.dir().join(rel).into_os_string();
            let Some(v09) = entry.v09() else { return false };
            // Bytes as they were: nothing to parse.
            if let Some(bytes) = entry.bytes.as_deref().and_then(unhex) {
                let before = Seen::File(bytes);
                let now = seen
                    .entry((path.clone(), 0))
                    .or_insert_with_key(|(path, _)| root.seen_again(Path::new(path), &before));
                if *now == before {
                    return true;
                }
            }
            let sort = if v09 { 4 } else { 3 };
            let now = seen.entry((path, sort)).or_insert_with_key(|(path, _)| {
                let path = Path::new(path);
                let Ok(file) = path.strip_prefix(project.get_or_init(|| real(&target.template))) else {
                    return Seen::Missing;
                };
                match root.read_os(path, &path.to_string_lossy()) {
                    Ok(bytes) => Seen::File(bpvm_windsor::facet_left_out(&slashed(file), &bytes, v09)),
                    Err(_) => Seen::Missing,
                }
            });
            unhex(&entry.hash).is_some_and(|h| *now == Seen::File(h))
        })
    }
}

/// What paths hold now, by absolute path (hashed as bytes: as `Path`s,
/// split into parts, they were 3 % of a warm run) and the way they were
/// seen (0 read, 1 listed, 2 looked at, 3 and 4 a facet left out by the
/// seed and the v0.9 rules).
type Now = foldhash::HashMap<(OsString, u8), Seen>;

/// What the manifests of one batch found when checked: what paths hold
/// now ([`Now`]), and the batch folder last opened (the targets of a
/// template share it: opening it took a system call for each part of its
/// path, and two more).
#[derive(Default)]
pub(crate) struct Checked {
    paths: Now,
    root: Option<(PathBuf, Root)>,
}

impl Checked {
    /// The batch folder `base`, opened once while it is the same.
    fn root(&mut self, base: &Path) -> Option<Root> {
        match &self.root {
            Some((given, root)) if given == base => Some(root.clone()),
            _ => {
                let root = Root::new(base, "batch folder").ok()?;
                self.root = Some((base.to_path_buf(), root.clone()));
                Some(root)
            }
        }
    }
}

/// The hash (hex) of the environment variable `name`'s value now, under
/// `key`.
fn env_hash(key: &Hash, name: &str) -> Option<String> {
    use std::os::unix::ffi::OsStrExt;
    std::env::var_os(name).map(|v| hex(&inputs::hash_env(key, v.as_bytes())))
}

/// The target's base, absolute and with links resolved, as the roots that
/// read its files name them.
pub(crate) fn base(target: &Target) -> PathBuf {
    real(&target.base)
}

/// `path` absolute and with links resolved, as it is when it can be.
pub(crate) fn real(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// `path` relative to `base`, `/`-separated (absolute when outside it).
/// Both are absolute and as the file layer joins them, so the plain case
/// is a byte prefix; anything else goes through the path's components.
fn relative(base: &Path, path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let rest = path
        .as_os_str()
        .as_bytes()
        .strip_prefix(base.as_os_str().as_bytes())
        .and_then(|rest| rest.strip_prefix(b"/"))
        .and_then(|rest| std::str::from_utf8(rest).ok());
    match rest {
        Some(rest) if !might_not_be_plain(rest) => rest.to_string(),
        _ => match path.strip_prefix(base) {
            Ok(rel) => slashed(rel),
            Err(_) => path.display().to_string(),
        },
    }
}

/// Whether a part of `rel` might be empty, `.` or `..` (false for most
/// paths, which it tells in one pass: checking each part cost 2.7 M
/// instructions in a batch of 120 targets, two searches for `//` and
/// `/.` 0.4 M).
fn might_not_be_plain(rel: &str) -> bool {
    let b = rel.as_bytes();
    let (Some(first), Some(last)) = (b.first(), b.last()) else {
        return true;
    };
    *first == b'.' || *last == b'/' || b.windows(2).any(|w| w[0] == b'/' && matches!(w[1], b'/' | b'.'))
}

pub(crate) fn looked(seen: &Seen) -> &'static str {
    match seen {
        Seen::Kind(Kind::File) => "file",
        Seen::Kind(Kind::Folder) => "folder",
        Seen::Missing => "missing",
        _ => "other",
    }
}

fn unlooked(text: &str) -> Option<Seen> {
    Some(match text {
        "file" => Seen::Kind(Kind::File),
        "folder" => Seen::Kind(Kind::Folder),
        "other" => Seen::Kind(Kind::Other),
        "missing" => Seen::Missing,
        _ => return None,
    })
}

/// Bytes as lowercase hex.
pub(crate) fn hex(bytes: &[u8; 32]) -> String {
    blake3::Hash::from_bytes(*bytes).to_hex().to_string()
}

pub(crate) fn unhex(text: &str) -> Option<Hash> {
    blake3::Hash::from_hex(text).ok().map(|h| *h.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_named_relative_to_the_base_as_its_components_are() {
        let base = Path::new("/w/repo");
        for (path, rel) in [
            ("/w/repo/p/windsor.yaml", "p/windsor.yaml"),
            ("/w/repo/p/.hidden/..x/a", "p/.hidden/..x/a"),
            ("/w/repo/p//a", "p/a"),
            ("/w/repo/p/./a", "p/a"),
            ("/w/repo/a/", "a"),
            ("/w/repo", ""),
            ("/w/repository/a", "/w/repository/a"),
            ("/elsewhere/a", "/elsewhere/a"),
        ] {
            assert_eq!(relative(base, Path::new(path)), rel, "{path}");
        }
    }
}
