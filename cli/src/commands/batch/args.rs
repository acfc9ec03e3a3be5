//! `bpvm batch`'s command line: the batch's arguments and `merge-reports`'s
//! (the report formats are shared: `crate::args`). A leaf of the command's
//! folder.

use crate::args::{AllowEmpty, ExcludeArgs, OutputFormat, ReportFormat};
use clap::Subcommand;
use std::path::PathBuf;

/// The variable naming the render cache's folder when `--cache` is not given.
pub const CACHE_VARIABLE: &str = "BPVM_CACHE";

/// Render every Windsor context and Bluelink blueprint under PATHs in one run
///
/// Finds every Windsor project (windsor.yaml and contexts/_template/:
/// one target per context folder) and Bluelink blueprint (YAML, JSON or
/// .bp; one target per <stem>[.<set>].vars.yaml beside it) under each PATH, skipping .git,
/// target, node_modules, hidden folders, what .gitignore ignores, what
/// --exclude matches and output bpvm rendered; a bpvm-batch.yaml in a
/// PATH lists its targets instead (or, with exclude: alone, more paths
/// to leave out). Each template is
/// loaded once and its targets render in parallel, each exactly as
/// `bpvm render` prints it (Bluelink files stay inside the PATH, as with
/// --root PATH). A failed target is reported and the others still render.
///
/// Exit status: 0 when every target rendered (and, with --check, matched;
/// with --test, every case passed), 1 otherwise (also when nothing was
/// found to render, unless --allow-empty), 2 on bad usage.
#[derive(clap::Args)]
#[command(
    group = clap::ArgGroup::new("one_shard").args(["shard", "shard_index"]),
    args_conflicts_with_subcommands = true,
    after_help = "\
Examples:
  bpvm batch examples --out rendered
  bpvm batch examples --out rendered --check
  bpvm batch examples --exclude windsor
  bpvm batch examples --test --shard 1/2 --report shard-1.json
  bpvm batch examples --test --shard 2/2 --report shard-2.json
  bpvm batch merge-reports shard-*.json --report-format junit --out junit.xml
  bpvm batch examples --report last.json
  bpvm batch examples --shard 1/2 --timings last.json
  mkdir -p empty && bpvm batch empty --allow-empty
  echo examples/windsor/windsor.yaml > changed.txt && bpvm batch examples --changed-files changed.txt
  git init -q && git add -A && git -c user.name=ci -c user.email=ci@example.com commit -qm start && \\
    echo '# edited' >> examples/bluelink/storage.yaml && bpvm batch examples --affected-by HEAD --list
  bpvm batch examples --affected-by HEAD --cache .bpvm-cache -o json --list

Files written with --out say so (YAML: a first line `# Rendered by
bpvm from …`; JSON: a .bpvm-rendered file in the folder), so committed
output is never taken for a template. A .gitignore or .ignore file is obeyed
in every folder searched, also outside a Git repository; the global
excludes file and .git/info/exclude are not read, so that shards on
every machine agree. See docs/discovery.md."
)]
pub struct Args {
    #[command(subcommand)]
    pub action: Option<Action>,
    /// Folders to search (default: the current one).
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Write each target to OUT/<id>.yaml (Windsor: <project>/<context>,
    /// Bluelink: <folder>/<stem>[@<set>]), atomically, each YAML file's
    /// first line naming its source (JSON: OUT/.bpvm-rendered says the
    /// folder is output); without it nothing is written.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Compare with the files in --out instead of writing: print a
    /// unified diff for each target that differs or is missing, list the
    /// files no target renders, exit 1 on any drift.
    #[arg(long, requires = "out")]
    pub check: bool,
    /// Worker processes (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
    /// Only shard K of N (1-based): the N shards are disjoint and together
    /// the whole batch; a target stays in its shard as others come and go.
    #[arg(long, value_name = "K/N", value_parser = bpvm::batch::parse_shard)]
    pub shard: Option<(usize, usize)>,
    /// The same shard counted from 0 (I from 0 to N-1): `--shard-index
    /// I/N` is `--shard I+1/N`, for an index such as Kubernetes' job
    /// completion index, which a container without a shell cannot add 1 to.
    #[arg(long, value_name = "I/N", value_parser = bpvm::batch::parse_shard_index, conflicts_with = "shard")]
    pub shard_index: Option<(usize, usize)>,
    /// Balance the shards by time, from the durations in REPORT (a
    /// previous `--report` in JSON, or merge-reports' output): a
    /// template's targets kept together (a large one cut in pieces), the
    /// longest first, each onto the shard with the least time so far;
    /// targets REPORT lacks count as its median duration and come last,
    /// so they move none of the others. Give every shard the same REPORT.
    /// Test cases are split by their id, as without it.
    #[arg(long, value_name = "REPORT", requires = "one_shard")]
    pub timings: Option<PathBuf>,
    /// Write a report: one record per target and test case.
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
    /// The report's format.
    #[arg(long, value_enum, default_value = "json")]
    pub report_format: ReportFormat,
    /// Also run every Windsor project's test suites, each case a record.
    #[arg(long)]
    pub test: bool,
    #[command(flatten)]
    pub output: OutputFormat,
    /// Start nothing new after the first failure.
    #[arg(long)]
    pub fail_fast: bool,
    /// Make every warning about a Windsor template an error: a context or
    /// test case whose values the schema refuses fails.
    #[arg(long)]
    pub strict: bool,
    /// Limit each worker process's memory (address space) to MIB: a
    /// target that needs more fails alone [default: 4096, or
    /// BPVM_MEMORY_LIMIT_MIB].
    #[arg(long, value_name = "MIB", value_parser = super::limits::parse_mib)]
    pub memory_limit: Option<u64>,
    /// Keep a render cache in DIR [default: BPVM_CACHE]: a target whose
    /// inputs did not change since it was stored (every file and folder its
    /// render read, the environment variables env() read, the output
    /// options, bpvm's version) is taken from it without loading its
    /// template. It holds output exactly as written (masked values stay
    /// masked); batches may share it.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Keep the cache under MB megabytes: after the batch, the least
    /// recently used entries are removed.
    #[arg(long, value_name = "MB", default_value_t = 1024)]
    pub cache_max_mb: u64,
    /// Run only the targets whose inputs differ between revision REV of
    /// the git repository holding the first PATH and the work tree
    /// (`origin/main`, `HEAD~1`, a tag or hash; `origin/main...HEAD` for
    /// what a branch changed since it left main). What each target reads
    /// comes from the render cache when it holds a current manifest of
    /// it, else from loading its template (which may count more targets,
    /// never fewer). Environment variables and options are not files: a
    /// change to them is not seen here.
    #[arg(long, value_name = "REV", conflicts_with = "changed_files")]
    pub affected_by: Option<String>,
    /// The same, from a list of changed files, one per line, relative to
    /// the top of the repository (outside one, to the current folder):
    /// what a CI system gives. Without a revision, an edited file counts
    /// as added or removed too.
    #[arg(long, value_name = "FILE")]
    pub changed_files: Option<PathBuf>,
    /// Print the ids of the targets to run, one per line (with -o json: a
    /// JSON list of {"id", "affected_by"}), and render nothing: a CI
    /// matrix of what a change affects.
    #[arg(long, conflicts_with_all = ["out", "report", "test"])]
    pub list: bool,
    #[command(flatten)]
    pub exclude: ExcludeArgs,
    #[command(flatten)]
    pub empty: AllowEmpty,
    /// After the batch, watch the files its targets read and render again
    /// the targets a saved file affects (a file each read, or a folder
    /// each listed gaining or losing an entry), and new targets found;
    /// failures are printed and watching goes on. Ctrl-C stops (exit
    /// status 130). Not with a shard (a watched batch is all on this
    /// machine), nor with a revision's or a list's changes (the saved
    /// files are the changes).
    #[arg(long, conflicts_with_all = ["shard", "shard_index", "affected_by", "changed_files", "list"])]
    pub watch: bool,
}

#[derive(Subcommand)]
pub enum Action {
    MergeReports(MergeReports),
}

impl Args {
    /// The shard to render, 1-based, from `--shard` or `--shard-index`.
    pub fn shard(&self) -> Option<(usize, usize)> {
        self.shard.or(self.shard_index)
    }

    /// The render cache's folder: `--cache`, else `BPVM_CACHE` when set
    /// and not empty.
    pub fn cache(&self) -> Option<PathBuf> {
        let from_env = || {
            std::env::var_os(CACHE_VARIABLE)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        self.cache.clone().or_else(from_env)
    }
}

/// Combine the JSON reports of a batch's shards into one report.
///
/// Each target must be in one report only, and when the reports name
/// their shards, every shard of the batch must be there.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm batch examples --shard 1/2 --report shard-1.json
  bpvm batch examples --shard 2/2 --report shard-2.json
  bpvm batch merge-reports shard-1.json shard-2.json --report-format junit --out junit.xml")]
pub struct MergeReports {
    /// The shards' reports (`bpvm batch --report FILE`).
    #[arg(value_name = "REPORT", required = true)]
    pub reports: Vec<PathBuf>,
    /// The merged report's format.
    #[arg(long, value_enum, default_value = "json")]
    pub report_format: ReportFormat,
    /// Write to FILE instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}
