//! A rendered blueprint's dependency graph, for people to look at: Windsor
//! terraform components, kustomizations and flux systems with their
//! `dependsOn`; Bluelink resources with what they read, their links and
//! their includes. Drawn as Mermaid (which GitHub shows in Markdown) or
//! Graphviz DOT; the same blueprint always gives the same text.
//!
//! The graph type lives here; one file per language builds it from a render
//! (`windsor`, `bluelink`) and one per drawing writes it (`mermaid`, `dot`).
//! They import the language crates, nothing else of bpvm.
//!
//! ```
//! use bpvm::graph::{Edge, Graph, Node, State};
//! let mut g = Graph::default();
//! let vpc = g.add(Node::new("terraform", "vpc"));
//! let eks = g.add(Node::new("terraform", "eks"));
//! g.edges.push(Edge::depends(vpc, eks));
//! assert!(g.to_mermaid().contains("  n0 --> n1\n"));
//! assert!(g.to_dot().contains("  n0 -> n1;\n"));
//! # let _ = State::Present;
//! ```

mod bluelink;
mod builder;
mod dot;
mod mermaid;
mod model;
mod windsor;

pub use bluelink::bluelink;
pub use model::{Edge, Graph, Node, State, Tie};
pub use windsor::windsor;
