//! `bpvm`: render Windsor contexts and Bluelink blueprints, test templates,
//! evaluate and benchmark expressions.

mod alloc;
mod args;
mod batch;
mod bench;
mod bluelink;
mod check;
mod cli;
mod exit;
mod explain;
mod graph;
mod load;
mod paint;
mod shell;
mod windsor;
mod write;

use args::NEEDS_BLUEPRINT;
use bpvm::runtime::builtins::effects::Effects;
use bpvm::runtime::root::Root;
use bpvm::{Compiler, Dialect, Program, Vm};
use clap::{CommandFactory, Parser};
use cli::{BatchAction, Cli, Command};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: alloc::Counting = alloc::Counting;

fn main() -> ExitCode {
    let Some(command) = Cli::parse().command else {
        // Bare `bpvm` teaches: the whole help, and success.
        return match Cli::command().print_long_help() {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::from(1),
        };
    };
    let result = match command {
        Command::Eval {
            dialect,
            env,
            template,
            disasm,
            seed,
            now,
            root,
            allow_http,
            expr,
        } => effects(seed, now.as_deref(), root, allow_http)
            .and_then(|fx| eval(dialect.into(), env.as_deref(), template, disasm, &expr, fx)),
        Command::Bench {
            dialect,
            env,
            seconds,
            json,
            unbound,
            exprs,
        } => {
            if !(seconds > 0.0 && seconds.is_finite()) {
                return exit::usage("error: --seconds must be a positive number");
            }
            load::environment(env.as_deref()).and_then(|env| {
                let reads = if unbound {
                    bench::Reads::Unbound
                } else {
                    bench::Reads::Bound
                };
                bench::run(Compiler::new(dialect.into()), &env, reads, seconds, json, &exprs)
            })
        }
        Command::Render {
            blueprint: Some(blueprint),
            output,
            out,
            bluelink,
            ..
        } => bluelink::render(bluelink::RenderArgs {
            blueprint,
            flags: bluelink,
            format: output.chosen(),
            out,
        }),
        Command::Render {
            blueprint: None,
            bluelink,
            ..
        } if bluelink.any() => return exit::usage(NEEDS_BLUEPRINT),
        Command::Render {
            blueprint: None,
            windsor: target,
            output,
            out,
            explain,
            no_schema_defaults,
            terraform_outputs,
            compile_flux,
            ..
        } => windsor::render(windsor::RenderArgs {
            project: target.project,
            rules: target.rules,
            compile_flux,
            context: target.context,
            format: output.chosen(),
            out,
            explain,
            schema_defaults: !no_schema_defaults,
            outputs: terraform_outputs,
        }),
        Command::Batch {
            action:
                Some(BatchAction::MergeReports {
                    reports,
                    report_format,
                    out,
                }),
            ..
        } => return exit::passed(batch::merge(&reports, report_format, out.as_deref())),
        Command::Batch {
            action: None,
            paths,
            out,
            check,
            jobs,
            shard,
            report,
            report_format,
            test,
            output,
            fail_fast,
        } => {
            return exit::passed(batch::run(batch::Args {
                paths,
                out,
                check,
                jobs: jobs.map(usize::from),
                shard,
                report,
                report_format,
                test,
                format: match output.chosen() {
                    args::Format::Yaml => bpvm::batch::Format::Yaml,
                    args::Format::Json => bpvm::batch::Format::Json,
                },
                fail_fast,
            }));
        }
        Command::Explain {
            path,
            blueprint: Some(blueprint),
            bluelink,
            ..
        } => explain::bluelink(&path, &blueprint, &bluelink),
        Command::Explain {
            blueprint: None,
            bluelink,
            ..
        } if bluelink.any() => return exit::usage(NEEDS_BLUEPRINT),
        Command::Explain {
            path,
            blueprint: None,
            windsor: target,
            ..
        } => explain::windsor(&path, target),
        Command::Graph {
            blueprint,
            windsor: target,
            format,
            all,
        } => graph::graph(blueprint.as_deref(), target, all, format),
        Command::Check {
            paths,
            format,
            deny_warnings,
        } => return exit::passed(check::check(&paths, format, deny_warnings)),
        Command::Completions { shell } => shell::completions(shell),
        Command::Man { out } => shell::man(out.as_deref()),
        Command::Test {
            project,
            name,
            case,
            no_schema_defaults,
            rules,
            paths,
        } => match windsor::test(windsor::TestArgs {
            project,
            rules,
            paths,
            case: name.or(case),
            schema_defaults: !no_schema_defaults,
        }) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
    };
    exit::code(result)
}

fn compile(compiler: Compiler, src: &str, template: bool) -> Result<Program, String> {
    let prog = if template {
        compiler.compile_template(src)
    } else {
        compiler.compile(src)
    };
    prog.map_err(|d| format!("error: {d}"))
}

/// What Bluelink's effect functions may do, from the flags.
fn effects(
    seed: Option<u64>,
    now: Option<&str>,
    root: Option<PathBuf>,
    allow_http: Vec<String>,
) -> Result<Effects, String> {
    let now = load::bluelink::now(now)?;
    // `eval` has no blueprint, so its files are read inside --root, else
    // the current folder.
    let root = match root {
        Some(r) => Some(Root::new(&r, "root").map_err(|e| format!("error: --root {}: {e}", r.display()))?),
        None => std::env::current_dir()
            .ok()
            .and_then(|d| Root::new(&d, "current folder").ok()),
    };
    Ok(Effects {
        seed,
        now,
        root,
        allow_http,
        ..Effects::default()
    })
}

fn eval(
    dialect: Dialect,
    env: Option<&Path>,
    template: bool,
    disasm: bool,
    expr: &str,
    mut fx: Effects,
) -> Result<(), String> {
    let env = load::environment(env)?;
    let prog = compile(Compiler::new(dialect), expr, template)?;
    if disasm {
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
