//! `bpvm bench`: median time per evaluation over several batches.

use crate::alloc::allocations;
use crate::args::DialectArg;
use crate::{exit, load};
use bpvm::{Compiler, Environment, PathTable, Vm};
use std::hint::black_box;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Time repeated evaluations of each EXPR (compiled once).
///
/// Prints the median nanoseconds per evaluation over several batches,
/// heap allocations per evaluation, and the median compile time.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm bench --env examples/blueprint.yaml --seconds 0.2 \"cluster.cni.driver == 'cilium'\" \"cluster.nodes.count > 2\"
  bpvm bench --env examples/blueprint.yaml --seconds 0.2 --unbound --json \"cluster.enabled ?? true\"")]
pub struct Args {
    /// The expression language.
    #[arg(long, value_enum, default_value = "windsor")]
    dialect: DialectArg,
    /// A YAML or JSON mapping the expressions read.
    #[arg(long, value_name = "FILE")]
    env: Option<PathBuf>,
    /// Time spent measuring each expression.
    #[arg(long, value_name = "S", default_value_t = 1.0)]
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

pub fn run(args: Args) -> ExitCode {
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        return exit::usage("error: --seconds must be a positive number");
    }
    let reads = if args.unbound { Reads::Unbound } else { Reads::Bound };
    let compiler = Compiler::new(args.dialect.into());
    let measured = load::environment(args.env.as_deref())
        .and_then(|env| bench(compiler, &env, reads, args.seconds, args.json, &args.exprs));
    exit::code(measured)
}

const BATCHES: usize = 15;

struct Measure {
    expr: String,
    ns_per_eval: f64,
    compile_us: f64,
    allocs_per_eval: f64,
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}

/// How the expressions read the environment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reads {
    /// As a render does: the programs' paths numbered in one table and
    /// the environment bound to it, so a path is read by its slot.
    Bound,
    /// Every path looked up by name on every evaluation.
    Unbound,
}

fn bench(
    compiler: Compiler,
    env: &Environment,
    reads: Reads,
    seconds: f64,
    json: bool,
    exprs: &[String],
) -> Result<(), String> {
    let table = PathTable::new();
    let mut env = env.clone();
    let env = &mut env;
    let mut results = Vec::new();
    for (n, expr) in exprs.iter().enumerate() {
        eprint!("\rbenchmarking {}/{}", n + 1, exprs.len());
        let _ = std::io::stderr().flush();
        let mut prog = compiler.compile(expr).map_err(|d| format!("\nerror: {d}"))?;
        if reads == Reads::Bound {
            prog.bind(&table);
            env.bind(&table);
        }
        let env = &*env;
        let mut vm = Vm::new();
        bpvm::eval(&mut vm, &prog, env).map_err(|d| format!("\nerror: {d}"))?;

        // Compile time: repeat for ~1/10 of the budget.
        let mut compile_times = Vec::new();
        let budget = Duration::from_secs_f64(seconds / 10.0);
        let started = Instant::now();
        while compile_times.len() < 5 || (started.elapsed() < budget && compile_times.len() < 100_000) {
            let t = Instant::now();
            black_box(compiler.compile(black_box(expr)).ok());
            compile_times.push(t.elapsed().as_secs_f64() * 1e6);
        }

        // Calibrate a batch size of about 1/BATCHES of the budget.
        let mut iters: u64 = 1;
        loop {
            let t = Instant::now();
            for _ in 0..iters {
                black_box(vm.run(&prog, env).is_ok());
            }
            if t.elapsed().as_secs_f64() * (BATCHES as f64) >= seconds * 0.9 || iters >= 1 << 40 {
                break;
            }
            iters *= 2;
        }
        let mut per_eval = Vec::with_capacity(BATCHES);
        let before = allocations();
        for _ in 0..BATCHES {
            let t = Instant::now();
            for _ in 0..iters {
                black_box(vm.run(black_box(&prog), black_box(env)).is_ok());
            }
            per_eval.push(t.elapsed().as_nanos() as f64 / iters as f64);
        }
        let allocs = (allocations() - before) as f64 / (iters as f64 * BATCHES as f64);
        results.push(Measure {
            expr: expr.clone(),
            ns_per_eval: median(per_eval),
            compile_us: median(compile_times),
            allocs_per_eval: allocs,
        });
    }
    eprintln!();
    if json {
        let rows: Vec<String> = results
            .iter()
            .map(|m| {
                format!(
                    "{{\"expr\":{},\"ns_per_eval\":{:.2},\"compile_us\":{:.3},\"allocs_per_eval\":{:.3}}}",
                    serde_json::to_string(&m.expr).unwrap_or_default(),
                    m.ns_per_eval,
                    m.compile_us,
                    m.allocs_per_eval
                )
            })
            .collect();
        println!("[{}]", rows.join(","));
    } else {
        println!(
            "{:>12}  {:>12}  {:>11}  expression",
            "ns/eval", "allocs/eval", "compile µs"
        );
        for m in &results {
            println!(
                "{:>12.2}  {:>12.3}  {:>11.3}  {}",
                m.ns_per_eval, m.allocs_per_eval, m.compile_us, m.expr
            );
        }
    }
    Ok(())
}
