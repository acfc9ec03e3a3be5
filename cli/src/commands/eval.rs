//! `bpvm eval`: one expression compiled, evaluated and printed as JSON.

use crate::args::{DialectArg, RulesArg};
use crate::{exit, load};
use bpvm::runtime::builtins::effects::Effects;
use bpvm::runtime::root::Root;
use bpvm::{Compiler, Program, Vm};
use std::path::PathBuf;
use std::process::ExitCode;

/// Compile EXPR once, evaluate it, print the result as one line of JSON.
///
/// nil/none prints as null, bytes as their UTF-8 text. Exit status: 0 on
/// success, 1 on a compile or evaluation error (the diagnostic goes to
/// stderr), 2 on bad usage.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm eval --env examples/blueprint.yaml \"cluster.cni.driver == 'cilium' && (cluster.enabled ?? true)\"
  bpvm eval --env examples/blueprint.yaml --disasm \"cluster.nodes.count > 2 ? 'ha' : 'single'\"
  bpvm eval 'true && missing'                 # null: Windsor v0.9 keeps the right operand
  bpvm eval --rules seed 'true && missing'    # false: the seed format counts nil as false
  bpvm eval --now 2024-05-06T07:08:09Z 'now().Format(\"Monday, January 2\")'
  bpvm eval --dialect bluelink 'map(split(\"a,b\", \",\"), to_upper)'")]
pub struct Args {
    /// The expression language.
    #[arg(long, value_enum, default_value = "windsor")]
    dialect: DialectArg,
    /// Which Windsor rules the expression follows: Windsor v0.9's
    /// (expr-lang v1.17.8 as Windsor runs it) or the seed facet format's
    /// (nil counts as false in `&&`, `||`, `!` and `?:`, which always
    /// give a bool).
    #[arg(long, value_enum, default_value = "v0.9")]
    rules: RulesArg,
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
    /// Pin uuid() (bluelink): the same N gives the same ids.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Pin the clock to this instant, e.g. 2024-05-06T07:08:09Z: what
    /// now() (windsor) and datetime() (bluelink) give.
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,
    /// The folder file() reads from (bluelink; default: the current one).
    #[arg(long, value_name = "DIR")]
    root: Option<PathBuf>,
    /// A host http_resource() may fetch from (bluelink; repeatable).
    #[arg(long = "allow-http", value_name = "HOST")]
    allow_http: Vec<String>,
    /// The expression (or, with --template, the host string).
    #[arg(value_name = "EXPR")]
    expr: String,
}

pub fn run(args: Args) -> ExitCode {
    let run = || effects(&args).and_then(|fx| eval(&args, fx));
    exit::code(load::windsor::at_now(args.now.as_deref(), run))
}

/// What Bluelink's effect functions may do, from the flags.
fn effects(args: &Args) -> Result<Effects, String> {
    let now = load::bluelink::now(args.now.as_deref())?;
    // `eval` has no blueprint, so its files are read inside --root, else
    // the current folder.
    let root = match &args.root {
        Some(r) => Some(Root::new(r, "root").map_err(|e| format!("error: --root {}: {e}", r.display()))?),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| Root::new(&d, "current folder").ok()),
    };
    Ok(Effects {
        seed: args.seed,
        now,
        root,
        allow_http: args.allow_http.clone(),
        ..Effects::default()
    })
}

fn eval(args: &Args, mut fx: Effects) -> Result<(), String> {
    let env = load::environment(args.env.as_deref())?;
    let compiler = match args.dialect {
        DialectArg::Windsor => Compiler::new(args.dialect.into()).logic(args.rules.into()),
        DialectArg::Bluelink => Compiler::new(args.dialect.into()),
    };
    let prog = compile(compiler, &args.expr, args.template)?;
    if args.disasm {
        eprint!("{}", bpvm::disassemble(&prog));
    }
    // A bluelink environment may say which resources are linked.
    if let Some(links) = env.root().get("links") {
        fx.links = links.clone();
    }
    let mut vm = Vm::new();
    let value = bpvm::eval_with(&mut vm, &prog, &env, &fx).map_err(|d| format!("error: {d}"))?;
    println!("{}", value.to_json());
    Ok(())
}

fn compile(compiler: Compiler, src: &str, template: bool) -> Result<Program, String> {
    let prog = if template {
        compiler.compile_template(src)
    } else {
        compiler.compile(src)
    };
    prog.map_err(|d| format!("error: {d}"))
}
