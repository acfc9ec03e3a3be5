//! `bpvm graph`: a blueprint's dependency graph as Mermaid or DOT.

use crate::args::WindsorTarget;
use crate::load;
use bpvm::windsor::render::render_files;
use std::path::Path;

/// The drawing formats.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Drawing {
    /// A Mermaid flowchart (GitHub shows it in a ```mermaid block)
    Mermaid,
    /// Graphviz DOT (`dot -Tsvg`)
    Dot,
}

/// `bpvm graph`: of the Bluelink `blueprint`, else of the Windsor target's
/// context (with `all`, what a `when` kept out too).
pub fn graph(blueprint: Option<&Path>, target: WindsorTarget, all: bool, format: Drawing) -> Result<(), String> {
    let g = match blueprint {
        Some(path) => bpvm::graph::bluelink(&load::bluelink::blueprint(path)?),
        None => {
            let project = load::windsor::project(&target.project, target.rules)?;
            let name = load::windsor::context(&project, target.context.as_deref())?.name;
            let rendered = render_files(&project, &name, true, None).map_err(|e| format!("error: {e}"))?;
            let excluded = if all { rendered.excluded.as_slice() } else { &[] };
            bpvm::graph::windsor(&rendered.blueprint, excluded)
        }
    };
    print!(
        "{}",
        match format {
            Drawing::Mermaid => g.to_mermaid(),
            Drawing::Dot => g.to_dot(),
        }
    );
    Ok(())
}
