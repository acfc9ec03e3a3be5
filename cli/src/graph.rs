//! `bpvm graph`: a blueprint's dependency graph as Mermaid or DOT.

use crate::windsor::Rules;
use bpvm::windsor::render::render_files;
use std::path::PathBuf;

/// The drawing formats.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Drawing {
    /// A Mermaid flowchart (GitHub shows it in a ```mermaid block)
    Mermaid,
    /// Graphviz DOT (`dot -Tsvg`)
    Dot,
}

/// What `bpvm graph` was asked.
pub struct GraphArgs {
    pub blueprint: Option<PathBuf>,
    pub project: PathBuf,
    pub context: Option<String>,
    pub rules: Rules,
    pub all: bool,
    pub format: Drawing,
}

pub fn graph(args: GraphArgs) -> Result<(), String> {
    let g = match &args.blueprint {
        Some(path) => bpvm::graph::bluelink(&crate::bluelink::loaded(path)?),
        None => {
            let project = crate::windsor::load(&args.project, args.rules)?;
            let name = crate::windsor::context(&project, args.context.as_deref())?.name;
            let rendered = render_files(&project, &name, true, None).map_err(|e| format!("error: {e}"))?;
            let excluded = if args.all { rendered.excluded.as_slice() } else { &[] };
            bpvm::graph::windsor(&rendered.blueprint, excluded)
        }
    };
    print!(
        "{}",
        match args.format {
            Drawing::Mermaid => g.to_mermaid(),
            Drawing::Dot => g.to_dot(),
        }
    );
    Ok(())
}
