//! A component list's dependencies as a graph: for each component, the
//! positions of the components its `dependsOn` names, found through an
//! index of identities once rather than by scanning the list per name.

use bpvm_runtime::{Map, Value};
use foldhash::HashMap;

/// The names in a component's `dependsOn`.
pub fn names(c: &Map) -> Vec<&str> {
    match c.get("dependsOn") {
        Some(Value::List(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The dependencies of a component list.
pub struct Graph<'a> {
    /// Each component's dependencies in the list (the first component of
    /// a name), in `dependsOn` order.
    pub deps: Vec<Vec<usize>>,
    /// Names no component has, with the position of the component
    /// naming them, in list and `dependsOn` order.
    pub missing: Vec<(usize, &'a str)>,
}

/// The graph of `items`.
pub fn graph(items: &[(String, Map)]) -> Graph<'_> {
    let mut at: HashMap<&str, usize> = HashMap::with_capacity_and_hasher(items.len(), Default::default());
    for (i, (id, _)) in items.iter().enumerate() {
        at.entry(id.as_str()).or_insert(i);
    }
    let mut missing = Vec::new();
    let deps = items
        .iter()
        .enumerate()
        .map(|(i, (_, c))| {
            names(c)
                .into_iter()
                .filter_map(|d| {
                    let found = at.get(d).copied();
                    if found.is_none() {
                        missing.push((i, d));
                    }
                    found
                })
                .collect()
        })
        .collect();
    Graph { deps, missing }
}
