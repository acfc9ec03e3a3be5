//! The output format of `render` and `batch`: `-o yaml|json`, or `--json`
//! as Windsor spells it.

/// The output formats of `render`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// YAML, as Windsor prints blueprints
    Yaml,
    /// JSON with the same keys
    Json,
}

/// `-o FORMAT` and `--json`.
#[derive(clap::Args)]
pub struct OutputFormat {
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value = "yaml")]
    format: Format,
    /// The same as `-o json` (as `windsor show blueprint --json`).
    #[arg(long, conflicts_with = "format")]
    json: bool,
}

impl OutputFormat {
    /// The format `-o` names, or JSON for `--json`.
    pub fn chosen(&self) -> Format {
        if self.json { Format::Json } else { self.format }
    }
}
