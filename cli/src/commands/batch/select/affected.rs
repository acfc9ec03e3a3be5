//! `--affected-by REV`, `--changed-files FILE` and `--list`: the targets
//! a change affects, chosen before anything renders, and listed for a CI
//! matrix. It imports the command's `args` alone.

use super::super::args::Args;
use bpvm::batch::{self, Changes, Format, Options, Report, Target, Why};
use std::collections::HashMap;
use std::path::Path;

/// The targets to run and why each runs, or all of them when no change
/// was given.
pub struct Selection {
    pub targets: Vec<Target>,
    /// Why each target runs, by id (empty without a change).
    pub why: HashMap<String, Why>,
    /// Targets left out because no change affects them; `None` without
    /// a change.
    pub unaffected: Option<usize>,
}

/// The targets of `targets` the change `args` names affects.
pub fn select(
    args: &Args,
    targets: Vec<Target>,
    repo: &Path,
    format: Format,
    cache: Option<batch::Cache>,
) -> Result<Selection, String> {
    let changes = match (&args.affected_by, &args.changed_files) {
        (Some(rev), _) => Changes::since(repo, rev).map_err(|e| format!("error: --affected-by {rev}: {e}"))?,
        (None, Some(list)) => {
            Changes::listed(repo, list).map_err(|e| format!("error: --changed-files {}: {e}", list.display()))?
        }
        (None, None) => {
            return Ok(Selection {
                targets,
                why: HashMap::new(),
                unaffected: None,
            });
        }
    };
    let options = Options {
        format,
        strict: args.strict,
        cache,
        ..Options::default()
    };
    let verdicts = batch::affected(&targets, &changes, &options);
    let total = targets.len();
    let mut why = HashMap::new();
    let mut chosen = Vec::new();
    for (t, verdict) in targets.into_iter().zip(verdicts) {
        if let Some(w) = verdict {
            why.insert(t.id.clone(), w);
            chosen.push(t);
        }
    }
    Ok(Selection {
        unaffected: Some(total - chosen.len()),
        targets: chosen,
        why,
    })
}

/// `--list`: the ids, one per line, or as JSON.
pub fn list(selection: &Selection, json: bool) -> String {
    if json {
        let items: Vec<serde_json::Value> = selection
            .targets
            .iter()
            .map(|t| serde_json::json!({"id": t.id, "affected_by": selection.why.get(&t.id)}))
            .collect();
        let mut text = serde_json::to_string_pretty(&items).unwrap_or_default();
        text.push('\n');
        return text;
    }
    selection.targets.iter().map(|t| format!("{}\n", t.id)).collect()
}

/// Why each target of `selection` runs, one line each (stderr).
pub fn explain(selection: &Selection) {
    for t in &selection.targets {
        if let Some(why) = selection.why.get(&t.id) {
            eprintln!("{}", crate::paint::safe(&format!("affected: {}: {why}", t.id)));
        }
    }
}

/// Each record of `report` says why its target ran; the report says how
/// many did not.
pub fn mark(report: &mut Report, selection: &Selection) {
    for r in &mut report.records {
        r.affected_by = selection.why.get(&r.id).cloned();
    }
    report.unaffected = selection.unaffected;
}
