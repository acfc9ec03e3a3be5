//! `bpvm render`'s arguments. A leaf of the command's folder: the render
//! of each language reads them.

use crate::args::{BluelinkFlags, Format, OutputFormat, WindsorTarget};
use std::path::PathBuf;

/// Print the blueprint of a Windsor context or of a Bluelink blueprint.
///
/// With BLUEPRINT (YAML or JSON, or Bluelink's `.bp` language for a file
/// named *.bp or *.blueprint): the whole blueprint is validated
/// (every problem reported with file:line:column and its path), then
/// variables, values, data sources, resources (condition, each),
/// included children, exports and metadata are resolved in dependency
/// order, and the materialised blueprint is printed. A value only known
/// at deploy time keeps its ${..} text and is listed on stderr.
///
/// Without BLUEPRINT: reads the Windsor project's windsor.yaml, the
/// template in contexts/_template/ (blueprint.yaml, schema.yaml, facets/
/// and legacy features/) and the context's values.yaml and
/// blueprint.yaml, and prints the blueprint of one context.
///
/// Nothing is written when the render fails.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm render --project examples/windsor --context local
  bpvm render --project examples/windsor -o json --explain
  bpvm render examples/bluelink/blueprint.yaml --vars examples/bluelink/blueprint.vars.yaml \\
      --datasources examples/bluelink/blueprint.datasources.yaml --seed 7")]
pub struct Args {
    /// A Bluelink blueprint (YAML, JSON or .bp); without it, the Windsor
    /// project is rendered.
    #[arg(value_name = "BLUEPRINT")]
    pub blueprint: Option<PathBuf>,
    #[command(flatten)]
    pub windsor: WindsorTarget,
    #[command(flatten)]
    pub output: OutputFormat,
    /// Write to FILE instead of stdout: atomically, keeping its mode,
    /// and only ever a regular file (a symlink, folder, FIFO or device
    /// there is refused). YAML written so begins with a comment naming
    /// its source, so that discovery never takes it for a template.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Say on stderr which facets and components were included or
    /// skipped, and the condition that decided (Windsor).
    #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
    pub explain: bool,
    /// Do not apply the defaults of contexts/_template/schema.yaml (Windsor).
    #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
    pub no_schema_defaults: bool,
    /// Print the flux systems compiled to the kustomizations Windsor
    /// applies (`<system>-install`, `<system>-resources[-<variant>]`)
    /// under `kustomize:`, instead of the `flux:` systems that
    /// `windsor show blueprint` prints (Windsor v0.9).
    #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
    pub compile_flux: bool,
    /// A YAML or JSON file of terraform outputs by component; without
    /// it terraform_output() stays as written (Windsor).
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "blueprint",
        help_heading = "Windsor options"
    )]
    pub terraform_outputs: Option<PathBuf>,
    #[command(flatten)]
    pub bluelink: BluelinkFlags,
    /// After the render, watch the files it read and render again each
    /// time one is saved (or a file appears in a folder it listed); a
    /// failed render is printed and watching goes on. Ctrl-C stops
    /// (exit status 130).
    #[arg(long)]
    pub watch: bool,
}

impl Args {
    /// What is written for `text`, rendered from `source`: to a file,
    /// YAML begins with a comment naming its source (JSON has no
    /// comment, and a key would change the document); on stdout, `text`.
    pub fn marked(&self, source: &str, text: String) -> String {
        match (&self.out, self.output.chosen()) {
            (Some(_), Format::Yaml) => bpvm::batch::rendered_header(source) + &text,
            _ => text,
        }
    }
}
