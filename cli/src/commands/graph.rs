//! `bpvm graph`: a blueprint's dependency graph as Mermaid or DOT.

use crate::args::WindsorTarget;
use crate::{exit, load};
use bpvm::windsor::render::render_files;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Print a blueprint's dependency graph, as Mermaid or Graphviz DOT.
///
/// Windsor (without BLUEPRINT): the context is rendered as `bpvm
/// render` does, and its terraform components, kustomizations and flux
/// systems are drawn, each with an arrow from every entry its
/// `dependsOn` names (a name nothing defines is drawn in red); --all
/// also draws, dimmed, the components a `when` kept out. Bluelink (with
/// BLUEPRINT): its resources, data sources, values and includes, with
/// an arrow from what each one's substitutions read (dashed), from each
/// resource its `dependsOn` names, and both ways between a resource and
/// those its `linkSelector` selects. The same blueprint always gives
/// the same text.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm graph --project examples/windsor
  bpvm graph --project examples/windsor --all --format dot
  bpvm graph examples/bluelink/blueprint.yaml")]
pub struct Args {
    /// A Bluelink blueprint; without it, the Windsor project's context.
    #[arg(value_name = "BLUEPRINT")]
    blueprint: Option<PathBuf>,
    #[command(flatten)]
    windsor: WindsorTarget,
    /// The drawing's format.
    #[arg(long, value_enum, default_value = "mermaid")]
    format: Drawing,
    /// Also draw, dimmed, the components and flux systems a `when` kept out.
    #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
    all: bool,
}

/// The drawing formats.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Drawing {
    /// A Mermaid flowchart (GitHub shows it in a ```mermaid block)
    Mermaid,
    /// Graphviz DOT (`dot -Tsvg`)
    Dot,
}

pub fn run(args: Args) -> ExitCode {
    exit::code(graph(args.blueprint.as_deref(), &args.windsor, args.all, args.format))
}

/// `bpvm graph`: of the Bluelink `blueprint`, else of the Windsor target's
/// context (with `all`, what a `when` kept out too).
fn graph(blueprint: Option<&Path>, target: &WindsorTarget, all: bool, format: Drawing) -> Result<(), String> {
    let g = match blueprint {
        Some(path) => bpvm::graph::bluelink(&load::bluelink::blueprint(path)?),
        None => {
            let project = load::windsor::project(&target.project, target.rules)?;
            load::windsor::warn(&project.warnings, target.strict)?;
            let name = load::windsor::context(&project, target.context.as_deref())?.name;
            load::windsor::warn(&bpvm::windsor::validate::context(&project, &name), target.strict)?;
            let rendered = render_files(&project, &name, true, None).map_err(|e| e.to_string())?;
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
