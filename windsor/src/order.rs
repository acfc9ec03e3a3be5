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

fn cycle_from<'a>(items: &'a [(String, Map)], start: &'a str) -> Option<Vec<&'a str>> {
    fn walk<'a>(items: &'a [(String, Map)], at: &'a str, start: &str, path: &mut Vec<&'a str>) -> bool {
        let Some((_, c)) = items.iter().find(|(id, _)| id == at) else {
            return false;
        };
        for d in deps(c) {
            if d == start {
                return true;
            }
            if path.contains(&d) {
                continue;
            }
            if let Some((id, _)) = items.iter().find(|(id, _)| id == d) {
                path.push(id);
                if walk(items, id, start, path) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start];
    walk(items, start, start, &mut path).then_some(path)
}

/// Dependencies first, otherwise in the current order (depth-first).
pub fn topological(items: Vec<(String, Map)>) -> Vec<(String, Map)> {
    fn visit(i: usize, items: &[(String, Map)], seen: &mut [bool], out: &mut Vec<usize>) {
        if seen[i] {
            return;
        }
        seen[i] = true;
        for d in deps(&items[i].1) {
            if let Some(j) = items.iter().position(|(id, _)| id == d) {
                visit(j, items, seen, out);
            }
        }
        out.push(i);
    }
    let mut seen = vec![false; items.len()];
    let mut order = Vec::with_capacity(items.len());
    for i in 0..items.len() {
        visit(i, &items, &mut seen, &mut order);
    }
    let mut slots: Vec<Option<(String, Map)>> = items.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// Kustomizations: topological, then grouped by name prefix (up to the
/// first `-`), each group where its first member falls, ordered inside by
/// dependency depth and name (Windsor's order).
pub fn kustomize(items: Vec<(String, Map)>) -> Vec<(String, Map)> {
    let items = topological(items);
    let prefix = |id: &str| id.split('-').next().unwrap_or(id).to_string();
    let depth = |id: &str| -> usize {
        fn go(items: &[(String, Map)], id: &str, seen: &mut Vec<String>) -> usize {
            if seen.iter().any(|s| s == id) {
                return 0;
            }
            seen.push(id.to_string());
            let Some((_, c)) = items.iter().find(|(i, _)| i == id) else {
                return 0;
            };
            let d = deps(c)
                .into_iter()
                .filter(|d| items.iter().any(|(i, _)| i == d))
                .map(|d| 1 + go(items, d, seen))
                .max()
                .unwrap_or(0);
            seen.pop();
            d
        }
        go(&items, id, &mut Vec::new())
    };
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
