//! Affected targets: which targets of a batch a change can alter, so
//! that a pull request renders only those (`bpvm batch --affected-by
//! REV`, `--changed-files FILE`).
//!
//! A target is **affected** by a changed file (a path relative to the
//! repository's top) when its render depends on it:
//!
//! - the render reads the file, or a link on the way to it;
//! - the render looks at the path, or for it (a file that appears where
//!   it looked and found nothing is a change too);
//! - the file was added or removed directly inside a folder the render
//!   lists, or inside a new or removed folder there (editing a file the
//!   render does not read changes no listing);
//! - the file is a Windsor facet the render leaves out by its `when`
//!   (the condition held in no inclusion round) and what decides that
//!   changed: its condition, name, ordinal, what it would provide, the
//!   forms that pick the project's rules, or whether it loads without an
//!   error or warning. Editing the body of a facet one context leaves
//!   out does not affect that context;
//! - or the target is new: the revision had no file of its context
//!   folder (Windsor) or no blueprint file (Bluelink).
//!
//! Environment variables and output options are not files: a change to
//! them affects no target here (the render cache tells those apart).
//!
//! What a render depends on comes from the render cache, when it holds
//! a manifest of the target whose inputs are all as they were (a render
//! now would read exactly those); otherwise the template is loaded, not
//! rendered, with its reads tracked, and what a render may read beyond
//! a load counts whole (see `fallback`): every file under a Windsor
//! context's folder counts for that context, and every file under a
//! project whose files call `jsonnet`, `file`, `yaml` or `yamlString`
//! for each of its contexts; a Bluelink blueprint's variable and data
//! files and the files it includes count, and when an include path is
//! made with `${..}`, every file under the batch folder. This never
//! misses a target a change affects; it may count one that a render
//! would show unchanged.
//!
//! Without a revision (a list of changed files), an edited file cannot
//! be told from an added or removed one, nor a facet's old condition
//! from its new: each counts as the change that affects more.
//!
//! A Windsor project reads nothing outside its folder, so a change
//! outside it affects none of its contexts, which are then not looked at
//! further.
//!
//! Here: `changes` (what changed), `rule` (one path
//! against what a target depends on), `fallback` (what it depends on
//! without a manifest) and `saved` (the same rule for files saved just
//! now, by absolute path, which `--watch` asks).

mod changes;
mod fallback;
mod rule;
mod saved;

pub use changes::Changes;
pub use saved::Depends;

use super::cache::Cache;
use super::manifest::{base, output_options, real};
use super::run::Options;
use super::target::{Kind, Target, slashed};
use super::why::{How, Why};
use rule::{Basis, Changed};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// For each of `targets`, why it is affected by `changes`, or `None`
/// when it is not. Manifests come from `options.cache` when it holds a
/// current one for the target (made with `options`' format and
/// strictness and this version of bpvm); the others' templates are
/// loaded, each once.
///
/// ```
/// use bpvm::batch::{Changes, How, Options, Target, affected};
/// let dir = std::env::temp_dir().join(format!("bpvm-affected-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let dir = dir.canonicalize().unwrap();
/// let blueprint = "version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: orders}\n";
/// std::fs::write(dir.join("a.yaml"), blueprint).unwrap();
/// std::fs::write(dir.join("b.yaml"), blueprint).unwrap();
/// let targets = [
///     Target::bluelink(&dir, "a.yaml", None, Default::default()),
///     Target::bluelink(&dir, "b.yaml", None, Default::default()),
/// ];
/// let changes = Changes { top: dir.clone(), paths: ["b.yaml".to_string()].into(), before: None };
/// let why = affected(&targets, &changes, &Options::default());
/// assert!(why[0].is_none());
/// assert_eq!(why[1].as_ref().unwrap().how, How::Read);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn affected(targets: &[Target], changes: &Changes, options: &Options) -> Vec<Option<Why>> {
    let version = options.version();
    let output = output_options(options.format, options.strict);
    let mut seen = Default::default();
    let mut mapped: HashMap<PathBuf, Vec<Changed<'_>>> = HashMap::new();
    let mut loaded: HashMap<&Path, HashMap<String, Basis>> = HashMap::new();
    let mut out = Vec::with_capacity(targets.len());
    let mut touched: HashMap<&Path, bool> = HashMap::new();
    for t in targets {
        if let Some(why) = new_target(t, changes) {
            out.push(Some(why));
            continue;
        }
        // A Windsor project reads nothing outside its folder: with no
        // change there, none of its contexts is affected, and it need not
        // be loaded.
        let windsor = matches!(t.kind, Kind::Windsor { .. });
        if windsor
            && !*touched
                .entry(&t.template)
                .or_insert_with(|| changed_under(changes, &t.template))
        {
            out.push(None);
            continue;
        }
        let basis = match options
            .cache
            .as_ref()
            .and_then(|c| manifest(c, t, version, &output, &mut seen))
        {
            Some(b) => b,
            None => {
                let group = loaded.entry(&t.template).or_insert_with(|| {
                    let same: Vec<&Target> = targets.iter().filter(|o| o.template == t.template).collect();
                    let bases = fallback::bases(&same);
                    same.iter().map(|o| o.id.clone()).zip(bases).collect()
                });
                group.get(&t.id).cloned().unwrap_or_default()
            }
        };
        let base = base(t);
        let changed = mapped.entry(base.clone()).or_insert_with(|| map(changes, &base));
        out.push(rule::judge(&basis, &base, changed, changes));
    }
    out
}

/// The basis of a current manifest of `target` in `cache`.
fn manifest(
    cache: &Cache,
    target: &Target,
    version: &str,
    output: &std::collections::BTreeMap<String, String>,
    seen: &mut super::manifest::Checked,
) -> Option<Basis> {
    let m = cache.current(target, version, output, seen)?;
    Some(Basis {
        read: m.inputs,
        within: Vec::new(),
        project: matches!(target.kind, Kind::Windsor { .. }).then(|| real(&target.template)),
    })
}

/// Whether a changed path lies under `folder`.
fn changed_under(changes: &Changes, folder: &Path) -> bool {
    let folder = real(folder);
    changes.paths.iter().any(|p| changes.top.join(p).starts_with(&folder))
}

/// `changes`' paths relative to `base` (absolute when outside it).
fn map<'c>(changes: &'c Changes, base: &Path) -> Vec<Changed<'c>> {
    changes
        .paths
        .iter()
        .map(|p| {
            let abs = changes.top.join(p);
            let rel = abs
                .strip_prefix(base)
                .map(slashed)
                .unwrap_or_else(|_| abs.display().to_string());
            Changed { rel, top: p }
        })
        .collect()
}

/// Why `target` is new: the revision has no file of its context folder
/// (Windsor) or no blueprint file (Bluelink).
fn new_target(target: &Target, changes: &Changes) -> Option<Why> {
    let what = match &target.kind {
        Kind::Windsor { context } => target.template.join("contexts").join(context),
        Kind::Bluelink { .. } => target.template.clone(),
    };
    let top_rel = changes.in_repo(&real(&what))?;
    (changes.had(&top_rel) == Some(false)).then(|| Why::new(top_rel, How::New))
}
