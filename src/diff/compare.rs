//! The two sides' renders paired by target id, each pair told as a
//! change (or as unchanged), secrets masked at both sides.

use super::change::{Change, Entry};
use super::render::Rendered;
use super::secrets;
use std::collections::BTreeMap;

/// The changes between `before` (the revision) and `after` (the work
/// tree), by id, and how many targets are unchanged.
pub(crate) fn compare(before: BTreeMap<String, Rendered>, after: BTreeMap<String, Rendered>) -> (Vec<Entry>, usize) {
    let mut ids: Vec<&String> = before.keys().chain(after.keys()).collect();
    ids.sort();
    ids.dedup();
    let mut entries = Vec::new();
    let mut unchanged = 0;
    for id in ids {
        let (b, a) = (before.get(id), after.get(id));
        match change(b, a) {
            Some(change) => {
                // The work tree's name for it, else the revision's.
                let source = a.or(b).map_or(String::new(), |r| r.source.clone());
                entries.push(Entry {
                    id: id.clone(),
                    source,
                    change,
                })
            }
            None => unchanged += 1,
        }
    }
    (entries, unchanged)
}

/// What became of one target; `None` when nothing did.
fn change(before: Option<&Rendered>, after: Option<&Rendered>) -> Option<Change> {
    // Both renderers mask what they compute from a secret, in output
    // and in error messages.
    let shown = |r: &Rendered| -> Result<String, String> { r.raw.clone() };
    match (before, after) {
        (None, None) => None,
        (None, Some(a)) => Some(match shown(a) {
            Ok(after) => Change::Added { after },
            Err(e) => Change::Failed {
                before: None,
                after: Some(e),
            },
        }),
        (Some(b), None) => Some(match shown(b) {
            Ok(before) => Change::Removed { before },
            Err(e) => Change::Failed {
                before: Some(e),
                after: None,
            },
        }),
        (Some(b), Some(a)) => match (shown(b), shown(a), &b.raw, &a.raw) {
            (Ok(before), Ok(after), Ok(raw_b), Ok(raw_a)) => {
                let secrets = secrets::changed(&b.secrets, &a.secrets, raw_b, raw_a);
                if before != after {
                    Some(Change::Changed { before, after, secrets })
                } else if !secrets.is_empty() || raw_b != raw_a {
                    Some(Change::Secret { names: secrets })
                } else {
                    None
                }
            }
            (before, after, ..) => Some(Change::Failed {
                before: before.err(),
                after: after.err(),
            }),
        },
    }
}
