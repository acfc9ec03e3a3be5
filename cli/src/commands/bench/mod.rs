//! `bpvm bench`: median time per evaluation over several batches.
//!
//! `measure` times the expressions (counting allocations through
//! `crate::alloc`) and `report` prints its measures; neither imports this
//! file.

mod measure;
mod report;

use crate::args::{DialectArg, RulesArg};
use crate::{exit, load};
use bpvm::Compiler;
use measure::Reads;
use std::path::PathBuf;
use std::process::ExitCode;

/// Time repeated evaluations of each EXPR (compiled once).
///
/// Prints the median nanoseconds per evaluation over several batches,
/// heap allocations per evaluation, and the median compile time.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm bench --env examples/blueprint.yaml --seconds 0.2 \"cluster.cni.driver == 'cilium'\" \"cluster.nodes.count > 2\"
  bpvm bench --env examples/blueprint.yaml --seconds 0.2 --unbound --json \"cluster.enabled ?? true\"
  bpvm bench --env examples/blueprint.yaml --seconds 0.2 --rules seed \"cluster.enabled && cluster.cni.driver == 'cilium'\"")]
pub struct Args {
    /// The expression language.
    #[arg(long, value_enum, default_value = "windsor")]
    dialect: DialectArg,
    /// Which Windsor rules the expressions follow: Windsor v0.9's
    /// (expr-lang v1.17.8 as Windsor runs it) or the seed facet format's.
    #[arg(long, value_enum, default_value = "v0.9")]
    rules: RulesArg,
    /// A YAML or JSON mapping the expressions read.
    #[arg(long, value_name = "FILE")]
    env: Option<PathBuf>,
    /// Time spent measuring each expression (more than 0, at most 3600).
    #[arg(long, value_name = "S", default_value_t = 1.0, value_parser = seconds)]
    seconds: f64,
    /// Print [{"expr":…,"ns_per_eval":…,"compile_us":…,"allocs_per_eval":…}].
    #[arg(long)]
    json: bool,
    /// Look every path up by name on every evaluation, instead of
    /// binding the environment to the expressions' paths once (as a
    /// render binds each context).
    #[arg(long)]
    unbound: bool,
    /// The expressions.
    #[arg(value_name = "EXPR", required = true)]
    exprs: Vec<String>,
}

/// The longest `--seconds`: an hour per expression is past any use, and
/// a bound keeps every time computed from it representable.
const MOST_SECONDS: f64 = 3600.0;

/// `--seconds`: a number of seconds, more than 0 and at most an hour.
fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MOST_SECONDS => Ok(s),
        _ => Err(format!(
            "expected a number of seconds more than 0 and at most {MOST_SECONDS}"
        )),
    }
}

pub fn run(args: Args) -> ExitCode {
    let reads = if args.unbound { Reads::Unbound } else { Reads::Bound };
    let compiler = match args.dialect {
        DialectArg::Windsor => Compiler::new(args.dialect.into()).logic(args.rules.into()),
        DialectArg::Bluelink => Compiler::new(args.dialect.into()),
    };
    let measured = load::environment(args.env.as_deref())
        .and_then(|env| measure::all(&compiler, &env, reads, args.seconds, &args.exprs));
    exit::code(measured.map(|results| report::print(&results, args.json)))
}
