//! Where `bpvm batch` puts each rendered target: a file in the output
//! folder, or (`--check`) a comparison with the file there.

use super::guard::Read;
use super::progress::Progress;
use bpvm::batch::{Format, Output, Record, Sink, Target, Verdict, shard_of};
use std::collections::BTreeSet;
use std::io::ErrorKind;
use std::path::{Component, Path, PathBuf};

/// What the batch does with each text.
pub enum Mode {
    /// Nothing: the batch checks that every target renders.
    Render,
    /// Writes `OUT/<id>.<ext>`.
    Write(PathBuf),
    /// Compares with `OUT/<id>.<ext>`.
    Check(PathBuf),
}

/// The sink of `bpvm batch`.
pub struct Files<'a> {
    pub mode: Mode,
    pub format: Format,
    pub progress: &'a Progress,
    /// The files the batch reads, never written over.
    pub read: Read,
    /// The output folder's real path (when writing).
    pub out_real: PathBuf,
}

impl Files<'_> {
    /// `text` as written to the output folder: YAML begins with a comment
    /// naming its source (JSON has no comment, and a key would change the
    /// document: the folder's mark says it instead).
    fn marked(&self, target: &Target, text: &str) -> String {
        match self.format {
            Format::Yaml => bpvm::batch::rendered_header(&target.source()) + text,
            Format::Json => text.to_string(),
        }
    }
}

impl Sink for Files<'_> {
    fn output(&self, target: &Target, output: &Output) -> Verdict {
        match &self.mode {
            Mode::Render => Verdict::Ok,
            Mode::Write(out) => {
                let rel = relative(target, self.format);
                if self.read.contains(&self.out_real.join(&rel)) {
                    return Verdict::Failed(format!(
                        "error: --out {}: is a file the batch reads; it is not written over (choose another output folder)",
                        out.join(&rel).display()
                    ));
                }
                match write(out, &rel, &self.marked(target, &output.text)) {
                    Ok(()) => Verdict::Ok,
                    Err(e) => Verdict::Failed(e),
                }
            }
            Mode::Check(out) => check(out, &relative(target, self.format), &self.marked(target, &output.text)),
        }
    }

    fn done(&self, record: &Record) {
        self.progress.done(record);
    }
}

/// A target's file, relative to the output folder: `<id>.<ext>`.
pub fn relative(target: &Target, format: Format) -> String {
    format!("{}.{}", target.id, format.extension())
}

/// Writes `text` to `out/rel` atomically, making its folders. A folder
/// on the way that is a symlink is refused: what a batch writes stays
/// inside the output folder.
fn write(out: &Path, rel: &str, text: &str) -> Result<(), String> {
    let path = out.join(rel);
    let mut dir = out.to_path_buf();
    let folders = Path::new(rel).parent().map(Path::components).into_iter().flatten();
    for part in folders {
        let Component::Normal(name) = part else {
            return Err(format!(
                "error: --out {}: {rel:?} is not a path inside it",
                out.display()
            ));
        };
        dir.push(name);
        match std::fs::symlink_metadata(&dir) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(format!(
                    "error: --out {}: is not a folder (a symlink or a file); bpvm writes only inside the output folder",
                    dir.display()
                ));
            }
            Err(e) if e.kind() == ErrorKind::NotFound => std::fs::create_dir(&dir)
                .or_else(|e| if dir.is_dir() { Ok(()) } else { Err(e) })
                .map_err(|e| format!("error: --out {}: cannot create the folder: {e}", dir.display()))?,
            Err(e) => return Err(format!("error: --out {}: {e}", dir.display())),
        }
    }
    // Flushed to disk once for the whole batch, after the last file.
    crate::write::atomically_unsynced("--out", &path, text)
}

/// `text` against `out/rel`: a unified diff when they differ or the file
/// is missing.
fn check(out: &Path, rel: &str, text: &str) -> Verdict {
    let path = out.join(rel);
    let shown = path.display().to_string();
    // A missing file is compared as empty, and named as git names it.
    let (old, from) = match std::fs::read_to_string(&path) {
        Ok(old) => (old, shown.clone()),
        Err(e) if e.kind() == ErrorKind::NotFound => (String::new(), "/dev/null".to_string()),
        Err(e) => return Verdict::Failed(format!("error: --check {shown}: cannot read it: {e}")),
    };
    if old == text {
        return Verdict::Ok;
    }
    let diff = similar::TextDiff::from_lines(old.as_str(), text);
    let unified = diff
        .unified_diff()
        .context_radius(3)
        .header(&from, &format!("{shown} (rendered)"))
        .to_string();
    Verdict::Drift(unified)
}

/// The files in `out` that no target of the batch produces, relative to
/// `out`, sorted. Only files a batch could have written count (`.yaml`,
/// `.yml`, `.json`); with `--shard K/N`, only those whose id falls in
/// shard K, so that the N shards report each stale file once.
pub fn stale(out: &Path, produced: &BTreeSet<String>, shard: Option<(usize, usize)>) -> Vec<String> {
    let mut found = Vec::new();
    let walker = ignore::WalkBuilder::new(out)
        .standard_filters(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .build();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(out) else {
            continue;
        };
        let rel: Vec<_> = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect();
        let rel = rel.join("/");
        let Some((id, ext)) = rel.rsplit_once('.') else {
            continue;
        };
        if !matches!(ext, "yaml" | "yml" | "json") || produced.contains(&rel) {
            continue;
        }
        if shard.is_none_or(|(k, n)| shard_of(id, n) == k) {
            found.push(rel);
        }
    }
    found
}
