//! Nothing a batch reads is written over (D12): an `--out` folder that
//! holds a searched folder, lies in a Windsor project, or holds a file
//! discovery found is refused before anything renders, and no write
//! replaces a file discovery found.

use bpvm::batch::{Discovery, Kind, Target};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The files a batch reads, by their real paths, for the writes to keep
/// off them.
#[derive(Debug, Default)]
pub struct Read {
    files: HashSet<PathBuf>,
}

impl Read {
    /// `true` when `path` (real) is a file the batch reads.
    pub fn contains(&self, path: &Path) -> bool {
        self.files.contains(path)
    }
}

/// `path` with symlinks resolved as far as it exists, the rest appended:
/// where a write under it lands, even before it is made.
pub fn real(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut rest = Vec::new();
    let mut at = absolute.as_path();
    loop {
        if let Ok(found) = at.canonicalize() {
            return rest.iter().rev().fold(found, |p, part| p.join(part));
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            _ => return absolute,
        }
    }
}

/// Refuses `out` when a write there could land on a file the batch
/// reads; otherwise the files it reads, for [`Read::contains`].
pub fn check(out: &Path, paths: &[PathBuf], found: &Discovery) -> Result<Read, String> {
    let out_real = real(out);
    let refuse = |what: String| {
        Err(format!(
            "error: --out {}: {what}; the rendered files could overwrite what the batch reads. Choose an output folder outside the templates (for example one beside them)",
            out.display()
        ))
    };
    for path in paths {
        let searched = real(path);
        if searched.starts_with(&out_real) {
            return refuse(format!("holds the searched folder {}", path.display()));
        }
    }
    for project in &found.projects {
        if out_real.starts_with(real(project)) {
            return refuse(format!("is inside the Windsor project {}", project.display()));
        }
    }
    let mut read = Read::default();
    for file in found.targets.iter().flat_map(files) {
        let file_real = real(file);
        if file_real.starts_with(&out_real) {
            return refuse(format!("holds {}, which the batch reads", file.display()));
        }
        read.files.insert(file_real);
    }
    Ok(read)
}

/// The files a target's discovery found: a blueprint and the files beside
/// it (a Windsor project is a folder, guarded as one).
fn files(target: &Target) -> Vec<&Path> {
    match &target.kind {
        Kind::Windsor { .. } => Vec::new(),
        Kind::Bluelink { files, .. } => std::iter::once(target.template.as_path())
            .chain(
                [&files.vars, &files.datasources, &files.resource_state]
                    .into_iter()
                    .flatten()
                    .map(PathBuf::as_path),
            )
            .collect(),
    }
}
