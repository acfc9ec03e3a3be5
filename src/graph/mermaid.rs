//! A graph as a Mermaid flowchart, left to right: one subgraph per group,
//! excluded nodes dimmed and dashed, missing ones red.

use super::model::{Graph, State, Tie};
use std::fmt::Write;

/// Mermaid's text for a label: quotes and angle brackets as entities.
fn label(text: &str) -> String {
    text.replace('"', "#quot;").replace('<', "#lt;").replace('>', "#gt;")
}

pub fn draw(g: &Graph) -> String {
    let mut out = String::from("flowchart LR\n");
    for group in g.groups() {
        let _ = writeln!(out, "  subgraph {group}[\"{}\"]", label(group));
        for (i, n) in g.nodes.iter().enumerate().filter(|(_, n)| n.group == group) {
            let _ = writeln!(out, "    n{i}[\"{}\"]", label(&n.name));
        }
        out.push_str("  end\n");
    }
    for e in &g.edges {
        let arrow = match e.kind {
            Tie::DependsOn => "-->",
            Tie::Reads => "-.->",
            Tie::Link => "<-->|link|",
        };
        let _ = writeln!(out, "  n{} {arrow} n{}", e.from, e.to);
    }
    let mut classes = String::new();
    for (i, n) in g.nodes.iter().enumerate() {
        match &n.state {
            State::Present => {}
            State::Excluded(why) => {
                let _ = writeln!(out, "  %% {} {}: {why}", n.group, n.name);
                let _ = writeln!(classes, "  class n{i} excluded");
            }
            State::Missing => {
                let _ = writeln!(out, "  %% {} {}: named but not defined", n.group, n.name);
                let _ = writeln!(classes, "  class n{i} missing");
            }
        }
    }
    if !classes.is_empty() {
        out.push_str("  classDef excluded stroke-dasharray: 4 4,color:#999,stroke:#bbb\n");
        out.push_str("  classDef missing stroke:#d33,color:#d33\n");
        out.push_str(&classes);
    }
    out
}

impl Graph {
    /// As a Mermaid flowchart.
    pub fn to_mermaid(&self) -> String {
        draw(self)
    }
}
