//! The graph itself: nodes in groups, and the edges between them. A leaf:
//! the builders and the drawings import it.

/// A graph: nodes in the order they were added, edges likewise.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Graph {
    /// The nodes; an edge names them by index.
    pub nodes: Vec<Node>,
    /// The edges.
    pub edges: Vec<Edge>,
}

/// One thing in a blueprint.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Its group, drawn as a box around its members (`terraform`,
    /// `resources`, …).
    pub group: &'static str,
    /// Its name.
    pub name: String,
    /// Whether it is in the blueprint.
    pub state: State,
}

/// Whether a node is in the blueprint.
#[derive(Debug, Clone, PartialEq)]
pub enum State {
    /// It is.
    Present,
    /// A `when` kept it out (drawn dimmed): why.
    Excluded(String),
    /// Something names it, but nothing defines it (drawn in red).
    Missing,
}

/// From one node to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The node first in order: the dependency, the thing read, the includer.
    pub from: usize,
    /// The node that needs it.
    pub to: usize,
    /// What ties them.
    pub kind: Tie,
}

/// What ties two nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tie {
    /// `to` lists `from` in its `dependsOn`.
    DependsOn,
    /// `to`'s substitutions read `from`.
    Reads,
    /// `from`'s `linkSelector` selects `to`.
    Link,
}

impl Node {
    /// A node of `group` named `name`, in the blueprint.
    pub fn new(group: &'static str, name: impl Into<String>) -> Node {
        Node {
            group,
            name: name.into(),
            state: State::Present,
        }
    }
}

impl Edge {
    /// `to` depends on `from`.
    pub fn depends(from: usize, to: usize) -> Edge {
        Edge {
            from,
            to,
            kind: Tie::DependsOn,
        }
    }
}

impl Graph {
    /// Adds `node`, returning its index.
    pub fn add(&mut self, node: Node) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    /// The index of the node of `group` named `name`.
    pub fn find(&self, group: &str, name: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.group == group && n.name == name)
    }

    /// Adds an edge once.
    pub fn tie(&mut self, from: usize, to: usize, kind: Tie) {
        let edge = Edge { from, to, kind };
        if !self.edges.contains(&edge) {
            self.edges.push(edge);
        }
    }

    /// The groups, in the order their first node was added.
    pub(super) fn groups(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for n in &self.nodes {
            if !out.contains(&n.group) {
                out.push(n.group);
            }
        }
        out
    }
}
