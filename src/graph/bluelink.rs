//! The graph of a Bluelink blueprint: its resources, data sources, values
//! and includes, tied by what their substitutions read, by `dependsOn`
//! and by the links their `linkSelector`s select.

use super::builder::Builder;
use super::model::{Graph, Node, State, Tie};
use crate::Value;
use crate::bluelink::blueprint::Blueprint;
use crate::bluelink::sub::{Def, Sub};

const DATASOURCES: &str = "datasources";
const VALUES: &str = "values";
const RESOURCES: &str = "resources";
const INCLUDE: &str = "include";

/// The graph of `bp` as loaded (every resource, whatever its `condition`).
pub fn bluelink(bp: &Blueprint) -> Graph {
    let mut g = Builder::default();
    // Node indices by section, in document order.
    let datasources: Vec<usize> = bp
        .datasources
        .iter()
        .map(|d| g.add(Node::new(DATASOURCES, d.name.clone())))
        .collect();
    let values: Vec<usize> = bp
        .values
        .iter()
        .map(|v| g.add(Node::new(VALUES, v.name.clone())))
        .collect();
    let resources: Vec<usize> = bp
        .resources
        .iter()
        .map(|r| g.add(Node::new(RESOURCES, r.name.clone())))
        .collect();
    let children: Vec<usize> = bp
        .includes
        .iter()
        .map(|i| g.add(Node::new(INCLUDE, i.name.clone())))
        .collect();
    let node_of = |d: &Def| match *d {
        Def::DataSource(i) => datasources.get(i).copied(),
        Def::Value(i) => values.get(i).copied(),
        Def::Resource(i) => resources.get(i).copied(),
        Def::Child(i) => children.get(i).copied(),
        Def::Variable(_) => None,
    };
    let reads = |g: &mut Builder, to: usize, subs: &[&Sub]| {
        for def in subs.iter().flat_map(|s| s.defs.iter()) {
            if let Some(from) = node_of(def).filter(|f| *f != to) {
                g.tie(from, to, Tie::Reads);
            }
        }
    };
    for (d, &to) in bp.datasources.iter().zip(&datasources) {
        reads(&mut g, to, &d.subs());
    }
    for (v, &to) in bp.values.iter().zip(&values) {
        reads(&mut g, to, &v.value.subs());
    }
    for (r, &to) in bp.resources.iter().zip(&resources) {
        reads(&mut g, to, &r.subs());
    }
    for (i, &to) in bp.includes.iter().zip(&children) {
        reads(&mut g, to, &i.subs());
    }
    for (r, &to) in bp.resources.iter().zip(&resources) {
        for dep in &r.depends_on {
            let from = match g.find(RESOURCES, dep) {
                Some(i) => i,
                None => g.add(Node {
                    state: State::Missing,
                    ..Node::new(RESOURCES, dep.clone())
                }),
            };
            g.tie(from, to, Tie::DependsOn);
        }
    }
    // Links: a selector's labels all on the other resource, unless excluded.
    for (a, &from) in bp.resources.iter().zip(&resources) {
        if a.selector.is_empty() {
            continue;
        }
        for (b, &to) in bp.resources.iter().zip(&resources) {
            let labelled = |(k, v): &(String, String)| {
                b.labels.as_map().and_then(|m| m.get(k)) == Some(&Value::Str(v.as_str().into()))
            };
            if from != to && !a.exclude.contains(&b.name) && a.selector.iter().all(labelled) {
                g.tie(from, to, Tie::Link);
            }
        }
    }
    g.finish()
}
