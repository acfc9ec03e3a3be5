//! Which Windsor project, context and rules a command renders.

use std::path::PathBuf;

/// Which Windsor rules to render by.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Rules {
    /// The ones the facets are written for (a form only one format has)
    Auto,
    /// The seed facet format's
    Seed,
    /// Windsor v0.9's
    #[value(name = "v0.9")]
    V09,
}

/// Which Windsor project, context and rules (`render`, `explain` and
/// `graph` without a BLUEPRINT).
#[derive(clap::Args)]
pub struct WindsorTarget {
    /// The Windsor project folder (the one with windsor.yaml and contexts/).
    #[arg(
        long,
        value_name = "DIR",
        default_value = ".",
        conflicts_with = "blueprint",
        help_heading = "Windsor options"
    )]
    pub project: PathBuf,
    /// The Windsor context; by default the project's current one, as
    /// Windsor chooses it: .windsor/context (`windsor set context`),
    /// else $WINDSOR_CONTEXT, else windsor.yaml's `context:`, else
    /// `local` (--explain says which).
    #[arg(
        long,
        value_name = "NAME",
        conflicts_with = "blueprint",
        help_heading = "Windsor options"
    )]
    pub context: Option<String>,
    /// Which Windsor rules to render by: the ones the template's facets
    /// are written for (read from their forms), the seed format's, or
    /// v0.9's.
    #[arg(
        long,
        value_enum,
        default_value = "auto",
        conflicts_with = "blueprint",
        help_heading = "Windsor options"
    )]
    pub rules: Rules,
    /// Make every warning about the template an error (an unknown
    /// field, a value the schema does not allow): for CI that wants the
    /// template clean, where Windsor would load it anyway.
    #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
    pub strict: bool,
}
