//! Which template a file belongs to: the Windsor project above it, else
//! the Bluelink blueprint it is.

use bpvm::bluelink::lang::is_bp;
use bpvm::bluelink::load::VERSIONS;
use std::path::{Path, PathBuf};

/// A template `bpvm check` checks as a whole.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Template {
    /// A Windsor project: its folder.
    Windsor(PathBuf),
    /// A Bluelink blueprint: its file.
    Bluelink(PathBuf),
}

impl Template {
    /// The folder or file `bpvm check` is given.
    pub fn path(&self) -> &Path {
        match self {
            Template::Windsor(p) | Template::Bluelink(p) => p,
        }
    }
}

/// The template the file at `path`, holding `text`, belongs to: the
/// nearest folder above it that is a Windsor project (so its facets,
/// values, schema, tests and `windsor.yaml` are checked as the project),
/// else the file itself when it declares a Bluelink version.
///
/// ```
/// use bpvm_lsp::diagnose::{Template, template_of};
/// let bp = std::path::Path::new("/tmp/blueprint.yaml");
/// assert_eq!(template_of(bp, "version: 2025-11-02\nresources: {}\n"), Some(Template::Bluelink(bp.into())));
/// assert_eq!(template_of(bp, "a: 1\n"), None);
/// ```
pub fn template_of(path: &Path, text: &str) -> Option<Template> {
    if let Some(project) = path.ancestors().skip(1).find(|d| is_project(d)) {
        return Some(Template::Windsor(project.to_path_buf()));
    }
    let name = path.file_name()?.to_str()?;
    let blueprint_name = is_bp(name) || [".yaml", ".yml", ".json", ".jsonc"].iter().any(|e| name.ends_with(e));
    (blueprint_name && VERSIONS.iter().any(|v| text.contains(v))).then(|| Template::Bluelink(path.to_path_buf()))
}

/// Whether `dir` is a Windsor project, as `bpvm check` and `bpvm batch`
/// tell one: a `windsor.yaml` and a `contexts/_template` folder.
fn is_project(dir: &Path) -> bool {
    (dir.join("windsor.yaml").is_file() || dir.join("windsor.yml").is_file()) && dir.join("contexts/_template").is_dir()
}
