//! The flags of a Bluelink render, shared by `render` and `explain`.

use std::path::PathBuf;

/// Bluelink's flags without a BLUEPRINT: a usage error (clap drops
/// `requires` when a conflicting flag such as --project is given).
pub const NEEDS_BLUEPRINT: &str =
    "error: --var, --vars, --datasources, --resource-state, --seed, --root and --allow-http need a BLUEPRINT";

/// The flags of a Bluelink render (`render BLUEPRINT`, `explain PATH
/// BLUEPRINT`).
#[derive(clap::Args)]
pub struct BluelinkFlags {
    /// A variable's value, parsed to its declared type (repeatable;
    /// later wins).
    #[arg(
        long = "var",
        value_name = "NAME=VALUE",
        requires = "blueprint",
        help_heading = "Bluelink options"
    )]
    pub vars: Vec<String>,
    /// A YAML or JSON mapping of variable names to values.
    #[arg(
        long = "vars",
        value_name = "FILE",
        requires = "blueprint",
        help_heading = "Bluelink options"
    )]
    pub vars_file: Option<PathBuf>,
    /// Data source data: a mapping from data source name to its
    /// exported fields, or from data source type to a list of candidate
    /// records (the first that matches the filter is used). Without
    /// it, data source fields are left as written.
    #[arg(long, value_name = "FILE", requires = "blueprint", help_heading = "Bluelink options")]
    pub datasources: Option<PathBuf>,
    /// Deploy-time resource fields: a mapping from resource name
    /// (`fn`, `buckets[1]`) to fields read as if they were in its spec.
    #[arg(long, value_name = "FILE", requires = "blueprint", help_heading = "Bluelink options")]
    pub resource_state: Option<PathBuf>,
    /// Print the values computed from secrets as they are instead of
    /// ********: Bluelink's secret variables and what reads them,
    /// Windsor's values the schema marks sensitive and what reads them.
    /// What you apply needs the real values.
    #[arg(long)]
    pub show_secrets: bool,
    /// Pin uuid(): the same N gives the same ids.
    #[arg(long, value_name = "N", requires = "blueprint", help_heading = "Bluelink options")]
    pub seed: Option<u64>,
    /// Pin the clock to this instant, e.g. 2024-05-06T07:08:09Z: what
    /// now() gives in Windsor expressions and datetime() in Bluelink's
    /// (default: the real clock).
    #[arg(long, value_name = "RFC3339")]
    pub now: Option<String>,
    /// The folder file() and include paths must stay inside (default:
    /// the blueprint's own folder, wherever bpvm runs from).
    #[arg(long, value_name = "DIR", requires = "blueprint", help_heading = "Bluelink options")]
    pub root: Option<PathBuf>,
    /// A host http_resource() may fetch from (repeatable).
    #[arg(
        long = "allow-http",
        value_name = "HOST",
        requires = "blueprint",
        help_heading = "Bluelink options"
    )]
    pub allow_http: Vec<String>,
}

impl BluelinkFlags {
    /// Whether any of them was given.
    pub fn any(&self) -> bool {
        !self.vars.is_empty()
            || self.vars_file.is_some()
            || self.datasources.is_some()
            || self.resource_state.is_some()
            || self.seed.is_some()
            || self.root.is_some()
            || !self.allow_http.is_empty()
    }
}
