//! The secret values a target's render may print, so that the diff
//! never shows them: a Windsor context's values at the paths its schema
//! marks `sensitive: true`, a Bluelink blueprint's `secret: true`
//! variables. Bluelink masks what it computes from a secret already
//! (its values serve only to tell that a secret changed); Windsor prints
//! the values as they are, so each of its secret values is masked
//! wherever its text appears in the output, at either side.

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

/// Shorter secret values are masked only where they stand alone (not
/// inside a longer word): masking every `x` would hide the diff, and so
/// short a value hides little.
const SHORT: usize = 4;

/// A target's secret values by name (a dotted values path, or a
/// variable's name; names are not secret), and whether their text is
/// masked in output (Windsor's) or the renderer masked it (Bluelink's).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Secrets {
    values: BTreeMap<String, String>,
    masks_text: bool,
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
            targets.iter().map(|t| Secrets::read(t, true, read)).collect()
        }
        Kind::Bluelink { .. } => {
            let root = Root::new(&first.base, "batch folder").ok();
            let bp = root.as_ref().and_then(|r| blueprint(r, first));
            let read = |t: &Target, found: &mut BTreeMap<String, String>| {
                if let (Some(r), Some(bp), Kind::Bluelink { files, .. }) = (&root, &bp, &t.kind) {
                    bluelink(bp, r, files.vars.as_deref(), found);
                }
            };
            targets.iter().map(|t| Secrets::read(t, false, read)).collect()
        }
    }
}

impl Secrets {
    /// What `read` finds for `target`; the text masked when `masks_text`.
    fn read(target: &Target, masks_text: bool, read: impl Fn(&Target, &mut BTreeMap<String, String>)) -> Secrets {
        let mut values = BTreeMap::new();
        read(target, &mut values);
        values.retain(|_, v: &mut String| !v.is_empty());
        Secrets { values, masks_text }
    }

    /// `text` with every secret value's text replaced by [`MASK`]: the
    /// longest first, so that a secret holding another is masked whole.
    pub fn mask(&self, text: &str) -> String {
        if !self.masks_text {
            return text.to_string();
        }
        let mut forms: Vec<String> = self.values.values().flat_map(|v| forms(v)).collect();
        forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        forms.dedup();
        let mut out = text.to_string();
        for f in forms {
            if f.chars().count() < SHORT {
                out = alone(&out, &f);
            } else if out.contains(&f) {
                out = out.replace(&f, MASK);
            }
        }
        out
    }

    /// `true` when `raw` (a render's output before masking) may hold a
    /// secret value: it holds one's text, or a value its renderer masked.
    fn shown_in(&self, raw: &str) -> bool {
        raw.contains(MASK) || self.values.values().flat_map(|v| forms(v)).any(|f| raw.contains(&f))
    }
}

/// The names of the secrets whose values differ between `before` and
/// `after` (or that one side lacks), when the output of either side
/// may show them.
pub(crate) fn changed(before: &Secrets, after: &Secrets, raw_before: &str, raw_after: &str) -> Vec<String> {
    if !before.shown_in(raw_before) && !after.shown_in(raw_after) {
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

/// `text` with each occurrence of `short` that is not part of a longer
/// word (letters, digits, `_` on neither side) replaced by [`MASK`].
fn alone(text: &str, short: &str) -> String {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(short) {
        let (before, after) = (&rest[..at], &rest[at + short.len()..]);
        out.push_str(before);
        let joined = word(out.chars().next_back()) || word(after.chars().next());
        out.push_str(if joined { short } else { MASK });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The texts a secret value may be printed as: itself, as JSON and
/// single-quoted YAML escape it, and each line of a multi-line one (a
/// YAML block prints the lines apart).
fn forms(value: &str) -> Vec<String> {
    let mut out = vec![value.to_string()];
    let json = serde_json::to_string(value).unwrap_or_default();
    let inner = json.strip_prefix('"').and_then(|j| j.strip_suffix('"'));
    out.extend(inner.map(str::to_string));
    out.push(value.replace('\'', "''"));
    if value.contains('\n') {
        out.extend(
            value
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string),
        );
    }
    out.retain(|f| !f.is_empty());
    out
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
            masks_text: true,
        }
    }

    #[test]
    fn every_printed_form_of_a_secret_is_masked() {
        let s = secrets(&[
            ("token", "s3cret"),
            ("long", "s3cret-and-more"),
            ("quoted", "it's \"x\""),
        ]);
        assert_eq!(
            s.mask("a: s3cret\nb: x-s3cret-and-more\nc: 'it''s \"x\"'\nd: \"it's \\\"x\\\"\"\n"),
            "a: ********\nb: x-********\nc: '********'\nd: \"********\"\n"
        );
        let multi = secrets(&[("key", "-----BEGIN-----\nabc123\n-----END-----\n")]);
        assert_eq!(
            multi.mask("key: |\n  -----BEGIN-----\n  abc123\n"),
            "key: |\n  ********\n  ********\n"
        );
    }

    #[test]
    fn a_short_secret_is_masked_where_it_stands_alone() {
        let s = secrets(&[("pin", "x7")]);
        assert_eq!(
            s.mask("pin: x7\nexports: {}\nlabel: a-x7\nid: ax7\nx7y: x7"),
            "pin: ********\nexports: {}\nlabel: a-********\nid: ax7\nx7y: ********"
        );
    }

    #[test]
    fn what_the_renderer_masked_is_left_as_it_is() {
        let s = Secrets {
            values: [("password".to_string(), "x".to_string())].into(),
            masks_text: false,
        };
        let text = "exports: {}\npassword: \"********\"\n";
        assert_eq!(s.mask(text), text);
    }

    #[test]
    fn a_secret_counts_as_changed_only_where_output_may_show_it() {
        let (a, b) = (
            secrets(&[("token", "one"), ("same", "x")]),
            secrets(&[("token", "two"), ("same", "x"), ("new", "fresh")]),
        );
        assert_eq!(changed(&a, &b, "t: one", "t: two"), ["new", "token"]);
        assert_eq!(changed(&a, &b, "t: ********", "t: ********"), ["new", "token"]);
        assert!(changed(&a, &b, "nothing", "nothing").is_empty());
    }
}
