//! A blueprint's variable sets and data, told from the files beside it.

use super::layout::{self, Role, owner, role};
use super::problem::Problem;
use crate::batch::target::{Files, Kind, Target, join, stem};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The files of one folder, by role, for telling a blueprint's variable
/// sets and data.
pub(crate) struct Siblings<'a> {
    folder: &'a str,
    names: &'a [String],
    /// The stems of the files that may be blueprints.
    stems: BTreeSet<&'a str>,
}

impl<'a> Siblings<'a> {
    /// The files `names` of `folder` (relative to the base).
    pub(crate) fn of(folder: &'a str, names: &'a [String]) -> Siblings<'a> {
        let stems = names
            .iter()
            .filter(|n| role(n) == Role::Candidate)
            .map(|n| stem(n))
            .collect();
        Siblings { folder, names, stems }
    }

    /// The longest stem of a possible blueprint that `owner` (a variable
    /// file's name without `.vars.<ext>`) belongs to, and the set it names.
    fn owned_by(&self, owner: &'a str) -> Option<(&'a str, Option<&'a str>)> {
        let mut best: Option<(&str, Option<&str>)> = None;
        for stem in &self.stems {
            let set = if owner == *stem {
                None
            } else if let Some(set) = owner.strip_prefix(stem).and_then(|r| r.strip_prefix('.')) {
                Some(set)
            } else {
                continue;
            };
            if best.is_none_or(|(b, _)| stem.len() > b.len()) {
                best = Some((stem, set));
            }
        }
        best
    }

    /// The variable files of the blueprint named `name`, by set (`None`:
    /// `<stem>.vars.<ext>`), each set's first file in name order.
    pub(crate) fn sets(
        &self,
        base: &Path,
        name: &str,
        problems: &mut Vec<Problem>,
    ) -> BTreeMap<Option<String>, String> {
        let mine = stem(name);
        let mut sets: BTreeMap<Option<String>, String> = BTreeMap::new();
        for file in self.names.iter().filter(|n| role(n) == Role::Vars) {
            match self.owned_by(owner(file)) {
                Some((stem, set)) if stem == mine => {
                    let set = set.map(str::to_string);
                    if let Some(first) = sets.get(&set) {
                        let id = Target::bluelink(base, &join(self.folder, name), set.as_deref(), Files::default()).id;
                        let message =
                            format!("two variable files for target {id:?}: {first} and {file}; {first} is used");
                        problems.push(Problem::file(base.join(self.folder).display().to_string(), message));
                    } else {
                        sets.insert(set, file.clone());
                    }
                }
                _ => {}
            }
        }
        sets
    }

    /// The file of `role` (data sources or resource state) beside the
    /// blueprint named `name`, the first in name order.
    pub(crate) fn beside(&self, base: &Path, name: &str, role: Role, problems: &mut Vec<Problem>) -> Option<String> {
        let mine = stem(name);
        let mut found = self
            .names
            .iter()
            .filter(|n| layout::role(n) == role && owner(n) == mine);
        let first = found.next()?;
        if let Some(other) = found.next() {
            let message = format!("two files of one kind for {name}: {first} and {other}; {first} is used");
            problems.push(Problem::file(base.join(self.folder).display().to_string(), message));
        }
        Some(first.clone())
    }

    /// The targets of the blueprint `name` of this folder: one per
    /// variable set, or one with the variables' defaults.
    pub(crate) fn targets(&self, base: &Path, name: &str, problems: &mut Vec<Problem>) -> Vec<Target> {
        let path = |file: String| base.join(join(self.folder, &file));
        let files = Files {
            vars: None,
            datasources: self.beside(base, name, Role::Datasources, problems).map(path),
            resource_state: self.beside(base, name, Role::ResourceState, problems).map(path),
        };
        let blueprint = join(self.folder, name);
        let sets = self.sets(base, name, problems);
        if sets.is_empty() {
            return vec![Target::bluelink(base, &blueprint, None, files)];
        }
        sets.into_iter()
            .map(|(set, vars)| {
                let files = Files {
                    vars: Some(path(vars)),
                    ..files.clone()
                };
                Target::bluelink(base, &blueprint, set.as_deref(), files)
            })
            .collect()
    }
}

/// The files `bpvm batch` gives the render of the blueprint at
/// `blueprint` with its variables file `<stem>.vars.<ext>` (not a named
/// set), each found beside it by the rules of discovery: its variables,
/// data sources and resource state. A folder that cannot be listed gives
/// none.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// for name in ["app.yaml", "app.vars.yaml", "app.prod.vars.yaml", "app.datasources.yaml"] {
///     std::fs::write(dir.path().join(name), "").unwrap();
/// }
/// let files = bpvm::batch::files_beside(&dir.path().join("app.yaml"));
/// assert_eq!(files.vars, Some(dir.path().join("app.vars.yaml")));
/// assert_eq!(files.datasources, Some(dir.path().join("app.datasources.yaml")));
/// assert_eq!(files.resource_state, None);
/// ```
pub fn files_beside(blueprint: &Path) -> Files {
    let (Some(folder), Some(name)) = (blueprint.parent(), blueprint.file_name()) else {
        return Files::default();
    };
    let name = name.to_string_lossy();
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .map(|entries| entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect())
        .unwrap_or_default();
    names.sort();
    let siblings = Siblings::of("", &names);
    let mut problems = Vec::new();
    let targets = siblings.targets(folder, &name, &mut problems);
    let own = targets.into_iter().find_map(|t| match t.kind {
        Kind::Bluelink { set: None, files } => Some(files),
        _ => None,
    });
    own.unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_file_belongs_to_the_longest_stem() {
        let names: Vec<String> = ["app.yaml", "app.v2.yaml", "app.v2.vars.yaml", "app.eu.prod.vars.yaml"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let s = Siblings::of("", &names);
        assert_eq!(s.owned_by("app.v2"), Some(("app.v2", None)));
        assert_eq!(s.owned_by("app.eu.prod"), Some(("app", Some("eu.prod"))));
        assert_eq!(s.owned_by("other"), None);
    }
}
