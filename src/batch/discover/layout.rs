//! What a file or folder is, told by its name and layout: a manifest, a
//! Windsor project and its contexts, a blueprint's variable, data source
//! or resource state file.

use super::problem::Problem;
use crate::batch::target::{Target, stem};
use std::path::Path;

/// The file that lists a folder's targets instead of discovery
/// (see the [module documentation](crate::batch)).
///
/// ```
/// use bpvm::batch::{MANIFEST, discover};
/// let dir = std::env::temp_dir().join(format!("bpvm-manifest-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// std::fs::write(dir.join("api.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// std::fs::write(dir.join("api.prod.vars.yaml"), "replicas: 3\n").unwrap();
/// std::fs::write(dir.join(MANIFEST), "targets:\n  - bluelink: api.yaml\n    set: prod\n").unwrap();
/// let ids: Vec<String> = discover(&[&dir]).into_result().unwrap().into_iter().map(|t| t.id).collect();
/// assert_eq!(ids, ["api@prod"]);
/// std::fs::write(dir.join(MANIFEST), "targets:\n  - bluelink: api.yaml\n    sett: prod\n").unwrap();
/// let problems = discover(&[&dir]).problems;
/// assert!(problems[0].to_string().ends_with("targets[0].sett: unknown key (did you mean \"set\"?); a Bluelink target has: bluelink, vars, set, datasources, resource-state"), "{}", problems[0]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub const MANIFEST: &str = "bpvm-batch.yaml";

/// Folders never searched, whatever `.gitignore` says (hidden folders,
/// `.git` among them, are not searched either).
///
/// ```
/// use bpvm::batch::{SKIPPED, discover};
/// let dir = std::env::temp_dir().join(format!("bpvm-skipped-doc-{}", std::process::id()));
/// for folder in SKIPPED {
///     std::fs::create_dir_all(dir.join(folder)).unwrap();
///     std::fs::write(dir.join(folder).join("bp.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// }
/// assert!(discover(&[&dir]).targets.is_empty());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub const SKIPPED: [&str; 3] = [".git", "target", "node_modules"];

/// The extensions a blueprint (and its variable, data source and
/// resource state files) may have; a blueprint may also be written in
/// the `.bp` language ([`BP_EXTENSIONS`]).
const EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];

/// The extensions of a blueprint written in the `.bp` language (never a
/// variable, data source or resource state file, which are data).
const BP_EXTENSIONS: [&str; 2] = ["bp", "blueprint"];

/// `true` when `dir` is a Windsor project: it has `windsor.yaml` (or
/// `windsor.yml`) and a folder `contexts/_template/`.
pub(crate) fn is_project(dir: &Path) -> bool {
    (dir.join("windsor.yaml").is_file() || dir.join("windsor.yml").is_file()) && dir.join("contexts/_template").is_dir()
}

/// The context folders of a project: the names, sorted, and those whose
/// names are not UTF-8 (shown with `\u{FFFD}` in their place).
pub(super) struct Contexts {
    pub(super) names: Vec<String>,
    pub(super) unnamed: Vec<String>,
}

/// The context folders of the project at `dir` (`contexts/<name>/`, not
/// `_template`). A folder whose name is not UTF-8 cannot be a context's
/// name; it is set apart so that the others still render.
pub(super) fn contexts(dir: &Path) -> Result<Contexts, String> {
    let entries = std::fs::read_dir(dir.join("contexts")).map_err(|e| format!("cannot list contexts/: {e}"))?;
    let mut found = Contexts {
        names: Vec::new(),
        unnamed: Vec::new(),
    };
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list contexts/: {e}"))?;
        if !entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name();
        match name.to_str() {
            Some("_template") => {}
            Some(name) => found.names.push(name.to_string()),
            None => found.unnamed.push(name.to_string_lossy().into_owned()),
        }
    }
    found.names.sort();
    found.unnamed.sort();
    Ok(found)
}

/// What is said of a context folder whose name is not UTF-8.
pub(super) fn unnamed_context(name: &str) -> String {
    format!(
        "contexts/{name} is not named in UTF-8, so it cannot be rendered as a context (rename it); the other contexts render"
    )
}

/// One target per context of the project at `rel` under `base`.
pub(super) fn project_targets(base: &Path, rel: &str, problems: &mut Vec<Problem>) -> Vec<Target> {
    let dir = base.join(rel);
    match contexts(&dir) {
        Ok(found) => {
            for name in &found.unnamed {
                problems.push(Problem::file(dir.display().to_string(), unnamed_context(name)));
            }
            found.names.iter().map(|c| Target::windsor(base, rel, c)).collect()
        }
        Err(message) => {
            problems.push(Problem::file(dir.display().to_string(), message));
            Vec::new()
        }
    }
}

/// What a file beside blueprints is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// `<stem>[.<set>].vars.<ext>`.
    Vars,
    /// `<stem>.datasources.<ext>`.
    Datasources,
    /// `<stem>.resource-state.<ext>`.
    ResourceState,
    /// `bpvm-batch.yaml`.
    Manifest,
    /// Anything else with a blueprint's extension: read to tell.
    Candidate,
}

/// The extension of `name` when it is one a blueprint may have.
pub(super) fn extension(name: &str) -> Option<&str> {
    let (_, ext) = name.rsplit_once('.')?;
    (EXTENSIONS.contains(&ext) || BP_EXTENSIONS.contains(&ext)).then_some(ext)
}

/// What the file `name` (with a blueprint's extension) is.
pub(super) fn role(name: &str) -> Role {
    if name == MANIFEST {
        return Role::Manifest;
    }
    if bpvm_bluelink::lang::is_bp(name) {
        // `app.vars.bp` is a blueprint still: data is never `.bp`.
        return Role::Candidate;
    }
    let inner = stem(name);
    for (suffix, role) in [
        (".vars", Role::Vars),
        (".datasources", Role::Datasources),
        (".resource-state", Role::ResourceState),
    ] {
        if inner.len() > suffix.len() && inner.ends_with(suffix) {
            return role;
        }
    }
    Role::Candidate
}

/// `name` without `.<role>.<ext>`: `orders.prod.vars.yaml` → `orders.prod`.
pub(super) fn owner(name: &str) -> &str {
    stem(stem(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_by_name() {
        assert_eq!(role("orders.yaml"), Role::Candidate);
        assert_eq!(role("orders.vars.yaml"), Role::Vars);
        assert_eq!(role("orders.prod.vars.json"), Role::Vars);
        assert_eq!(role("vars.yaml"), Role::Candidate);
        assert_eq!(role("orders.datasources.yml"), Role::Datasources);
        assert_eq!(role("orders.resource-state.yaml"), Role::ResourceState);
        assert_eq!(role("bpvm-batch.yaml"), Role::Manifest);
        assert_eq!(owner("orders.prod.vars.yaml"), "orders.prod");
        assert_eq!(role("orders.bp"), Role::Candidate);
        assert_eq!(role("orders.vars.bp"), Role::Candidate);
        assert_eq!(role("orders.blueprint.yaml"), Role::Candidate);
        assert_eq!(extension("orders.blueprint"), Some("blueprint"));
        assert_eq!(extension("orders.bpx"), None);
    }
}
