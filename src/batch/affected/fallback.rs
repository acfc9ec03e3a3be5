//! What a target depends on when the cache has no current manifest of
//! it: its template loaded (not rendered) with its reads tracked, and
//! what a render may read beyond what a load shows, over-counted rather
//! than missed.
//!
//! - Windsor: the project's load, and for each context what deciding
//!   its facets reads (its values; the config blocks a v0.9 condition
//!   may read). A facet whose condition holds for the context in no
//!   round counts by what decides that alone. Any change under the
//!   context's own folder counts. When a file the project reads mentions
//!   a function that reads files (`jsonnet`, `file`, `yaml`,
//!   `yamlString`), any change under the project's folder counts, for
//!   every context, left-out facets whole.
//! - Bluelink: the blueprint's load, its variable, data source and
//!   resource-state files, and the files it includes, followed through
//!   their own includes; an include path made with `${..}` may name any
//!   file, so then any change under the batch folder counts.

use super::rule::Basis;
use crate::batch::discover::every_include;
use crate::batch::manifest::{LeftOut, LeftOuts, Read, base, real};
use crate::batch::target::{Kind, Target, slashed};
use crate::batch::template::Template;
use bpvm_runtime::root::inputs::{self, Inputs, Recorder, Seen};
use bpvm_runtime::root::{Root, normalize};
use bpvm_windsor::Project;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// The functions of a Windsor expression that read files.
const READERS: &[&str] = &["jsonnet", "file", "yaml", "yamlString"];

/// Includes followed at most this deep (as a render nests them).
const INCLUDE_DEPTH: usize = 64;

/// The basis of each of `targets`, which share one template.
pub(super) fn bases(targets: &[&Target]) -> Vec<Basis> {
    let Some(first) = targets.first() else {
        return Vec::new();
    };
    match first.kind {
        Kind::Windsor { .. } => windsor(targets),
        Kind::Bluelink { .. } => targets.iter().map(|t| bluelink(t)).collect(),
    }
}

/// `read` as a manifest's inputs (paths relative to the target's base).
fn as_read(target: &Target, read: &Inputs, left_out: &LeftOuts) -> Read {
    Read::of(&base(target), &[read], left_out)
}

/// `path` relative to the target's base, `/`-separated.
fn rel(target: &Target, path: &Path) -> String {
    let base = base(target);
    let path = real(path);
    path.strip_prefix(&base)
        .map(slashed)
        .unwrap_or_else(|_| path.display().to_string())
}

fn windsor(targets: &[&Target]) -> Vec<Basis> {
    let template = &targets[0].template;
    let project_dir = real(template);
    let recorder = Recorder::new();
    let loaded = inputs::track(&recorder, || Project::load(template));
    let load_read = recorder.inputs();
    let Ok(project) = loaded else {
        // A template that does not load: anything in it may be why.
        return whole_template(targets, &load_read, template, &project_dir);
    };
    let v09 = matches!(project.format, bpvm_windsor::Format::V09);
    let mut scan = Scan::new(&project.root);
    if scan.mentions_readers(&load_read) {
        // Any file of the project may be read: nothing to decide per
        // context.
        return whole_template(targets, &load_read, template, &project_dir);
    }
    targets
        .iter()
        .map(|t| {
            let Kind::Windsor { context } = &t.kind else {
                return Basis::default();
            };
            let recorder = Recorder::new();
            let took = inputs::track(&recorder, || {
                let _ = bpvm_windsor::validate::context(&project, context);
                bpvm_windsor::render::took_part(&project, context)
            });
            let mut read = load_read.clone();
            read.extend(&recorder.inputs());
            let open = scan.mentions_readers(&read);
            let mut within = vec![rel(t, &template.join("contexts").join(context))];
            let left_out = match (&took, open) {
                (Ok(took), false) => left_out(&project, took, &load_read, v09),
                _ => LeftOuts::new(),
            };
            if open {
                within.push(rel(t, template));
            }
            Basis {
                read: as_read(t, &read, &left_out),
                within,
                project: Some(project_dir.clone()),
            }
        })
        .collect()
}

/// Each target's basis when nothing can be decided per context: what
/// the load read, and any change under the template.
fn whole_template(targets: &[&Target], load_read: &Inputs, template: &Path, project_dir: &Path) -> Vec<Basis> {
    targets
        .iter()
        .map(|t| Basis {
            read: as_read(t, load_read, &LeftOuts::new()),
            within: vec![rel(t, template)],
            project: Some(project_dir.to_path_buf()),
        })
        .collect()
}

/// The entries of the facets not in `took` whose bytes are what the load
/// read.
fn left_out(project: &Project, took: &[usize], load_read: &Inputs, v09: bool) -> LeftOuts {
    let facets = project.facets.iter().enumerate();
    facets
        .filter(|(i, _)| !took.contains(i))
        .filter_map(|(_, f)| LeftOut::loaded(project, f, load_read, v09))
        .map(std::sync::Arc::new)
        .collect()
}

/// Whether files mention a function that reads files, each file read
/// once.
struct Scan<'r> {
    root: &'r Root,
    seen: HashMap<PathBuf, bool>,
}

impl<'r> Scan<'r> {
    fn new(root: &'r Root) -> Scan<'r> {
        Scan {
            root,
            seen: HashMap::new(),
        }
    }

    fn mentions_readers(&mut self, read: &Inputs) -> bool {
        let files = read.files.iter().filter(|(_, s)| matches!(s, Seen::File(_)));
        let mut any = false;
        for (path, _) in files {
            let path = Path::new(path);
            let root = self.root;
            any |= *self.seen.entry(path.to_path_buf()).or_insert_with(|| {
                match root.read_os(path, &path.to_string_lossy()) {
                    Ok(bytes) => calls_reader(&String::from_utf8_lossy(&bytes)),
                    // Unreadable now: it may say anything.
                    Err(_) => true,
                }
            });
        }
        any
    }
}

/// Whether `text` has a call of one of [`READERS`]: its name, not part
/// of a longer name, then `(` (spaces between allowed). Over-counts (a
/// word in a description), never under-counts.
fn calls_reader(text: &str) -> bool {
    let bytes = text.as_bytes();
    READERS.iter().any(|name| {
        text.match_indices(name).any(|(i, _)| {
            let before = i.checked_sub(1).map(|j| bytes[j]);
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            if before.is_some_and(word) {
                return false;
            }
            let after = text[i + name.len()..].trim_start();
            after.starts_with('(')
        })
    })
}

fn bluelink(target: &Target) -> Basis {
    let recorder = Recorder::new();
    let _ = inputs::track(&recorder, || Template::load(target));
    let read = recorder.inputs();
    let mut within = Vec::new();
    if let Kind::Bluelink { files, .. } = &target.kind {
        for f in [&files.vars, &files.datasources, &files.resource_state]
            .into_iter()
            .flatten()
        {
            within.push(rel(target, f));
        }
    }
    match Root::new(&target.base, "batch folder") {
        Ok(root) => match includes(&root, &target.template) {
            Some(files) => within.extend(files.iter().map(|f| rel(target, f))),
            None => within.push(String::new()),
        },
        Err(_) => within.push(String::new()),
    }
    Basis {
        read: as_read(target, &read, &LeftOuts::new()),
        within,
        project: None,
    }
}

/// The files `blueprint` includes, followed through their includes;
/// `None` when an include path is made with `${..}` (it may be any file).
fn includes(root: &Root, blueprint: &Path) -> Option<BTreeSet<PathBuf>> {
    let mut found = BTreeSet::new();
    let mut pending = vec![(std::path::absolute(blueprint).ok()?, 0)];
    while let Some((file, depth)) = pending.pop() {
        let Ok(bytes) = root.read_os(&file, &file.to_string_lossy()) else {
            continue;
        };
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Some(paths) = every_include(&name, &String::from_utf8_lossy(&bytes)) else {
            continue;
        };
        let dir = file.parent().map(Path::to_path_buf).unwrap_or_default();
        for p in paths {
            if p.contains("${") {
                return None;
            }
            let child = normalize(&dir.join(&p));
            if depth < INCLUDE_DEPTH && found.insert(child.clone()) {
                pending.push((child, depth + 1));
            }
        }
    }
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::calls_reader;

    #[test]
    fn calls_of_file_readers() {
        for (text, yes) in [
            ("settings: ${jsonnet(\"x.jsonnet\")}", true),
            ("v: ${file ('a.txt')}", true),
            ("v: ${\"a.yaml\" | yaml()}", true),
            ("v: ${yamlString(x)}", true),
            ("v: ${profile(x)}", false),
            ("description: a file of settings", false),
            ("v: ${my_file(x)}", false),
        ] {
            assert_eq!(calls_reader(text), yes, "{text}");
        }
    }
}
