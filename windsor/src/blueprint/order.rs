//! The order components are printed in, and the checks on their
//! dependencies: every dependency must exist, and none may be circular.

use crate::blueprint::cycles::cycles;
use crate::blueprint::deps::graph;
use crate::error::Error;
use bpvm_runtime::Map;
use foldhash::HashMap;

/// Every dangling dependency and every cycle, as errors of `list`
/// (`terraform` or `kustomize`).
pub fn check(list: &str, items: &[(String, Map)]) -> Vec<Error> {
    let g = graph(items);
    let mut errors: Vec<Error> = g
        .missing
        .iter()
        .map(|&(i, d)| {
            Error::new(
                None,
                format!("{list}[{}].dependsOn", items[i].0),
                format!("depends on {d:?}, which is not in the blueprint"),
            )
        })
        .collect();
    for cycle in cycles(&g.deps) {
        let start = &items[cycle[0]].0;
        let mut path = cycle
            .iter()
            .map(|&i| items[i].0.as_str())
            .collect::<Vec<_>>()
            .join(" → ");
        path.push_str(" → ");
        path.push_str(start);
        errors.push(Error::new(
            None,
            format!("{list}[{start}].dependsOn"),
            format!("dependency cycle: {path}"),
        ));
    }
    errors
}

/// Dependencies first, otherwise in the current order (depth-first).
pub fn topological(items: Vec<(String, Map)>) -> Vec<(String, Map)> {
    let deps = graph(&items).deps;
    let mut seen = vec![false; items.len()];
    let mut order = Vec::with_capacity(items.len());
    // (component, next dependency): an explicit stack, so a long chain
    // cannot overflow.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..items.len() {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        stack.push((root, 0));
        while let Some(&(i, k)) = stack.last() {
            match deps[i].get(k) {
                Some(&j) => {
                    if let Some(top) = stack.last_mut() {
                        top.1 += 1;
                    }
                    if !seen[j] {
                        seen[j] = true;
                        stack.push((j, 0));
                    }
                }
                None => {
                    order.push(i);
                    stack.pop();
                }
            }
        }
    }
    let mut slots: Vec<Option<(String, Map)>> = items.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

/// Kustomizations: topological, then grouped by name prefix (up to the
/// first `-`), each group where its first member falls, ordered inside by
/// dependency depth and name (Windsor's order). The list must have
/// passed [`check`]: without cycles, a topological order puts every
/// dependency first, so depths are found in one pass.
pub fn kustomize(items: Vec<(String, Map)>) -> Vec<(String, Map)> {
    let items = topological(items);
    let deps = graph(&items).deps;
    // The longest chain of dependencies below each kustomization.
    let mut depth = vec![0usize; items.len()];
    for i in 0..items.len() {
        depth[i] = deps[i].iter().map(|&d| depth[d] + 1).max().unwrap_or(0);
    }
    let prefix = |id: &str| id.split('-').next().unwrap_or(id).to_string();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<String, usize> = HashMap::default();
    for (i, (id, _)) in items.iter().enumerate() {
        let g = *group_of.entry(prefix(id)).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    let mut order: Vec<usize> = Vec::with_capacity(items.len());
    for mut group in groups {
        group.sort_by(|&a, &b| (depth[a], &items[a].0).cmp(&(depth[b], &items[b].0)));
        order.extend(group);
    }
    let mut slots: Vec<Option<(String, Map)>> = items.into_iter().map(Some).collect();
    order.into_iter().filter_map(|i| slots[i].take()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm_runtime::Value;

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
        let errors: Vec<String> = check("terraform", &t).iter().map(Error::described).collect();
        assert_eq!(
            errors,
            [
                "terraform[c].dependsOn: depends on \"x\", which is not in the blueprint",
                "terraform[a].dependsOn: dependency cycle: a → b → a",
            ]
        );
    }
}
