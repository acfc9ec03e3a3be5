//! Folding contributions into components (W4): for each component of a
//! kind, the base blueprint's version, then every contribution to it in
//! (ordinal, facet order) order, each by its strategy.

use crate::blueprint::lists::Lists;
use crate::blueprint::merge::{merge_in_row, remove_from, removes_whole};
use crate::kind::{Kind, Strategy};
use bpvm_runtime::Map;
use foldhash::HashMap;

/// One facet's contribution to one component.
pub struct Contribution {
    pub kind: Kind,
    pub id: String,
    pub ordinal: i64,
    pub strategy: Strategy,
    pub body: Map,
}

/// The components of `kind`: the base blueprint's first, then new ones in
/// contribution order, each with every contribution folded in.
pub fn fold(kind: Kind, base: &[(Kind, String, Map)], contributions: &[Contribution]) -> Vec<(String, Map)> {
    // Each component with its contributions, found by identity.
    let mut out: Vec<(String, Option<Map>, Vec<&Contribution>)> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::default();
    for (k, id, c) in base {
        if *k == kind && !at.contains_key(id.as_str()) {
            at.insert(id, out.len());
            out.push((id.clone(), Some(c.clone()), Vec::new()));
        }
    }
    for c in contributions.iter().filter(|c| c.kind == kind) {
        let i = *at.entry(&c.id).or_insert_with(|| {
            out.push((c.id.clone(), None, Vec::new()));
            out.len() - 1
        });
        out[i].2.push(c);
    }
    out.into_iter()
        .filter_map(|(id, state, mut mine)| {
            // Stable: equal ordinals keep facet order.
            mine.sort_by_key(|c| c.ordinal);
            apply(kind, state, &mine).map(|s| (id, s))
        })
        .collect()
}

/// `state` with `mine` folded in, in order.
fn apply(kind: Kind, mut state: Option<Map>, mine: &[&Contribution]) -> Option<Map> {
    let mut lists = Lists::default();
    for c in mine {
        match (c.strategy, &mut state) {
            (Strategy::Merge, Some(s)) => merge_in_row(kind, s, &c.body, &mut lists),
            (Strategy::Merge, None) | (Strategy::Replace, _) => {
                lists = Lists::default();
                state = Some(c.body.clone());
            }
            (Strategy::Remove, _) if removes_whole(kind, &c.body) => {
                lists = Lists::default();
                state = None;
            }
            (Strategy::Remove, Some(s)) => {
                lists.settle(s);
                remove_from(s, &c.body);
            }
            (Strategy::Remove, None) => {}
        }
    }
    if let Some(s) = &mut state {
        lists.settle(s);
    }
    state
}
