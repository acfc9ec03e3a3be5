//! Finding the targets under a folder: Windsor projects and Bluelink
//! blueprints discovered by their layout, or listed in `bpvm-batch.yaml`.

use super::manifest;
use super::target::{Files, Target, join, slashed, stem};
use bpvm_bluelink::load::VERSIONS;
use bpvm_bluelink::node;
use bpvm_runtime::Problems;
use bpvm_runtime::root::{Refusal, Root};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

/// The file that lists a folder's targets instead of discovery
/// (see the [module documentation](super)).
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
/// resource state files) may have.
const EXTENSIONS: [&str; 3] = ["yaml", "yml", "json"];

/// What was found under the folders searched: the targets, and every
/// problem met on the way (a file that could not be read, a mistake in a
/// `bpvm-batch.yaml`, two targets with one id).
///
/// Discovery goes on past a problem, so one run reports them all; the
/// targets are those it could still tell.
///
/// ```
/// use bpvm::batch::discover;
/// let found = discover(&["/no/such/folder"]);
/// assert!(found.targets.is_empty());
/// assert_eq!(found.problems.len(), 1);
/// assert!(found.into_result().is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Discovery {
    /// The targets: each folder's, sorted by id, folders in the order given.
    pub targets: Vec<Target>,
    /// What went wrong, in the order met.
    pub problems: Vec<Problem>,
    /// Every Windsor project found, whether or not it has contexts (a
    /// template repository may have none: nothing to render, but a
    /// template to check), in the order found.
    pub projects: Vec<PathBuf>,
}

impl Discovery {
    /// The targets, or every problem when there was any.
    ///
    /// ```
    /// use bpvm::batch::Discovery;
    /// assert_eq!(Discovery::default().into_result().unwrap(), vec![]);
    /// ```
    pub fn into_result(self) -> Result<Vec<Target>, Problems<Problem>> {
        if self.problems.is_empty() {
            Ok(self.targets)
        } else {
            Err(Problems::new(self.problems))
        }
    }
}

/// One problem met by discovery, printed `file:line:col: yaml.path: message`
/// (line, column and path when known).
///
/// ```
/// use bpvm::batch::Problem;
/// let p = Problem { file: "bpvm-batch.yaml".into(), line: 3, col: 5, path: "targets[0].contexts".into(), message: "expected a list".into() };
/// assert_eq!(p.to_string(), "bpvm-batch.yaml:3:5: targets[0].contexts: expected a list");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file or folder concerned, as reached from the folder searched.
    pub file: String,
    /// The line in `file`, from 1; 0 when not about one place.
    pub line: u32,
    /// The column in `file`, from 1; 0 when not about one place.
    pub col: u32,
    /// The path of the value at fault (`targets[1].windsor`), or "".
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// A problem with the whole of `file`.
    pub(crate) fn file(file: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            file: file.into(),
            line: 0,
            col: 0,
            path: String::new(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if self.line > 0 {
            write!(f, ":{}:{}", self.line, self.col)?;
        }
        write!(f, ": ")?;
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Problem {}

/// The targets under each of `paths` (see the [module
/// documentation](super) for the rules), each folder's sorted by id, the
/// folders in the order given. A target id given twice is a problem; the
/// first is kept.
///
/// ```
/// use bpvm::batch::discover;
/// let dir = std::env::temp_dir().join(format!("bpvm-discover-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("infra/contexts/_template")).unwrap();
/// std::fs::create_dir_all(dir.join("infra/contexts/prod")).unwrap();
/// std::fs::write(dir.join("infra/windsor.yaml"), "").unwrap();
/// std::fs::write(dir.join("api.yaml"), "version: 2025-11-02\nresources: {}\n").unwrap();
/// std::fs::write(dir.join("api.eu.vars.yaml"), "region: eu-west-1\n").unwrap();
/// let found = discover(&[&dir]);
/// let ids: Vec<&str> = found.targets.iter().map(|t| t.id.as_str()).collect();
/// assert_eq!(ids, ["api@eu", "infra/prod"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn discover(paths: &[impl AsRef<Path>]) -> Discovery {
    discover_except(paths, &[] as &[&Path])
}

/// [`discover`], not searching the folders `except` (a batch's output
/// folder, whose rendered blueprints are not templates).
///
/// ```
/// use bpvm::batch::discover_except;
/// let dir = std::env::temp_dir().join(format!("bpvm-except-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("out")).unwrap();
/// std::fs::write(dir.join("api.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// std::fs::write(dir.join("out/api.yaml"), "version: 2023-04-20\nresources: {}\n").unwrap();
/// let ids = |found: bpvm::batch::Discovery| found.targets.into_iter().map(|t| t.id).collect::<Vec<_>>();
/// assert_eq!(ids(discover_except(&[&dir], &[dir.join("out")])), ["api"]);
/// assert_eq!(ids(discover_except(&[&dir], &[] as &[&std::path::Path])), ["api", "out/api"]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn discover_except(paths: &[impl AsRef<Path>], except: &[impl AsRef<Path>]) -> Discovery {
    // Compared by where they are, however they are named; a folder that
    // does not exist yet holds nothing to skip.
    let except: Arc<Vec<PathBuf>> = Arc::new(except.iter().filter_map(|p| p.as_ref().canonicalize().ok()).collect());
    let mut found = Discovery::default();
    for path in paths {
        let (mut targets, mut problems) = discover_in(path.as_ref(), &except, &mut found.projects);
        targets.sort_by(|a, b| a.id.cmp(&b.id));
        found.targets.append(&mut targets);
        found.problems.append(&mut problems);
    }
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut kept = Vec::with_capacity(found.targets.len());
    for t in std::mem::take(&mut found.targets) {
        match first.get(&t.id) {
            Some(&i) => {
                let earlier: &Target = &kept[i];
                let message = format!(
                    "target {:?} is given by both {} and {}; only the first is kept",
                    t.id,
                    describe(earlier),
                    describe(&t)
                );
                found
                    .problems
                    .push(Problem::file(t.template.display().to_string(), message));
            }
            None => {
                first.insert(t.id.clone(), kept.len());
                kept.push(t);
            }
        }
    }
    found.targets = kept;
    found
}

/// A target's template and what picks it out, for messages.
fn describe(t: &Target) -> String {
    match &t.kind {
        super::Kind::Windsor { context } => format!("{} (context {context})", t.template.display()),
        super::Kind::Bluelink { files, .. } => match &files.vars {
            Some(vars) => format!("{} (variables {})", t.template.display(), vars.display()),
            None => t.template.display().to_string(),
        },
    }
}

/// The targets under one folder, unsorted, and the problems met.
fn discover_in(base: &Path, except: &Arc<Vec<PathBuf>>, projects: &mut Vec<PathBuf>) -> (Vec<Target>, Vec<Problem>) {
    let mut problems = Vec::new();
    let shown = base.display().to_string();
    let root = match Root::new(base, "batch folder") {
        Ok(root) if root.dir().is_dir() => root,
        Ok(_) => return (Vec::new(), vec![Problem::file(shown, "not a folder")]),
        Err(e) => return (Vec::new(), vec![Problem::file(shown, format!("cannot search: {e}"))]),
    };
    let targets = if base.join(MANIFEST).exists() {
        manifest::read(&root, base, &mut problems)
    } else if is_project(base) {
        projects.push(base.to_path_buf());
        project_targets(base, "", &mut problems)
    } else {
        walk(&root, base, except, &mut problems, projects)
    };
    (targets, problems)
}

/// `true` when `dir` is a Windsor project: it has `windsor.yaml` (or
/// `windsor.yml`) and a folder `contexts/_template/`.
pub(crate) fn is_project(dir: &Path) -> bool {
    (dir.join("windsor.yaml").is_file() || dir.join("windsor.yml").is_file()) && dir.join("contexts/_template").is_dir()
}

/// The names of the context folders of the project at `dir`
/// (`contexts/<name>/`, not `_template`), sorted.
pub(crate) fn contexts(dir: &Path) -> Result<Vec<String>, String> {
    let entries = std::fs::read_dir(dir.join("contexts")).map_err(|e| format!("cannot list contexts/: {e}"))?;
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list contexts/: {e}"))?;
        if !entry.path().is_dir() {
            continue;
        }
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            return Err(format!("contexts/{} is not named in UTF-8", name.to_string_lossy()));
        };
        if name != "_template" {
            names.push(name.to_string());
        }
    }
    names.sort();
    Ok(names)
}

/// One target per context of the project at `rel` under `base`.
pub(crate) fn project_targets(base: &Path, rel: &str, problems: &mut Vec<Problem>) -> Vec<Target> {
    match contexts(&base.join(rel)) {
        Ok(names) => names.iter().map(|c| Target::windsor(base, rel, c)).collect(),
        Err(message) => {
            problems.push(Problem::file(base.join(rel).display().to_string(), message));
            Vec::new()
        }
    }
}

/// Discovery proper: every Windsor project and Bluelink blueprint under
/// `base` that `.gitignore` does not hide.
fn walk(
    root: &Root,
    base: &Path,
    except: &Arc<Vec<PathBuf>>,
    problems: &mut Vec<Problem>,
    found_projects: &mut Vec<PathBuf>,
) -> Vec<Target> {
    let projects: Arc<Mutex<Vec<PathBuf>>> = Arc::default();
    let found = Arc::clone(&projects);
    let except = Arc::clone(except);
    let mut walker = ignore::WalkBuilder::new(base);
    walker
        .hidden(true)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .require_git(false)
        // What only one machine has must not change what a batch is:
        // N shards on N machines must see the same targets.
        .git_global(false)
        .git_exclude(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            if !entry.file_type().is_some_and(|t| t.is_dir()) {
                return true;
            }
            if SKIPPED.iter().any(|s| entry.file_name() == *s) {
                return false;
            }
            if !except.is_empty() && entry.path().canonicalize().is_ok_and(|p| except.contains(&p)) {
                return false;
            }
            // A project is a leaf: its own folders are its template's.
            if is_project(entry.path()) {
                found
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(entry.path().to_path_buf());
                return false;
            }
            true
        });
    let mut folders: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for entry in walker.build() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(e) => {
                problems.push(Problem::file(base.display().to_string(), format!("cannot search: {e}")));
                continue;
            }
        };
        if entry.depth() == 0 || entry.file_type().is_some_and(|t| t.is_dir()) {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(base) else {
            continue;
        };
        let Some(name) = rel.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        if extension(name).is_some() {
            let folder = rel.parent().map(slashed).unwrap_or_default();
            folders.entry(folder).or_default().push(name.to_string());
        }
    }
    let mut targets = Vec::new();
    let projects = std::mem::take(&mut *projects.lock().unwrap_or_else(PoisonError::into_inner));
    for dir in projects {
        let rel = slashed(dir.strip_prefix(base).unwrap_or(&dir));
        targets.extend(project_targets(base, &rel, problems));
        found_projects.push(dir);
    }
    // Every blueprint, with what it includes.
    let mut blueprints: Vec<(&str, &str, PathBuf)> = Vec::new();
    let mut included: BTreeSet<PathBuf> = BTreeSet::new();
    for (folder, names) in &folders {
        for name in names {
            if role(name) != Role::Candidate {
                continue;
            }
            let rel = join(folder, name);
            let text = match root.read_string(root.dir(), &rel) {
                Ok(text) => text,
                // Neither can be a blueprint bpvm loads.
                Err(e) if matches!(e.refusal, Refusal::TooLarge(_) | Refusal::NotText) => continue,
                Err(e) => {
                    let message = format!("cannot read: {e}");
                    problems.push(Problem::file(base.join(&rel).display().to_string(), message));
                    continue;
                }
            };
            let Some(includes) = sniff(&text) else {
                continue;
            };
            // It was just read through the root, so its real path resolves.
            let Ok(real) = root.resolve(root.dir(), &rel) else {
                continue;
            };
            // Resolved as the render resolves them: from the folder of
            // the blueprint's real path.
            let from = real.parent().unwrap_or(root.dir());
            included.extend(includes.iter().filter_map(|p| root.resolve(from, p).ok()));
            blueprints.push((folder, name, real));
        }
    }
    for (folder, name, real) in blueprints {
        if included.contains(&real) {
            continue;
        }
        let siblings = Siblings::of(folder, &folders[folder]);
        targets.extend(siblings.targets(base, name, problems));
    }
    targets
}

/// What a file beside blueprints is, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
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
pub(crate) fn extension(name: &str) -> Option<&str> {
    let (_, ext) = name.rsplit_once('.')?;
    EXTENSIONS.contains(&ext).then_some(ext)
}

/// What the file `name` (with a blueprint's extension) is.
pub(crate) fn role(name: &str) -> Role {
    if name == MANIFEST {
        return Role::Manifest;
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
fn owner(name: &str) -> &str {
    stem(stem(name))
}

/// The include paths of `text` when it is a Bluelink blueprint (its
/// top-level `version` is a Bluelink version); `None` when it is not.
///
/// A file that declares a Bluelink version but cannot be parsed is a
/// blueprint still, so that its render reports why rather than the batch
/// missing it. Include paths made with substitutions cannot be known
/// before rendering and are left out.
fn sniff(text: &str) -> Option<Vec<String>> {
    if !VERSIONS.iter().any(|v| text.contains(v)) {
        return None;
    }
    // Most blueprints include nothing: a top-level `version:` line (a
    // key at column 0 of a block mapping) then tells without parsing the
    // whole file, which the render parses again anyway.
    if !text.contains("include") && text.lines().any(|l| l.starts_with("version:")) {
        let yes = text.lines().filter_map(|l| l.strip_prefix("version:")).any(is_version);
        return yes.then(Vec::new);
    }
    let Ok(doc) = node::read(text) else {
        return declares_version(text).then(Vec::new);
    };
    let version = doc.get("version").and_then(node::Node::as_str)?;
    if !VERSIONS.contains(&version) {
        return None;
    }
    let includes = doc
        .get("include")
        .and_then(node::Node::entries)
        .unwrap_or(&[])
        .iter()
        .filter_map(|e| e.value.get("path").and_then(node::Node::as_str))
        .filter(|p| !p.contains("${"))
        .map(str::to_string)
        .collect();
    Some(includes)
}

/// `true` when a line of `text` sets `version` to a Bluelink version at
/// the top level of a YAML document, or anywhere in a JSON one.
fn declares_version(text: &str) -> bool {
    text.lines().any(|line| {
        let json = line.trim_start();
        let yaml = line
            .strip_prefix("version:")
            .or_else(|| line.strip_prefix("\"version\":"))
            .or_else(|| line.strip_prefix("'version':"));
        let value = match (yaml, json.strip_prefix("\"version\"")) {
            (Some(rest), _) => rest,
            (None, Some(rest)) => match rest.trim_start().strip_prefix(':') {
                Some(rest) => rest,
                None => return false,
            },
            (None, None) => return false,
        };
        is_version(value)
    })
}

/// `true` when `value`, the text after `version:` on its line, is a
/// Bluelink version (quoted or not, with a comment or a JSON comma after).
fn is_version(value: &str) -> bool {
    let value = value
        .split(" #")
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches(',')
        .trim();
    let value = value.trim_matches(|c| c == '"' || c == '\'');
    VERSIONS.contains(&value)
}

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
            .filter(|n| super::discover::role(n) == role && owner(n) == mine);
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
    }

    #[test]
    fn blueprints_are_told_by_their_version() {
        assert_eq!(sniff("version: 2023-04-20\nresources: {}\n"), Some(vec![]));
        assert_eq!(sniff("{\"version\": \"2025-11-02\", \"resources\": {}}"), Some(vec![]));
        assert_eq!(sniff("version: 2024-01-01\nresources: {}\n"), None);
        assert_eq!(sniff("released: 2023-04-20\n"), None);
        assert_eq!(sniff("meta:\n  version: 2023-04-20\n"), None);
        let text = "version: 2023-04-20\ninclude:\n  a: {path: child.yaml}\n  b: {path: '${variables.p}'}\n";
        assert_eq!(sniff(text), Some(vec!["child.yaml".to_string()]));
        // Broken, but declaring a version: its render reports why.
        assert_eq!(sniff("version: 2023-04-20\nresources: [\n"), Some(vec![]));
        assert_eq!(
            sniff("{\n  \"version\" : \"2025-11-02\",\n  \"resources\": {\n"),
            Some(vec![])
        );
        assert_eq!(sniff("a: [\n  version: 2023-04-20\n"), None);
    }

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
