//! The commands, one module each: its arguments (a clap `Args`, whose doc
//! comment and examples are the command's help) and its `run`, which
//! gives the exit status. This file holds the command line as a whole and
//! hands each command its arguments.
//!
//! A command imports the crate's shared modules (`args`, `load`, `exit`,
//! `paint`, `write`, `alloc`) and never another command or this file:
//! `completions` and `man` are handed the command line's definition.

mod batch;
mod bench;
mod check;
mod completions;
mod convert;
mod diff;
mod eval;
mod explain;
mod fmt;
mod graph;
#[cfg(unix)]
mod jsonnet_worker;
mod lsp;
mod man;
mod render;
mod schema;
mod test;
mod values;

use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// Render infrastructure blueprints: Windsor contexts and Bluelink blueprints.
///
/// bpvm prints the blueprint of a Windsor project's context (its facets
/// composed by their `when:` conditions, `${…}` expressions evaluated) or
/// of a Bluelink blueprint (its `${..}` substitutions resolved), runs a
/// template's test suites, renders every context and blueprint of a
/// repository in one run, and evaluates single expressions. Every problem
/// is reported with its file, YAML path and line:column; nothing is
/// written when a render fails.
#[derive(Parser)]
#[command(
    name = "bpvm",
    version,
    after_help = EXAMPLES,
    after_long_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Stop a render that runs longer than SECONDS, with an error naming
    /// this flag [default: 120, or BPVM_TIMEOUT_SECONDS]. Each render is
    /// timed on its own: a Windsor context (its project loaded with it),
    /// a Bluelink blueprint, a test case, a batch target.
    #[arg(long, global = true, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=31_536_000))]
    pub timeout: Option<u64>,

    /// Let `env(NAME)` read only the environment variables whose names
    /// match PATTERN (`*` any run of characters, `?` one), repeated for
    /// more; joins the comma-separated patterns of $BPVM_ALLOW_ENV. With
    /// neither, any variable may be read (as Windsor); a refused read is
    /// an error naming the variable.
    #[arg(long = "allow-env", value_name = "PATTERN", global = true)]
    pub allow_env: Vec<String>,
}

impl Cli {
    /// Makes `--timeout` the deadline of every render this process (and
    /// any process it starts) runs.
    pub fn apply_timeout(&self) {
        if let Some(seconds) = self.timeout {
            // SAFETY: called first thing in `main`, before any thread is
            // started, so nothing reads the environment concurrently.
            unsafe { std::env::set_var(bpvm::runtime::govern::VARIABLE, seconds.to_string()) };
        }
    }
}

/// The top-level help's examples, each runnable from the repository's root.
const EXAMPLES: &str = "\
Examples:
  bpvm render --project examples/windsor --context local
  bpvm render examples/bluelink/blueprint.yaml --vars examples/bluelink/blueprint.vars.yaml
  bpvm test --project examples/windsor
  bpvm batch examples --out rendered
  bpvm diff HEAD examples
  bpvm eval --env examples/blueprint.yaml \"cluster.cni.driver == 'cilium'\"";

#[derive(Subcommand)]
pub enum Command {
    Render(render::Args),
    Test(test::Args),
    Check(check::Args),
    Batch(batch::Args),
    Diff(diff::Args),
    Eval(eval::Args),
    Bench(bench::Args),
    Explain(explain::Args),
    Graph(graph::Args),
    Values(values::Args),
    Fmt(fmt::Args),
    Convert(convert::Args),
    Schema(schema::Args),
    Lsp(lsp::Args),
    Completions(completions::Args),
    Man(man::Args),
    #[cfg(unix)]
    #[command(name = "jsonnet-worker", hide = true)]
    JsonnetWorker(jsonnet_worker::Args),
    /// A worker process of `bpvm batch` (started by it, not by hand).
    #[command(hide = true)]
    BatchWorker(batch::WorkerArgs),
}

impl Command {
    /// Runs the command: its exit status.
    pub fn run(self) -> ExitCode {
        // A render, explain, graph or eval is governed as one render from
        // loading to output (D10; each run of `render --watch` is one);
        // test, check and batch govern each of the renders they run.
        use bpvm::runtime::govern::govern;
        match self {
            Command::Render(args) => render::run(args),
            Command::Test(args) => test::run(args),
            Command::Check(args) => check::run(args),
            Command::Batch(args) => batch::run(args),
            Command::Diff(args) => diff::run(args),
            Command::Eval(args) => govern(|| eval::run(args)),
            Command::Bench(args) => bench::run(args),
            Command::Explain(args) => govern(|| explain::run(args)),
            Command::Graph(args) => govern(|| graph::run(args)),
            Command::Values(args) => govern(|| values::run(args)),
            Command::Fmt(args) => fmt::run(args),
            Command::Convert(args) => convert::run(args),
            Command::Schema(args) => schema::run(args),
            Command::Lsp(args) => lsp::run(args),
            Command::Completions(args) => completions::run(args, Cli::command()),
            Command::Man(args) => man::run(args, Cli::command()),
            #[cfg(unix)]
            Command::JsonnetWorker(args) => jsonnet_worker::run(args),
            Command::BatchWorker(args) => batch::work(args),
        }
    }
}

/// Bare `bpvm` teaches: the whole help, and success.
pub fn teach() -> ExitCode {
    match Cli::command().print_long_help() {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(1),
    }
}
