//! The secret values a target's render reads: a Windsor context's values
//! at the paths its schema marks `sensitive: true`, a Bluelink
//! blueprint's `secret: true` variables. Both renderers mask what they
//! compute from a secret, so these values are never printed: they serve
//! only to tell that a secret changed where the masked output did not.

use crate::batch::{Kind, Target};
use bpvm_runtime::root::Root;
use bpvm_runtime::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// What a masked value shows as (as Bluelink prints one).
///
/// ```
/// assert_eq!(bpvm::diff::MASK, "********");
/// ```
pub const MASK: &str = bpvm_bluelink::resolved::MASK;

/// A target's secret values by name (a dotted values path, or a
/// variable's name; names are not secret).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Secrets {
    values: BTreeMap<String, String>,
}

/// The secret values each of `targets` reads, in order: each template
/// loaded once for all of its targets, templates on `jobs` threads (0:
/// one per core). A template that does not load gives none (its render
/// fails and shows no output then).
pub(crate) fn of_all(targets: &[&Target], jobs: usize) -> Vec<Secrets> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index: HashMap<&Path, usize> = HashMap::new();
    for (i, t) in targets.iter().enumerate() {
        let g = *index.entry(t.template.as_path()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    let threads = match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(groups.len().max(1));
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<Secrets>> = Mutex::new(vec![Secrets::default(); targets.len()]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                while let Some(group) = groups.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let members: Vec<&Target> = group.iter().map(|&i| targets[i]).collect();
                    let secrets = of_template(&members);
                    let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
                    for (&i, s) in group.iter().zip(secrets) {
                        found[i] = s;
                    }
                }
            });
        }
    });
    found.into_inner().unwrap_or_else(PoisonError::into_inner)
}

/// The secret values of `targets`, which share one template.
fn of_template(targets: &[&Target]) -> Vec<Secrets> {
    let Some(first) = targets.first() else {
        return Vec::new();
    };
    match &first.kind {
        Kind::Windsor { .. } => {
            let project = bpvm_windsor::Project::load(&first.template).ok();
            let read = |t: &Target, found: &mut BTreeMap<String, String>| {
                if let (Some(p), Kind::Windsor { context }) = (&project, &t.kind) {
                    windsor(p, context, found);
                }
            };
            targets.iter().map(|t| Secrets::read(t, read)).collect()
        }
        Kind::Bluelink { .. } => {
            let root = Root::new(&first.base, "batch folder").ok();
            let bp = root.as_ref().and_then(|r| blueprint(r, first));
            let read = |t: &Target, found: &mut BTreeMap<String, String>| {
                if let (Some(r), Some(bp), Kind::Bluelink { files, .. }) = (&root, &bp, &t.kind) {
                    bluelink(bp, r, files.vars.as_deref(), found);
                }
            };
            targets.iter().map(|t| Secrets::read(t, read)).collect()
        }
    }
}

impl Secrets {
    /// What `read` finds for `target`.
    fn read(target: &Target, read: impl Fn(&Target, &mut BTreeMap<String, String>)) -> Secrets {
        let mut values = BTreeMap::new();
        read(target, &mut values);
        values.retain(|_, v: &mut String| !v.is_empty());
        Secrets { values }
    }
}

/// `true` when `raw` (a render's output) may hold a secret value: it
/// holds a value its renderer masked.
fn masks_some(raw: &str) -> bool {
    raw.contains(MASK)
}

/// The names of the secrets whose values differ between `before` and
/// `after` (or that one side lacks), when the output of either side
/// may show them.
pub(crate) fn changed(before: &Secrets, after: &Secrets, raw_before: &str, raw_after: &str) -> Vec<String> {
    if !masks_some(raw_before) && !masks_some(raw_after) {
        return Vec::new();
    }
    let mut names: Vec<String> = before
        .values
        .iter()
        .filter(|(k, v)| after.values.get(*k) != Some(v))
        .map(|(k, _)| k.clone())
        .collect();
    names.extend(after.values.keys().filter(|k| !before.values.contains_key(*k)).cloned());
    names.sort();
    names
}

/// A Windsor context's values at the schema's sensitive paths.
fn windsor(project: &bpvm_windsor::Project, context: &str, found: &mut BTreeMap<String, String>) {
    let Ok((values, _)) = bpvm_windsor::scope::traced(project, context) else {
        return;
    };
    // Masking a copy with a marker no value holds shows where the
    // sensitive values are.
    let marker = "\u{0}bpvm-sensitive\u{0}";
    let mut masked = values.clone();
    project.sensitive.mask(&mut masked, marker);
    sensitive(&values, &masked, marker, "", found);
}

/// The leaves of `values` that `masked` replaced with `marker`.
fn sensitive(values: &Map, masked: &Map, marker: &str, at: &str, found: &mut BTreeMap<String, String>) {
    for (k, v) in values.iter() {
        let path = if at.is_empty() {
            k.as_str().to_string()
        } else {
            format!("{at}.{}", k.as_str())
        };
        match masked.get(k.as_str()) {
            Some(Value::Str(s)) if &**s == marker => leaves(v, &path, found),
            Some(Value::Map(inner)) => {
                if let Value::Map(v) = v {
                    sensitive(v, inner, marker, &path, found);
                }
            }
            _ => {}
        }
    }
}

/// Each text leaf of `v`, named by its path. Booleans and nulls are not
/// secrets worth masking (masking every `true` would hide the diff).
fn leaves(v: &Value, path: &str, found: &mut BTreeMap<String, String>) {
    match v {
        Value::Null | Value::Bool(_) => {}
        Value::Map(m) => m
            .iter()
            .for_each(|(k, v)| leaves(v, &format!("{path}.{}", k.as_str()), found)),
        Value::List(items) => items
            .iter()
            .enumerate()
            .for_each(|(i, v)| leaves(v, &format!("{path}[{i}]"), found)),
        other => {
            found.insert(path.to_string(), bpvm_runtime::text::to_text(other));
        }
    }
}

/// A Bluelink blueprint's secret variables, with the values its
/// variable file gives them (or their defaults).
fn bluelink(bp: &bpvm_bluelink::Blueprint, root: &Root, vars: Option<&Path>, found: &mut BTreeMap<String, String>) {
    let given = vars.and_then(|p| read(root, p)).unwrap_or_default();
    for var in bp.variables.iter().filter(|v| v.secret) {
        if let Some(value) = given.get(&var.name).or(var.default.as_ref()) {
            leaves(value, &var.name, found);
        }
    }
}

/// The blueprint `target` renders, loaded through `root` as the batch
/// loads it.
fn blueprint(root: &Root, target: &Target) -> Option<bpvm_bluelink::Blueprint> {
    let path = std::path::absolute(&target.template).unwrap_or_else(|_| target.template.clone());
    bpvm_bluelink::load::load_in(root, &path, &target.template.display().to_string()).ok()
}

/// A variable file's values, read through `root`.
fn read(root: &Root, path: &Path) -> Option<Map> {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let text = root.read_string(root.dir(), &abs.to_string_lossy()).ok()?;
    bpvm_bluelink::render::mapping(&text, "variable names to values").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets(pairs: &[(&str, &str)]) -> Secrets {
        Secrets {
            values: pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }

    #[test]
    fn a_secret_counts_as_changed_only_where_output_shows_a_masked_value() {
        let (a, b) = (
            secrets(&[("token", "one"), ("same", "x")]),
            secrets(&[("token", "two"), ("same", "x"), ("new", "fresh")]),
        );
        assert_eq!(changed(&a, &b, "t: ********", "t: ********"), ["new", "token"]);
        // Nothing masked: the output reads no secret, whatever its text.
        assert!(changed(&a, &b, "t: one", "t: two").is_empty());
        assert!(changed(&a, &b, "nothing", "nothing").is_empty());
    }
}
