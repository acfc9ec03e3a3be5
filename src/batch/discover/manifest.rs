//! `bpvm-batch.yaml`: a folder's targets listed instead of discovered
//! (its shape is in the documentation of the batch module).

use super::exclude::Exclude;
use super::layout::{MANIFEST, Role, contexts, extension, is_project, role, unnamed_context};
use super::problem::Problem;
use super::siblings::Siblings;
use crate::batch::target::{Files, Target, join, stem};
use bpvm_bluelink::Pos;
use bpvm_bluelink::node::{self, Entry, Kind, Node};
use bpvm_runtime::root::Root;
use bpvm_runtime::suggest::closest;
use std::path::Path;

/// Top-level keys; `check` is `bpvm check`'s configuration, read by
/// `check::tune`.
const TOP: &[&str] = bpvm_runtime::field_names!(super::shape::TOP);
const WINDSOR: &[&str] = bpvm_runtime::field_names!(super::shape::WINDSOR);
const BLUELINK: &[&str] = bpvm_runtime::field_names!(super::shape::BLUELINK);

/// What a `bpvm-batch.yaml` says.
pub(super) struct Listed {
    /// The targets it lists; `None` when it lists none and the folder is
    /// searched (it gives `exclude` alone).
    pub targets: Option<Vec<Target>>,
    /// Its `exclude` globs.
    pub exclude: Exclude,
}

/// What `bpvm-batch.yaml` in `base` says; its mistakes go to `problems`,
/// each with its line, column and path.
pub(super) fn read(root: &Root, base: &Path, problems: &mut Vec<Problem>) -> Listed {
    let mut r = Reader {
        root,
        base,
        file: base.join(MANIFEST).display().to_string(),
        problems,
        targets: Vec::new(),
        search: false,
        exclude: Exclude::default(),
    };
    let text = match root.read_string(root.dir(), MANIFEST) {
        Ok(text) => text,
        Err(e) => {
            let message = format!("cannot read: {e}");
            r.problems.push(Problem::file(r.file.clone(), message));
            return Listed {
                targets: Some(Vec::new()),
                exclude: r.exclude,
            };
        }
    };
    match node::read(&text) {
        Ok(doc) => r.document(&doc),
        Err(e) => r.fail(e.at, "", format!("invalid YAML: {}", e.message)),
    }
    Listed {
        targets: (!r.search).then_some(r.targets),
        exclude: r.exclude,
    }
}

struct Reader<'a> {
    root: &'a Root,
    base: &'a Path,
    file: String,
    problems: &'a mut Vec<Problem>,
    targets: Vec<Target>,
    /// It lists no target: the folder is searched.
    search: bool,
    exclude: Exclude,
}

impl Reader<'_> {
    fn fail(&mut self, at: Pos, path: &str, message: impl Into<String>) {
        self.problems.push(Problem {
            file: self.file.clone(),
            line: at.line,
            col: at.col,
            path: path.to_string(),
            message: message.into(),
        });
    }

    /// `false` (and a problem for each) when `entries` has a key not in `known`.
    fn keys(&mut self, entries: &[Entry], path: &str, known: &[&str], what: &str) -> bool {
        let mut ok = true;
        for e in entries.iter().filter(|e| !known.contains(&e.key.as_str())) {
            let hint = match closest(&e.key, known) {
                Some(k) => format!(" (did you mean {k:?}?)"),
                None => String::new(),
            };
            let message = format!("unknown key{hint}; {what} has: {}", known.join(", "));
            self.fail(e.key_at, &join_key(path, &e.key), message);
            ok = false;
        }
        ok
    }

    fn document(&mut self, doc: &Node) {
        let Some(entries) = doc.entries() else {
            let message = format!("expected a mapping with the key targets, found {}", doc.describe());
            return self.fail(doc.at, "", message);
        };
        self.keys(entries, "", TOP, "bpvm-batch.yaml");
        if let Some(globs) = doc.get("exclude") {
            self.exclude(globs);
        }
        let Some(list) = doc.get("targets") else {
            if doc.get("exclude").is_some() || doc.get("check").is_some() {
                // Nothing listed: the folder is searched (leaving out what
                // `exclude` names; `check` is the check's own section).
                self.search = true;
                return;
            }
            return self.fail(doc.at, "", "targets is missing: the list of this folder's targets");
        };
        let Kind::List(items) = &list.kind else {
            let message = format!("expected a list of targets, found {}", list.describe());
            return self.fail(list.at, "targets", message);
        };
        if items.is_empty() {
            return self.fail(list.at, "targets", "the list is empty: the folder would render nothing");
        }
        for (i, item) in items.iter().enumerate() {
            self.target(item, &format!("targets[{i}]"));
        }
    }

    /// `exclude`: a list of globs, each a path relative to the folder.
    fn exclude(&mut self, globs: &Node) {
        let Kind::List(items) = &globs.kind else {
            let message = format!(
                "expected a list of globs (paths relative to the folder of {MANIFEST}), found {}",
                globs.describe()
            );
            return self.fail(globs.at, "exclude", message);
        };
        if items.is_empty() {
            return self.fail(globs.at, "exclude", "the list is empty: it would exclude nothing");
        }
        for (i, item) in items.iter().enumerate() {
            let at = Problem {
                file: self.file.clone(),
                line: item.at.line,
                col: item.at.col,
                path: format!("exclude[{i}]"),
                message: String::new(),
            };
            let added = match item.as_str() {
                Some(glob) => self.exclude.add(glob, Some(at.clone())),
                None => Err(format!("expected a glob, found {}", item.describe())),
            };
            if let Err(message) = added {
                self.problems.push(Problem { message, ..at });
            }
        }
    }

    fn target(&mut self, item: &Node, path: &str) {
        let expected = "expected a mapping, {windsor: PROJECT} or {bluelink: BLUEPRINT}";
        let Some(entries) = item.entries() else {
            return self.fail(item.at, path, format!("{expected}, found {}", item.describe()));
        };
        match (item.get("windsor"), item.get("bluelink")) {
            (Some(_), Some(_)) => {
                let message = "names both windsor and bluelink: list them as two targets";
                self.fail(item.at, path, message);
            }
            (Some(project), None) => {
                if self.keys(entries, path, WINDSOR, "a Windsor target") {
                    self.windsor(item, project, path);
                }
            }
            (None, Some(blueprint)) => {
                if self.keys(entries, path, BLUELINK, "a Bluelink target") {
                    self.bluelink(item, blueprint, path);
                }
            }
            (None, None) => {
                let both = ["windsor", "bluelink"];
                for e in entries {
                    if let Some(k) = closest(&e.key, &both) {
                        let message = format!("unknown key (did you mean {k:?}?)");
                        return self.fail(e.key_at, &join_key(path, &e.key), message);
                    }
                }
                self.fail(item.at, path, format!("{expected}: it names neither"));
            }
        }
    }

    /// The path `node` holds, relative to the base and normalised, when
    /// it names something inside it (a regular file when `file`).
    fn path(&mut self, node: &Node, path: &str, file: bool) -> Option<String> {
        let Some(text) = node.as_str().filter(|t| !t.trim().is_empty()) else {
            let message = format!(
                "expected a path relative to the folder of {MANIFEST}, found {}",
                node.describe()
            );
            self.fail(node.at, path, message);
            return None;
        };
        if text.starts_with('/') || text.contains('\\') {
            let message = format!("{text:?}: paths are relative to the folder of {MANIFEST}, with / separators");
            self.fail(node.at, path, message);
            return None;
        }
        let mut parts: Vec<&str> = Vec::new();
        for part in text.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        let message = format!("{text:?} leads outside the folder of {MANIFEST}");
                        self.fail(node.at, path, message);
                        return None;
                    }
                }
                _ => parts.push(part),
            }
        }
        let rel = parts.join("/");
        let checked = if file {
            self.root.file(self.root.dir(), text).map(drop)
        } else {
            self.root.resolve(self.root.dir(), text).map(drop)
        };
        if let Err(e) = checked {
            self.fail(node.at, path, e.to_string());
            return None;
        }
        Some(rel)
    }

    fn windsor(&mut self, item: &Node, project: &Node, path: &str) {
        let at = join_key(path, "windsor");
        let Some(rel) = self.path(project, &at, false) else {
            return;
        };
        let dir = self.base.join(&rel);
        if !is_project(&dir) {
            let message = format!(
                "{:?} is not a Windsor project: it has no windsor.yaml or no contexts/_template/",
                project.as_str().unwrap_or_default()
            );
            return self.fail(project.at, &at, message);
        }
        let known = match contexts(&dir) {
            Ok(found) => {
                for name in &found.unnamed {
                    self.fail(project.at, &at, unnamed_context(name));
                }
                found.names
            }
            Err(message) => return self.fail(project.at, &at, message),
        };
        let Some(list) = item.get("contexts") else {
            if known.is_empty() {
                let message = "the project has no context folders (contexts/<name>/)";
                return self.fail(project.at, &at, message);
            }
            let targets = known.iter().map(|c| Target::windsor(self.base, &rel, c));
            return self.targets.extend(targets);
        };
        let at = join_key(path, "contexts");
        let Kind::List(items) = &list.kind else {
            let message = format!("expected a list of context names, found {}", list.describe());
            return self.fail(list.at, &at, message);
        };
        if items.is_empty() {
            let message = "the list is empty: leave contexts out for every context";
            return self.fail(list.at, &at, message);
        }
        let names: Vec<&str> = known.iter().map(String::as_str).collect();
        let mut seen: Vec<&str> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let at = format!("{at}[{i}]");
            let Some(name) = item.as_str() else {
                let message = format!("expected a context name, found {}", item.describe());
                self.fail(item.at, &at, message);
                continue;
            };
            if seen.contains(&name) {
                self.fail(item.at, &at, format!("context {name:?} is listed twice"));
                continue;
            }
            seen.push(name);
            if !names.contains(&name) {
                let hint = match closest(name, &names) {
                    Some(k) => format!(" (did you mean {k:?}?)"),
                    None => String::new(),
                };
                let listed = if names.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("it has: {}", names.join(", "))
                };
                let message = format!("no context {name:?} in {rel}{hint}; {listed}");
                self.fail(item.at, &at, message);
                continue;
            }
            self.targets.push(Target::windsor(self.base, &rel, name));
        }
    }

    fn bluelink(&mut self, item: &Node, blueprint: &Node, path: &str) {
        let Some(rel) = self.path(blueprint, &join_key(path, "bluelink"), true) else {
            return;
        };
        let (folder, name) = match rel.rsplit_once('/') {
            Some((folder, name)) => (folder.to_string(), name.to_string()),
            None => (String::new(), rel.clone()),
        };
        let mut file = |key: &str| -> Result<Option<String>, ()> {
            match item.get(key) {
                None => Ok(None),
                Some(node) => self.path(node, &join_key(path, key), true).map(Some).ok_or(()),
            }
        };
        let (Ok(vars), Ok(datasources), Ok(resource_state)) =
            (file("vars"), file("datasources"), file("resource-state"))
        else {
            return;
        };
        let set = match item.get("set") {
            None => None,
            Some(node) => match node.as_str() {
                Some(s) if !s.is_empty() && !s.contains(['/', '\\', '@']) && !s.trim().is_empty() => Some(s),
                _ => {
                    let message = "a set is named by a non-empty text without '/' or '@'";
                    return self.fail(node.at, &join_key(path, "set"), message);
                }
            },
        };
        // What lies beside the blueprint, as discovery would see it.
        let names = listing(&self.base.join(&folder));
        let siblings = Siblings::of(&folder, &names);
        let beside = |p: String| self.base.join(join(&folder, &p));
        let files = Files {
            vars: None,
            datasources: match datasources {
                Some(p) => Some(self.base.join(p)),
                None => siblings
                    .beside(self.base, &name, Role::Datasources, self.problems)
                    .map(beside),
            },
            resource_state: match resource_state {
                Some(p) => Some(self.base.join(p)),
                None => siblings
                    .beside(self.base, &name, Role::ResourceState, self.problems)
                    .map(beside),
            },
        };
        if let Some(vars) = vars {
            let files = Files {
                vars: Some(self.base.join(vars)),
                ..files
            };
            return self.targets.push(Target::bluelink(self.base, &rel, set, files));
        }
        let sets = siblings.sets(self.base, &name, self.problems);
        let with = |(set, vars): (Option<String>, String)| {
            let files = Files {
                vars: Some(beside(vars)),
                ..files.clone()
            };
            Target::bluelink(self.base, &rel, set.as_deref(), files)
        };
        match set {
            None if sets.is_empty() => self.targets.push(Target::bluelink(self.base, &rel, None, files)),
            None => self.targets.extend(sets.into_iter().map(with)),
            Some(set) => match sets.get(&Some(set.to_string())) {
                Some(vars) => self.targets.push(with((Some(set.to_string()), vars.clone()))),
                None => {
                    let named: Vec<&str> = sets.keys().flatten().map(String::as_str).collect();
                    let hint = match closest(set, &named) {
                        Some(k) => format!(" (did you mean {k:?}?)"),
                        None => String::new(),
                    };
                    let stem = stem(&name);
                    let message = format!(
                        "no variable file for set {set:?} beside {rel}{hint}: expected {stem}.{set}.vars.yaml, or name one with vars"
                    );
                    let at = item.get("set").map_or(item.at, |n| n.at);
                    self.fail(at, &join_key(path, "set"), message);
                }
            },
        }
    }
}

/// The names of the files in `dir` that have a blueprint's extension
/// (and may be a blueprint or belong to one), sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| role(n) != Role::Manifest && extension(n).is_some())
        .collect();
    names.sort();
    names
}

fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}
