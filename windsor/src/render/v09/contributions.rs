//! Contributions folded by ordinal and strategy (Windsor v0.9's table),
//! and component lists kept in dependency order as they are written.

use crate::blueprint::merge::merge_component;
use crate::kind::{Kind, Strategy};
use bpvm_runtime::Map;
use foldhash::{HashMap, HashSet};

/// The entries of one list, in collection order, found by identity.
#[derive(Default)]
pub struct Entries {
    /// The entries, by identity, in collection order.
    pub list: Vec<(String, Entry)>,
    at: HashMap<String, usize>,
}

/// A component list kept in dependency order (depth-first, in list
/// order) after every write, as Windsor re-sorts it after each one. A
/// sorted list is its own sort, so a write only re-sorts when it leaves
/// a component before one it depends on.
pub struct Sorted {
    /// The components, by identity, in order.
    pub list: Vec<(String, Map)>,
    at: HashMap<String, usize>,
    /// Every name some component's `dependsOn` lists.
    wanted: HashSet<String>,
}

impl Sorted {
    /// `list`, sorted.
    pub fn new(list: Vec<(String, Map)>) -> Sorted {
        let mut s = Sorted {
            list,
            at: HashMap::default(),
            wanted: HashSet::default(),
        };
        s.resort();
        s
    }

    fn resort(&mut self) {
        self.list = crate::blueprint::order::topological(std::mem::take(&mut self.list));
        self.at = self
            .list
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (id.clone(), i))
            .collect();
        for (_, c) in &self.list {
            self.wanted
                .extend(crate::blueprint::deps::names(c).into_iter().map(str::to_string));
        }
    }

    /// Merges `body` into component `id` (or replaces it), or appends it.
    pub fn write(&mut self, kind: Kind, id: &str, body: &Map, merge: bool) {
        let out_of_order = match self.at.get(id) {
            Some(&i) => {
                let have = &mut self.list[i].1;
                if merge {
                    merge_component(kind, have, body);
                } else {
                    *have = body.clone();
                }
                let deps = crate::blueprint::deps::names(have);
                self.wanted.extend(deps.iter().map(|d| d.to_string()));
                deps.iter().any(|d| self.at.get(*d).is_some_and(|&j| j > i))
            }
            None => {
                self.at.insert(id.to_string(), self.list.len());
                self.list.push((id.to_string(), body.clone()));
                self.wanted
                    .extend(crate::blueprint::deps::names(body).into_iter().map(str::to_string));
                self.wanted.contains(id)
            }
        };
        if out_of_order {
            self.resort();
        }
    }
}

/// A contribution to a component or system, with what decides its fold.
pub struct Entry {
    /// The contribution, evaluated.
    pub body: Map,
    /// Its ordinal.
    pub ordinal: i64,
    /// How it folds.
    pub strategy: Strategy,
}

/// Folds `incoming` into the entry of its identity (Windsor v0.9's table:
/// a higher ordinal wins, a lower one only merges under, equal ordinals
/// go by strategy rank, then by strategy).
pub fn fold(entries: &mut Entries, id: &str, incoming: Entry, merge: &dyn Fn(&mut Map, &Map)) {
    let Some(&i) = entries.at.get(id) else {
        entries.at.insert(id.to_string(), entries.list.len());
        entries.list.push((id.to_string(), incoming));
        return;
    };
    let old = &mut entries.list[i].1;
    let either_removes = old.strategy == Strategy::Remove || incoming.strategy == Strategy::Remove;
    if incoming.ordinal > old.ordinal {
        if incoming.strategy == Strategy::Merge && !either_removes {
            merge(&mut old.body, &incoming.body);
            old.ordinal = incoming.ordinal;
        } else {
            *old = incoming;
        }
    } else if incoming.ordinal < old.ordinal {
        if incoming.strategy == Strategy::Merge && old.strategy != Strategy::Remove {
            let mut under = incoming.body;
            merge(&mut under, &old.body);
            old.body = under;
        }
    } else if incoming.strategy.rank() > old.strategy.rank() {
        *old = incoming;
    } else if incoming.strategy == old.strategy {
        match incoming.strategy {
            Strategy::Replace => *old = incoming,
            Strategy::Merge => merge(&mut old.body, &incoming.body),
            Strategy::Remove => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm_runtime::Value;

    /// A component named `id` depending on `deps`.
    fn component(id: &str, deps: &[String]) -> Map {
        let mut m = Map::new();
        m.insert("name", Value::Str(id.into()));
        m.insert(
            "dependsOn",
            Value::List(deps.iter().map(|d| Value::Str(d.as_str().into())).collect()),
        );
        m
    }

    #[test]
    fn writes_keep_the_order_re_sorting_after_every_write_gives() {
        // Pseudo-random lists of up to 7 components with random acyclic
        // dependencies (a cycle fails the render anyway), written in
        // random order, some twice (a merge).
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..3000 {
            let n = 1 + next(7) as usize;
            let names: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
            let mut writes = Vec::new();
            for _ in 0..n + next(3) as usize {
                let k = next(n as u64) as usize;
                let id = &names[k];
                let deps: Vec<String> = names[..k].iter().filter(|_| next(3) == 0).cloned().collect();
                writes.push((id.clone(), component(id, &deps)));
            }
            let mut naive: Vec<(String, Map)> = Vec::new();
            let mut sorted = Sorted::new(Vec::new());
            for (id, body) in &writes {
                match naive.iter_mut().find(|(i, _)| i == id) {
                    Some((_, have)) => merge_component(Kind::Terraform, have, body),
                    None => naive.push((id.clone(), body.clone())),
                }
                naive = crate::blueprint::order::topological(naive);
                sorted.write(Kind::Terraform, id, body, true);
            }
            let ids = |l: &[(String, Map)]| l.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&sorted.list), ids(&naive), "{writes:?}");
        }
    }
}
