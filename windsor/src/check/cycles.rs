//! `dependsOn` chains that lead back to where they start, across every
//! file of the template: a render that includes all of their components
//! fails, so each cycle is reported once, at the `dependsOn` entry of its
//! first component that names the next.

use super::depends::Dependency;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// A cycle found: the entry to report it at (file index, dependency) and
/// the message.
pub struct Cycle<'d> {
    /// The file the entry is in, by its index in the files given.
    pub file: usize,
    /// The `dependsOn` entry.
    pub at: &'d Dependency,
    /// What is wrong.
    pub message: String,
}

/// The cycles among `deps` (each file's `dependsOn` entries, by file
/// index), terraform components and kustomizations each among their own.
pub fn cycles(deps: &[Vec<Dependency>]) -> Vec<Cycle<'_>> {
    let mut out = Vec::new();
    for (list, what) in [("terraform", "terraform components"), ("kustomize", "kustomizations")] {
        let entries: Vec<(usize, &Dependency)> = deps
            .iter()
            .enumerate()
            .flat_map(|(f, ds)| ds.iter().map(move |d| (f, d)))
            .filter(|(_, d)| d.list == list && !d.from.is_empty())
            .collect();
        out.extend(in_list(&entries, what));
    }
    out
}

/// The cycles among one list's entries.
fn in_list<'d>(entries: &[(usize, &'d Dependency)], what: &str) -> Vec<Cycle<'d>> {
    let mut names = Names::default();
    // Each edge's first entry, to report the cycle at.
    let mut first: HashMap<(usize, usize), (usize, &'d Dependency)> = HashMap::new();
    let mut graph: Vec<Vec<usize>> = Vec::new();
    for &(file, d) in entries {
        let (from, to) = (names.index(&d.from), names.index(&d.name));
        graph.resize(names.all.len(), Vec::new());
        if let Entry::Vacant(v) = first.entry((from, to)) {
            v.insert((file, d));
            graph[from].push(to);
        }
    }
    crate::blueprint::cycles::cycles(&graph)
        .into_iter()
        .filter_map(|cycle| {
            let next = cycle.get(1).copied().unwrap_or(cycle[0]);
            let (file, d) = *first.get(&(cycle[0], next))?;
            let mut path: Vec<&str> = cycle.iter().map(|&i| names.all[i]).collect();
            path.push(names.all[cycle[0]]);
            let message = format!("{what} depend on each other in a cycle: {}", path.join(" → "));
            Some(Cycle { file, at: d, message })
        })
        .collect()
}

/// Component names numbered in the order first met.
#[derive(Default)]
struct Names<'d> {
    all: Vec<&'d str>,
    at: HashMap<&'d str, usize>,
}

impl<'d> Names<'d> {
    fn index(&mut self, name: &'d str) -> usize {
        *self.at.entry(name).or_insert_with(|| {
            self.all.push(name);
            self.all.len() - 1
        })
    }
}
