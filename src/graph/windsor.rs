//! The graph of a rendered Windsor blueprint.

use super::builder::Builder;
use super::model::{Graph, Node, State, Tie};
use crate::Value;
use crate::windsor::render::Excluded;

/// The lists drawn, and the field that names an entry in each (terraform:
/// `name`, else `path`).
const LISTS: [(&str, &[&str]); 3] = [
    ("terraform", &["name", "path"]),
    ("kustomize", &["name"]),
    ("flux", &["name"]),
];

/// The terraform components, kustomizations and flux systems of
/// `blueprint`, each tied to the entries of its list that its `dependsOn`
/// names (a name no entry has is drawn as missing). With `excluded`, the
/// components a `when` kept out are drawn too, dimmed.
pub fn windsor(blueprint: &Value, excluded: &[Excluded]) -> Graph {
    let mut g = Builder::default();
    let entries = |list: &str| match blueprint.as_map().and_then(|m| m.get(list)) {
        Some(Value::List(items)) => items.iter().filter_map(Value::as_map).collect(),
        _ => Vec::new(),
    };
    for (list, names) in LISTS {
        for entry in entries(list) {
            if let Some(name) = names.iter().find_map(|k| entry.get(k).and_then(Value::as_str)) {
                g.add(Node::new(list, name));
            }
        }
    }
    for e in excluded {
        let list = LISTS
            .iter()
            .map(|(l, _)| *l)
            .find(|l| *l == e.list)
            .unwrap_or("terraform");
        if g.find(list, &e.id).is_none() {
            let why = format!("excluded by `{}` ({}, {})", e.when, e.facet, e.file);
            g.add(Node {
                state: State::Excluded(why),
                ..Node::new(list, e.id.clone())
            });
        }
    }
    for (list, names) in LISTS {
        for entry in entries(list) {
            let Some(name) = names.iter().find_map(|k| entry.get(k).and_then(Value::as_str)) else {
                continue;
            };
            let Some(Value::List(deps)) = entry.get("dependsOn") else {
                continue;
            };
            let Some(to) = g.find(list, name) else { continue };
            for dep in deps.iter().filter_map(Value::as_str) {
                let from = match named(&g, list, dep) {
                    Some(found) => found,
                    None if list == "flux"
                        && dep == "crds"
                        && blueprint.as_map().is_some_and(|m| m.contains_key("crds")) =>
                    {
                        g.find(list, dep).unwrap_or_else(|| g.add(Node::new(list, dep)))
                    }
                    None => g.find(list, dep).unwrap_or_else(|| {
                        g.add(Node {
                            state: State::Missing,
                            ..Node::new(list, dep)
                        })
                    }),
                };
                g.tie(from, to, Tie::DependsOn);
            }
        }
    }
    g.finish()
}

/// The entry of `list` that `dep` names: one of that name, or for a flux
/// system one of the kustomizations a system compiles to
/// (`<system>-install`, `<system>-resources`, `<system>-resources-<variant>`).
fn named(g: &Builder, list: &'static str, dep: &str) -> Option<usize> {
    let defined = |name: &str| g.find(list, name).filter(|&i| g.node(i).state != State::Missing);
    if let Some(i) = defined(dep) {
        return Some(i);
    }
    if list != "flux" {
        return None;
    }
    let system = dep
        .strip_suffix("-install")
        .or_else(|| dep.strip_suffix("-resources"))
        .or_else(|| dep.rsplit_once("-resources-").map(|(s, _)| s))?;
    defined(system)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depends_on_ties_entries_of_one_list_and_marks_what_is_missing() {
        let bp = Value::from_yaml(
            "terraform:\n- path: backend\n- {name: network, path: net, dependsOn: [backend]}\n\
             - {name: cluster, path: eks, dependsOn: [network, dns]}\nkustomize:\n- {name: ingress, dependsOn: [network]}\n",
        )
        .unwrap();
        let g = windsor(&bp, &[]);
        let names: Vec<_> = g.nodes.iter().map(|n| (n.group, n.name.as_str(), &n.state)).collect();
        assert_eq!(
            names,
            [
                ("terraform", "backend", &State::Present),
                ("terraform", "network", &State::Present),
                ("terraform", "cluster", &State::Present),
                ("kustomize", "ingress", &State::Present),
                ("terraform", "dns", &State::Missing),
                // A kustomization's dependsOn names kustomizations.
                ("kustomize", "network", &State::Missing),
            ]
        );
        let edges: Vec<_> = g.edges.iter().map(|e| (e.from, e.to)).collect();
        assert_eq!(edges, [(0, 1), (1, 2), (4, 2), (5, 3)]);
    }

    #[test]
    fn a_flux_system_depends_on_the_kustomizations_of_others() {
        let bp = Value::from_yaml(
            "crds: [gateway-api]\nflux:\n- {name: cni}\n- {name: policy}\n\
             - {name: gateway, dependsOn: [crds, cni-install, policy-resources, policy-resources-strict, dns]}\n",
        )
        .unwrap();
        let g = windsor(&bp, &[]);
        let names: Vec<_> = g.nodes.iter().map(|n| (n.name.as_str(), &n.state)).collect();
        assert_eq!(
            names,
            [
                ("cni", &State::Present),
                ("policy", &State::Present),
                ("gateway", &State::Present),
                ("crds", &State::Present),
                ("dns", &State::Missing),
            ]
        );
        let edges: Vec<_> = g.edges.iter().map(|e| (e.from, e.to)).collect();
        assert_eq!(edges, [(3, 2), (0, 2), (1, 2), (4, 2)]);
    }

    #[test]
    fn excluded_components_are_drawn_only_when_not_in_the_blueprint() {
        let bp = Value::from_yaml("terraform:\n- {name: a, path: a}\n").unwrap();
        let out = |id: &str| Excluded {
            list: "terraform",
            id: id.into(),
            facet: "f".into(),
            file: "facets/f.yaml".into(),
            when: "x == 1".into(),
        };
        let g = windsor(&bp, &[out("a"), out("b")]);
        let states: Vec<_> = g.nodes.iter().map(|n| (n.name.as_str(), n.state.clone())).collect();
        assert_eq!(
            states,
            [
                ("a", State::Present),
                ("b", State::Excluded("excluded by `x == 1` (f, facets/f.yaml)".into()))
            ]
        );
    }
}
