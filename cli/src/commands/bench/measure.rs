//! Timing expressions: each one's compile time, then its evaluation in
//! batches sized to the time budget, with the heap allocations they make.

use crate::alloc::allocations;
use bpvm::{Compiler, Environment, PathTable, Program, Vm};
use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

const BATCHES: usize = 15;

/// What was measured of one expression.
pub struct Measure {
    pub expr: String,
    pub ns_per_eval: f64,
    pub compile_us: f64,
    pub allocs_per_eval: f64,
}

/// How the expressions read the environment.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// As a render does: the programs' paths numbered in one table and
    /// the environment bound to it, so a path is read by its slot.
    Bound,
    /// Every path looked up by name on every evaluation.
    Unbound,
}

/// Measures each of `exprs` for about `seconds`, saying on stderr which
/// one it is at.
pub fn all(
    compiler: &Compiler,
    env: &Environment,
    reads: Reads,
    seconds: f64,
    exprs: &[String],
) -> Result<Vec<Measure>, String> {
    let table = PathTable::new();
    let mut env = env.clone();
    let mut results = Vec::new();
    for (n, expr) in exprs.iter().enumerate() {
        eprint!("\rbenchmarking {}/{}", n + 1, exprs.len());
        let _ = std::io::stderr().flush();
        let mut prog = compiler.compile(expr).map_err(|d| format!("\nerror: {d}"))?;
        if reads == Reads::Bound {
            prog.bind(&table);
            env.bind(&table);
        }
        results.push(one(compiler, expr, &prog, &env, seconds)?);
    }
    eprintln!();
    Ok(results)
}

/// Measures `expr`, compiled to `prog`; an evaluation error stops it.
fn one(compiler: &Compiler, expr: &str, prog: &Program, env: &Environment, seconds: f64) -> Result<Measure, String> {
    let mut vm = Vm::new();
    bpvm::eval(&mut vm, prog, env).map_err(|d| format!("\nerror: {d}"))?;
    let compile_times = compile_times(compiler, expr, seconds);
    let iters = batch_size(&mut vm, prog, env, seconds);
    let (per_eval, allocs) = timed_batches(&mut vm, prog, env, iters);
    Ok(Measure {
        expr: expr.to_string(),
        ns_per_eval: median(per_eval),
        compile_us: median(compile_times),
        allocs_per_eval: allocs as f64 / (iters as f64 * BATCHES as f64),
    })
}

/// Compile times in µs, repeated for ~1/10 of the budget.
fn compile_times(compiler: &Compiler, expr: &str, seconds: f64) -> Vec<f64> {
    let mut times = Vec::new();
    let budget = Duration::from_secs_f64(seconds / 10.0);
    let started = Instant::now();
    while times.len() < 5 || (started.elapsed() < budget && times.len() < 100_000) {
        let t = Instant::now();
        black_box(compiler.compile(black_box(expr)).ok());
        times.push(t.elapsed().as_secs_f64() * 1e6);
    }
    times
}

/// Evaluations per batch, for a batch of about 1/BATCHES of the budget.
fn batch_size(vm: &mut Vm, prog: &Program, env: &Environment, seconds: f64) -> u64 {
    let mut iters: u64 = 1;
    loop {
        let t = Instant::now();
        for _ in 0..iters {
            black_box(vm.run(prog, env).is_ok());
        }
        if t.elapsed().as_secs_f64() * (BATCHES as f64) >= seconds * 0.9 || iters >= 1 << 40 {
            return iters;
        }
        iters *= 2;
    }
}

/// Nanoseconds per evaluation in each of BATCHES batches of `iters`, and
/// the heap allocations the batches made (the list of times is made
/// before counting starts).
fn timed_batches(vm: &mut Vm, prog: &Program, env: &Environment, iters: u64) -> (Vec<f64>, u64) {
    let mut per_eval = Vec::with_capacity(BATCHES);
    let before = allocations();
    for _ in 0..BATCHES {
        let t = Instant::now();
        for _ in 0..iters {
            black_box(vm.run(black_box(prog), black_box(env)).is_ok());
        }
        per_eval.push(t.elapsed().as_nanos() as f64 / iters as f64);
    }
    (per_eval, allocations() - before)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    xs[xs.len() / 2]
}
