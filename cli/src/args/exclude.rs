//! `--exclude GLOB`: paths that a command searching folders leaves out,
//! as `exclude:` in `bpvm-batch.yaml` does.

/// The globs of files and folders not searched.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ExcludeArgs {
    /// Do not search the files and folders this glob matches: a path
    /// relative to each folder searched, `*` not crossing `/`
    /// (e.g. rendered/**, **/fixtures/**, teams/legacy); repeatable.
    /// A glob that matches nothing is warned about.
    #[arg(long = "exclude", value_name = "GLOB", value_parser = bpvm::batch::parse_exclude)]
    pub globs: Vec<String>,
}
