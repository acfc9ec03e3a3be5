//! The order components are printed in, and the checks on their
//! dependencies: every dependency must exist, and none may be circular.

use super::error::Error;
use bpvm_runtime::Map;
use bpvm_runtime::Value;

fn deps(c: &Map) -> Vec<&str> {
    match c.get("dependsOn") {
        Some(Value::List(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Every dangling dependency and every cycle, as errors of `list`
/// (`terraform` or `kustomize`).
pub fn check(list: &str, items: &[(String, Map)]) -> Vec<Error> {
    let mut errors = Vec::new();
    let ids: Vec<&str> = items.iter().map(|(id, _)| id.as_str()).collect();
    for (id, c) in items {
        for d in deps(c) {
            if !ids.contains(&d) {
                errors.push(Error::new(
                    None,
                    format!("{list}[{id}].dependsOn"),
                    format!("depends on {d:?}, which is not in the blueprint"),
                ));
            }
        }
    }
    // A cycle is reported once, from its first member in list order.
    let mut reported: Vec<&str> = Vec::new();
    for (start, _) in items {
        if reported.contains(&start.as_str()) {
            continue;
        }
        if let Some(cycle) = cycle_from(items, start) {
            reported.extend(cycle.iter().copied());
            let mut path = cycle.join(" → ");
            path.push_str(" → ");
            path.push_str(cycle[0]);
            errors.push(Error::new(
                None,
                format!("{list}[{start}].dependsOn"),
                format!("dependency cycle: {path}"),
            ));
        }
    }
    errors
}

/// A cycle through `start`: the components on it, from `start`.
///
/// Like every walk here, it keeps its path in a list rather than on the
/// call stack: a chain of dependencies is as long as the blueprint.
fn cycle_from<'a>(items: &'a [(String, Map)], start: &'a str) -> Option<Vec<&'a str>> {
    let deps_of = |at: &str| {
        items
            .iter()
            .find(|(id, _)| id == at)
            .map_or_else(Vec::new, |(_, c)| deps(c))
    };
    let mut path = vec![start];
    // For each component on the path, its dependencies and the next to try.
    let mut open = vec![(deps_of(start), 0)];
    while let Some((ds, next)) = open.last_mut() {
        let Some(&d) = ds.get(*next) else {
            open.pop();
            path.pop();
            continue;
        };
        *next += 1;
        if d == start {
            return Some(path);
        }
        if path.contains(&d) {
            continue;
        }
        if let Some((id, _)) = items.iter().find(|(id, _)| id == d) {
            path.push(id);
            open.push((deps_of(id), 0));
        }
    }
    None
}

/// Dependencies first, otherwise in the current order (depth-first).
pub fn topological(items: Vec<(String, Map)>) -> Vec<(String, Map)> {
    let targets = |i: usize| -> Vec<usize> {
        deps(&items[i].1)
            .into_iter()
            .filter_map(|d| items.iter().position(|(id, _)| id == d))
            .collect()
    };
    let mut seen = vec![false; items.len()];
    let mut order = Vec::with_capacity(items.len());
    for i in 0..items.len() {
        if seen[i] {
            continue;
        }
        seen[i] = true;
        // The components being visited, each with its dependencies and
        // the next to visit; a component follows all of them.
        let mut open = vec![(i, targets(i), 0)];
        while let Some((at, ds, next)) = open.last_mut() {
            match ds.get(*next) {
                Some(&j) => {
                    *next += 1;
                    if !seen[j] {
                        seen[j] = true;
                        open.push((j, targets(j), 0));
                    }
                }
                None => {
                    order.push(*at);
                    open.pop();
                }
            }
        }
    }
    let mut slots: Vec<Option<(String, Map)>> = items.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// The longest chain of dependencies below `id` that repeats no component.
fn depth(items: &[(String, Map)], id: &str) -> usize {
    let below = |at: &str| -> Vec<String> {
        items.iter().find(|(i, _)| i == at).map_or_else(Vec::new, |(_, c)| {
            deps(c)
                .into_iter()
                .filter(|d| items.iter().any(|(i, _)| i == d))
                .map(str::to_string)
                .collect()
        })
    };
    let mut path = vec![id.to_string()];
    // For each component on the path: its dependencies, the next to look
    // at, and the deepest found below it so far.
    let mut open = vec![(below(id), 0, 0)];
    loop {
        let Some((ds, next, deepest)) = open.last_mut() else {
            return 0;
        };
        match ds.get(*next) {
            Some(d) => {
                *next += 1;
                if path.contains(d) {
                    *deepest = (*deepest).max(1);
                } else {
                    let d = d.clone();
                    open.push((below(&d), 0, 0));
                    path.push(d);
                }
            }
            None => {
                let found = *deepest;
                open.pop();
                path.pop();
                match open.last_mut() {
                    Some((_, _, parent)) => *parent = (*parent).max(1 + found),
                    None => return found,
                }
            }
        }
    }
}

/// Kustomizations: topological, then grouped by name prefix (up to the
/// first `-`), each group where its first member falls, ordered inside by
/// dependency depth and name (Windsor's order).
pub fn kustomize(items: Vec<(String, Map)>) -> Vec<(String, Map)> {
    let items = topological(items);
    let prefix = |id: &str| id.split('-').next().unwrap_or(id).to_string();
    let depth = |id: &str| depth(&items, id);
    let mut order: Vec<usize> = Vec::with_capacity(items.len());
    let mut done = vec![false; items.len()];
    for i in 0..items.len() {
        if done[i] {
            continue;
        }
        let p = prefix(&items[i].0);
        let mut group: Vec<usize> = (0..items.len())
            .filter(|&j| !done[j] && prefix(&items[j].0) == p)
            .collect();
        group.sort_by(|&a, &b| (depth(&items[a].0), &items[a].0).cmp(&(depth(&items[b].0), &items[b].0)));
        for j in group {
            done[j] = true;
            order.push(j);
        }
    }
    let mut slots: Vec<Option<(String, Map)>> = items.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(y: &str) -> Vec<(String, Map)> {
        let Value::List(list) = Value::from_yaml(y).unwrap() else {
            unreachable!()
        };
        list.into_iter()
            .map(|v| {
                let m = v.as_map().unwrap().clone();
                (m.get("name").and_then(Value::as_str).unwrap().to_string(), m)
            })
            .collect()
    }

    fn names(items: &[(String, Map)]) -> Vec<&str> {
        items.iter().map(|(id, _)| id.as_str()).collect()
    }

    #[test]
    fn windsors_kustomize_order() {
        let k = items(
            "[{name: policy-base}, {name: policy-resources, dependsOn: [policy-base]}, \
             {name: pki-base, dependsOn: [policy-resources]}, {name: pki-resources, dependsOn: [pki-base]}, \
             {name: ingress, dependsOn: [pki-resources]}, {name: dns, dependsOn: [pki-base, ingress]}]",
        );
        assert_eq!(
            names(&kustomize(k)),
            [
                "policy-base",
                "policy-resources",
                "pki-base",
                "pki-resources",
                "ingress",
                "dns"
            ]
        );
    }

    /// `n` components, each depending on the one before, listed last first.
    fn chain(prefix: &str, n: usize) -> Vec<(String, Map)> {
        (0..n)
            .rev()
            .map(|i| {
                let mut m = Map::new();
                if i > 0 {
                    let before = format!("{prefix}{}", i - 1);
                    m.insert("dependsOn", Value::List(vec![Value::from(before.as_str())]));
                }
                (format!("{prefix}{i}"), m)
            })
            .collect()
    }

    #[test]
    fn a_long_chain_of_dependencies_takes_no_stack() {
        // Each walk keeps its path in a list: a chain far longer than a
        // 64 KiB stack could hold a frame for each.
        let on_small_stack = |chain: Vec<(String, Map)>| {
            std::thread::Builder::new()
                .stack_size(64 * 1024)
                .spawn(move || {
                    (
                        check("terraform", &chain).len(),
                        depth(&chain, &chain[0].0),
                        kustomize(chain),
                    )
                })
                .unwrap()
                .join()
                .unwrap()
        };
        let (errors, deepest, ordered) = on_small_stack(chain("c", 600));
        assert_eq!((errors, deepest), (0, 599));
        assert_eq!((ordered[0].0.as_str(), ordered[599].0.as_str()), ("c0", "c599"));
        let (_, _, ordered) = on_small_stack(chain("k-", 100));
        assert_eq!(names(&ordered)[..3], ["k-0", "k-1", "k-2"]);
    }

    #[test]
    fn dangling_and_circular_dependencies_are_all_reported() {
        let t = items("[{name: a, dependsOn: [b]}, {name: b, dependsOn: [a]}, {name: c, dependsOn: [x]}]");
        let errors: Vec<String> = check("terraform", &t).iter().map(|e| e.to_string()).collect();
        assert_eq!(
            errors,
            [
                "terraform[c].dependsOn: depends on \"x\", which is not in the blueprint",
                "terraform[a].dependsOn: dependency cycle: a → b → a",
            ]
        );
    }
}
