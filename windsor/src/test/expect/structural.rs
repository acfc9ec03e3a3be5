//! The structural checks every case gets: duplicate ids and
//! names, dependency cycles, dependencies on what does not exist.

use super::go_text::go_quote;
use super::read::{field, items, strings, terraform_id};
use crate::flux::tiers;
use bpvm_runtime::{Map, Value};
use std::collections::{HashMap, HashSet};

/// What is structurally wrong with the composed blueprint, in Windsor's
/// order: duplicate terraform ids, duplicate compiled kustomization
/// names, duplicate components within a kustomization, dependency cycles
/// (terraform, then kustomizations), dependencies on what does not exist.
pub(crate) fn structural(bp: &Value) -> Vec<String> {
    let empty = Map::new();
    let m = bp.as_map().unwrap_or(&empty);
    let terraform = items(m, "terraform");
    let kustomizations = tiers::all(bp);
    let mut errs = Vec::new();

    let mut seen = HashSet::new();
    for c in &terraform {
        let id = terraform_id(c);
        if !seen.insert(id.clone()) {
            errs.push(format!("duplicate terraform component ID: {id}"));
        }
    }
    let mut seen = HashSet::new();
    for k in &kustomizations {
        let name = field(k, "name");
        if !seen.insert(name.clone()) {
            errs.push(format!("duplicate kustomization name: {name}"));
        }
    }
    for k in &kustomizations {
        let mut seen = HashSet::new();
        for c in strings(k, "components") {
            if !c.is_empty() && !seen.insert(c.clone()) {
                errs.push(format!(
                    "duplicate component {} in kustomization {}",
                    go_quote(&c),
                    go_quote(&field(k, "name"))
                ));
            }
        }
    }

    let tf_nodes: Vec<(String, Vec<String>)> = terraform
        .iter()
        .map(|c| (terraform_id(c), strings(c, "dependsOn")))
        .collect();
    let k_nodes: Vec<(String, Vec<String>)> = kustomizations
        .iter()
        .map(|k| (field(k, "name"), strings(k, "dependsOn")))
        .collect();
    errs.extend(cycles(&tf_nodes, "terraform component"));
    errs.extend(cycles(&k_nodes, "kustomization"));

    let tf_ids: HashSet<&str> = tf_nodes.iter().map(|(id, _)| id.as_str()).collect();
    for (id, deps) in &tf_nodes {
        for dep in deps.iter().filter(|d| !tf_ids.contains(d.as_str())) {
            errs.push(format!(
                "terraform component {} depends on non-existent component {}",
                go_quote(id),
                go_quote(dep)
            ));
        }
    }
    let layers = tiers::crd_layer_names(bp);
    let k_names: HashSet<&str> = k_nodes
        .iter()
        .map(|(n, _)| n.as_str())
        .chain(layers.iter().map(String::as_str))
        .collect();
    for (name, deps) in &k_nodes {
        for dep in deps.iter().filter(|d| !k_names.contains(d.as_str())) {
            errs.push(format!(
                "kustomization {} depends on non-existent kustomization {}",
                go_quote(name),
                go_quote(dep)
            ));
        }
    }
    errs
}

/// Every cycle a depth-first walk of the graph meets, as
/// `circular dependency detected in <kind>: a -> b -> a`. Nodes are
/// walked in list order (Windsor walks a Go map, so its order varies);
/// a node listed twice keeps its last `dependsOn`; edges to unknown
/// nodes are skipped (they are reported as missing instead).
pub(super) fn cycles(nodes: &[(String, Vec<String>)], kind: &str) -> Vec<String> {
    let mut graph: HashMap<&str, &[String]> = HashMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (name, deps) in nodes {
        if graph.insert(name, deps).is_none() {
            order.push(name);
        }
    }
    let mut errs = Vec::new();
    let mut visited: HashSet<&str> = HashSet::new();
    let mut on_path: HashSet<&str> = HashSet::new();
    for start in order {
        if visited.contains(start) {
            continue;
        }
        let mut path: Vec<&str> = vec![start];
        let mut next: Vec<usize> = vec![0];
        visited.insert(start);
        on_path.insert(start);
        while let (Some(&node), Some(i)) = (path.last(), next.last_mut()) {
            let deps = graph[node];
            let Some(dep) = deps.get(*i) else {
                on_path.remove(node);
                path.pop();
                next.pop();
                continue;
            };
            *i += 1;
            let dep = dep.as_str();
            if !graph.contains_key(dep) {
                continue;
            }
            if on_path.contains(dep) {
                let from = path.iter().position(|n| *n == dep).unwrap_or(0);
                let mut cycle: Vec<&str> = path[from..].to_vec();
                cycle.push(dep);
                errs.push(format!(
                    "circular dependency detected in {kind}: {}",
                    cycle.join(" -> ")
                ));
                continue;
            }
            if visited.insert(dep) {
                on_path.insert(dep);
                path.push(dep);
                next.push(0);
            }
        }
    }
    errs
}
