//! A graph as a Graphviz digraph, left to right: one cluster per group,
//! excluded nodes dashed and grey (the reason as a tooltip), missing ones
//! red.

use super::model::{Graph, State, Tie};
use std::fmt::Write;

/// A DOT string literal.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

pub fn draw(g: &Graph) -> String {
    let mut out = String::from("digraph blueprint {\n  rankdir=LR;\n  node [shape=box];\n");
    for (c, group) in g.groups().into_iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{c} {{\n    label={};", quoted(group));
        for (i, n) in g.nodes.iter().enumerate().filter(|(_, n)| n.group == group) {
            let style = match &n.state {
                State::Present => String::new(),
                State::Excluded(why) => format!(", style=dashed, color=gray, fontcolor=gray, tooltip={}", quoted(why)),
                State::Missing => ", color=red, fontcolor=red, tooltip=\"named but not defined\"".to_string(),
            };
            let _ = writeln!(out, "    n{i} [label={}{style}];", quoted(&n.name));
        }
        out.push_str("  }\n");
    }
    for e in &g.edges {
        let attrs = match e.kind {
            Tie::DependsOn => "",
            Tie::Reads => " [style=dashed]",
            Tie::Link => " [dir=both, label=\"link\"]",
        };
        let _ = writeln!(out, "  n{} -> n{}{attrs};", e.from, e.to);
    }
    out.push_str("}\n");
    out
}

impl Graph {
    /// As a Graphviz DOT digraph.
    pub fn to_dot(&self) -> String {
        draw(self)
    }
}
