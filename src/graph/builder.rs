//! A graph being built: nodes found by group and name, and edges added
//! once, each in constant time (the graph's own `find` and `tie` scan, so
//! a builder calling them per dependency took quadratic time).

use super::model::{Edge, Graph, Node, Tie};
use std::collections::{HashMap, HashSet};

/// A graph, with an index of its nodes and a set of its edges.
#[derive(Default)]
pub(super) struct Builder {
    graph: Graph,
    /// The first node of each group and name.
    at: HashMap<(&'static str, String), usize>,
    edges: HashSet<Edge>,
}

impl Builder {
    /// Adds `node`, returning its index.
    pub fn add(&mut self, node: Node) -> usize {
        let i = self.graph.add(node);
        let n = &self.graph.nodes[i];
        self.at.entry((n.group, n.name.clone())).or_insert(i);
        i
    }

    /// The index of the first node of `group` named `name`.
    pub fn find(&self, group: &'static str, name: &str) -> Option<usize> {
        // One key built per lookup: the index owns its names.
        self.at.get(&(group, name.to_string())).copied()
    }

    /// The node at `i`.
    pub fn node(&self, i: usize) -> &Node {
        &self.graph.nodes[i]
    }

    /// Adds an edge once.
    pub fn tie(&mut self, from: usize, to: usize, kind: Tie) {
        let edge = Edge { from, to, kind };
        if self.edges.insert(edge) {
            self.graph.edges.push(edge);
        }
    }

    /// The graph built.
    pub fn finish(self) -> Graph {
        self.graph
    }
}
