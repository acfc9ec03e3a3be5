//! `bpvm`: evaluate and benchmark blueprint expressions.

mod alloc;
mod bench;

use bpvm::{Compiler, Dialect, Environment, Program, Vm};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

/// Compile blueprint expressions once to bytecode and run them on a tight VM.
///
/// Two dialects: `windsor` (expr-lang, as in Windsor facets' `when:` and
/// `${…}`) and `bluelink` (the `${..}` substitution language of Bluelink
/// blueprints).
#[derive(Parser)]
#[command(name = "bpvm", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum DialectArg {
    /// expr-lang, as Windsor facets write it
    Windsor,
    /// Bluelink `${..}` substitutions
    Bluelink,
}

impl From<DialectArg> for Dialect {
    fn from(d: DialectArg) -> Dialect {
        match d {
            DialectArg::Windsor => Dialect::Windsor,
            DialectArg::Bluelink => Dialect::Bluelink,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Compile EXPR once, evaluate it, print the result as one line of JSON.
    ///
    /// nil/none prints as null, bytes as their UTF-8 text. Exit status: 0 on
    /// success, 1 on a compile or evaluation error (the diagnostic goes to
    /// stderr), 2 on bad usage.
    ///
    /// Example: bpvm eval --env examples/blueprint.yaml "cluster.cni.driver == 'cilium'"
    Eval {
        /// The expression language.
        #[arg(long, value_enum, default_value = "windsor")]
        dialect: DialectArg,
        /// A YAML or JSON mapping the expression reads. For bluelink its
        /// top-level keys are the namespaces variables, values, datasources,
        /// resources, children, elem and i.
        #[arg(long, value_name = "FILE")]
        env: Option<PathBuf>,
        /// Treat EXPR as a host string with ${…} parts.
        #[arg(long)]
        template: bool,
        /// Print the bytecode to stderr.
        #[arg(long)]
        disasm: bool,
        /// The expression (or, with --template, the host string).
        #[arg(value_name = "EXPR")]
        expr: String,
    },
    /// Time repeated evaluations of each EXPR (compiled once).
    ///
    /// Prints the median nanoseconds per evaluation over several batches,
    /// heap allocations per evaluation, and the median compile time.
    Bench {
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
        /// The expressions.
        #[arg(value_name = "EXPR", required = true)]
        exprs: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Eval {
            dialect,
            env,
            template,
            disasm,
            expr,
        } => eval(dialect.into(), env.as_deref(), template, disasm, &expr),
        Command::Bench {
            dialect,
            env,
            seconds,
            json,
            exprs,
        } => {
            if !(seconds > 0.0 && seconds.is_finite()) {
                eprintln!("error: --seconds must be a positive number");
                return ExitCode::from(2);
            }
            load_env(env.as_deref())
                .and_then(|env| bench::run(Compiler::new(dialect.into()), &env, seconds, json, &exprs))
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprint!("{message}");
            if !message.ends_with('\n') {
                eprintln!();
            }
            ExitCode::from(1)
        }
    }
}

/// Reads `--env`: JSON by extension or content, otherwise YAML.
pub fn load_env(path: Option<&Path>) -> Result<Environment, String> {
    let Some(path) = path else {
        return Ok(Environment::new());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("error: cannot read {}: {e}", path.display()))?;
    let is_json = path.extension().is_some_and(|e| e == "json") || text.trim_start().starts_with('{');
    let env = if is_json {
        Environment::from_json(&text)
    } else {
        Environment::from_yaml(&text)
    };
    env.map_err(|e| format!("error: {}: {e}", path.display()))
}

fn compile(compiler: Compiler, src: &str, template: bool) -> Result<Program, String> {
    let prog = if template {
        compiler.compile_template(src)
    } else {
        compiler.compile(src)
    };
    prog.map_err(|d| format!("error: {d}"))
}

fn eval(dialect: Dialect, env: Option<&Path>, template: bool, disasm: bool, expr: &str) -> Result<(), String> {
    let env = load_env(env)?;
    let prog = compile(Compiler::new(dialect), expr, template)?;
    if disasm {
        eprint!("{}", bpvm::disassemble(&prog));
    }
    let mut vm = Vm::new();
    let value = bpvm::eval(&mut vm, &prog, &env).map_err(|d| format!("error: {d}"))?;
    println!("{}", value.to_json());
    Ok(())
}
