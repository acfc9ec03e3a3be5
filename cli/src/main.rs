//! `bpvm`: evaluate and benchmark blueprint expressions.

mod alloc;
mod batch;
mod bench;
mod bluelink;
mod windsor;
mod write;

use bpvm::runtime::builtins::effects::Effects;
use bpvm::runtime::root::Root;
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
        /// Pin uuid() (bluelink): the same N gives the same ids.
        #[arg(long, value_name = "N")]
        seed: Option<u64>,
        /// Pin datetime() (bluelink) to this instant, e.g. 2024-05-06T07:08:09Z.
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
        /// Look every path up by name on every evaluation, instead of
        /// binding the environment to the expressions' paths once (as a
        /// render binds each context).
        #[arg(long)]
        unbound: bool,
        /// The expressions.
        #[arg(value_name = "EXPR", required = true)]
        exprs: Vec<String>,
    },
    /// Materialise a Bluelink blueprint, or compose a Windsor project.
    ///
    /// With BLUEPRINT (YAML or JSON): the whole blueprint is validated
    /// (every problem reported with file:line:column and its path), then
    /// variables, values, data sources, resources (condition, each),
    /// included children, exports and metadata are resolved in dependency
    /// order, and the materialised blueprint is printed. A value only known
    /// at deploy time keeps its ${..} text and is listed on stderr.
    ///
    /// Without BLUEPRINT: reads the Windsor project's windsor.yaml, the
    /// template in contexts/_template/ (blueprint.yaml, schema.yaml, facets/
    /// and legacy features/) and the context's values.yaml and
    /// blueprint.yaml, and prints the blueprint of one context.
    ///
    /// Nothing is written when the render fails.
    ///
    /// Examples: bpvm render examples/bluelink/blueprint.yaml --vars examples/bluelink/blueprint.vars.yaml;
    /// bpvm render --project . --context local -o json
    Render {
        /// A Bluelink blueprint (YAML or JSON); without it, the Windsor
        /// project is rendered.
        #[arg(value_name = "BLUEPRINT")]
        blueprint: Option<PathBuf>,
        /// The Windsor project folder (the one with windsor.yaml and contexts/).
        #[arg(long, value_name = "DIR", default_value = ".", conflicts_with = "blueprint")]
        project: PathBuf,
        /// The Windsor context; by default windsor.yaml's `context:`, else `local`.
        #[arg(long, value_name = "NAME", conflicts_with = "blueprint")]
        context: Option<String>,
        /// Output format.
        #[arg(short = 'o', long = "output", value_enum, default_value = "yaml")]
        format: windsor::Format,
        /// Write to FILE instead of stdout: atomically, keeping its mode,
        /// and only ever a regular file (a symlink, folder, FIFO or device
        /// there is refused).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Say on stderr which facets and components were included or
        /// skipped, and the condition that decided (Windsor).
        #[arg(long, conflicts_with = "blueprint")]
        explain: bool,
        /// Do not apply the defaults of contexts/_template/schema.yaml (Windsor).
        #[arg(long, conflicts_with = "blueprint")]
        no_schema_defaults: bool,
        /// Which Windsor rules to render by: the ones the template's
        /// metadata.yaml cliVersion selects, the seed format's, or v0.9's.
        #[arg(long, value_enum, default_value = "auto", conflicts_with = "blueprint")]
        rules: windsor::Rules,
        /// Print the flux systems compiled to the kustomizations Windsor
        /// applies (`<system>-install`, `<system>-resources[-<variant>]`)
        /// under `kustomize:`, instead of the `flux:` systems that
        /// `windsor show blueprint` prints (Windsor v0.9).
        #[arg(long, conflicts_with = "blueprint")]
        compile_flux: bool,
        /// A YAML or JSON file of terraform outputs by component; without
        /// it terraform_output() stays as written (Windsor).
        #[arg(long, value_name = "FILE", conflicts_with = "blueprint")]
        terraform_outputs: Option<PathBuf>,
        /// A variable's value, parsed to its declared type (repeatable;
        /// later wins).
        #[arg(long = "var", value_name = "NAME=VALUE", requires = "blueprint")]
        vars: Vec<String>,
        /// A YAML or JSON mapping of variable names to values.
        #[arg(long = "vars", value_name = "FILE", requires = "blueprint")]
        vars_file: Option<PathBuf>,
        /// Data source data: a mapping from data source name to its
        /// exported fields, or from data source type to a list of candidate
        /// records (the first that matches the filter is used). Without
        /// it, data source fields are left as written.
        #[arg(long, value_name = "FILE", requires = "blueprint")]
        datasources: Option<PathBuf>,
        /// Deploy-time resource fields: a mapping from resource name
        /// (`fn`, `buckets[1]`) to fields read as if they were in its spec.
        #[arg(long, value_name = "FILE", requires = "blueprint")]
        resource_state: Option<PathBuf>,
        /// Print secret variables and values instead of ********.
        #[arg(long, requires = "blueprint")]
        show_secrets: bool,
        /// Pin uuid(): the same N gives the same ids.
        #[arg(long, value_name = "N", requires = "blueprint")]
        seed: Option<u64>,
        /// Pin datetime() to this instant, e.g. 2024-05-06T07:08:09Z.
        #[arg(long, value_name = "RFC3339", requires = "blueprint")]
        now: Option<String>,
        /// The folder file() and include paths must stay inside (default:
        /// the current folder when the blueprint is in it, else the
        /// blueprint's folder).
        #[arg(long, value_name = "DIR", requires = "blueprint")]
        root: Option<PathBuf>,
        /// A host http_resource() may fetch from (repeatable).
        #[arg(long = "allow-http", value_name = "HOST", requires = "blueprint")]
        allow_http: Vec<String>,
    },
    /// Render every Windsor context and Bluelink blueprint under PATHs in one run.
    ///
    /// Finds every Windsor project (windsor.yaml and contexts/_template/:
    /// one target per context folder) and Bluelink blueprint (one target per
    /// <stem>[.<set>].vars.yaml beside it) under each PATH, skipping .git,
    /// target, node_modules, hidden folders and what .gitignore ignores; a
    /// bpvm-batch.yaml in a PATH lists its targets instead. Each template is
    /// loaded once and its targets render in parallel, each exactly as
    /// `bpvm render` prints it (Bluelink files stay inside the PATH, as with
    /// --root PATH). A failed target is reported and the others still render.
    ///
    /// Exit status: 0 when every target rendered (and, with --check, matched;
    /// with --test, every case passed), 1 otherwise, 2 on bad usage.
    ///
    /// Examples:
    ///   bpvm batch examples --out rendered
    ///   bpvm batch examples --out rendered --check
    ///   bpvm batch . --test --shard 2/4 --report shard-2.json
    ///   bpvm batch merge-reports shard-*.json --report-format junit --out junit.xml
    #[command(args_conflicts_with_subcommands = true, verbatim_doc_comment)]
    Batch {
        #[command(subcommand)]
        action: Option<BatchAction>,
        /// Folders to search (default: the current one).
        #[arg(value_name = "PATH")]
        paths: Vec<PathBuf>,
        /// Write each target to OUT/<id>.yaml (Windsor: <project>/<context>,
        /// Bluelink: <folder>/<stem>[@<set>]), atomically; without it nothing
        /// is written.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Compare with the files in --out instead of writing: print a
        /// unified diff for each target that differs or is missing, list the
        /// files no target renders, exit 1 on any drift.
        #[arg(long, requires = "out")]
        check: bool,
        /// Worker threads (default: one per core).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
        jobs: Option<u16>,
        /// Only shard K of N (1-based): the N shards are disjoint and together
        /// the whole batch; a target stays in its shard as others come and go.
        #[arg(long, value_name = "K/N", value_parser = bpvm::batch::parse_shard)]
        shard: Option<(usize, usize)>,
        /// Write a report: one record per target and test case.
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        /// The report's format.
        #[arg(long, value_enum, default_value = "json")]
        report_format: batch::ReportFormat,
        /// Also run every Windsor project's test suites, each case a record.
        #[arg(long)]
        test: bool,
        /// Output format.
        #[arg(short = 'o', long = "output", value_enum, default_value = "yaml")]
        format: windsor::Format,
        /// Start nothing new after the first failure.
        #[arg(long)]
        fail_fast: bool,
    },
    /// Run the template's test suites (contexts/_template/tests/**/*.test.yaml).
    ///
    /// Prints ✓ or ✗ per case, with what differed, then "N passed, M failed".
    /// Exit status 1 if any case failed.
    Test {
        /// The project folder.
        #[arg(long, value_name = "DIR", default_value = ".")]
        project: PathBuf,
        /// Only the case with this name.
        #[arg(long, value_name = "NAME")]
        case: Option<String>,
        /// Do not apply the defaults of contexts/_template/schema.yaml
        /// (seed rules; a v0.9 case applies them when it sets
        /// applySchemaDefaults).
        #[arg(long)]
        no_schema_defaults: bool,
        /// Which Windsor rules to test by: the ones the template's
        /// metadata.yaml cliVersion selects, the seed format's, or v0.9's.
        #[arg(long, value_enum, default_value = "auto")]
        rules: windsor::Rules,
        /// Test files or folders, relative to the project.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
    },
}

#[derive(Subcommand)]
enum BatchAction {
    /// Combine the JSON reports of a batch's shards into one report.
    ///
    /// Each target must be in one report only, and when the reports name
    /// their shards, every shard of the batch must be there.
    ///
    /// Example: bpvm batch merge-reports shard-*.json --report-format junit --out junit.xml
    MergeReports {
        /// The shards' reports (`bpvm batch --report FILE`).
        #[arg(value_name = "REPORT", required = true)]
        reports: Vec<PathBuf>,
        /// The merged report's format.
        #[arg(long, value_enum, default_value = "json")]
        report_format: batch::ReportFormat,
        /// Write to FILE instead of stdout.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
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
                eprintln!("error: --seconds must be a positive number");
                return ExitCode::from(2);
            }
            load_env(env.as_deref()).and_then(|env| {
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
            format,
            out,
            vars,
            vars_file,
            datasources,
            resource_state,
            show_secrets,
            seed,
            now,
            root,
            allow_http,
            ..
        } => bluelink::render(bluelink::RenderArgs {
            blueprint,
            vars,
            vars_file,
            datasources,
            resource_state,
            format,
            out,
            show_secrets,
            seed,
            now,
            root,
            allow_http,
        }),
        Command::Render {
            blueprint: None,
            vars,
            vars_file,
            datasources,
            resource_state,
            show_secrets,
            seed,
            now,
            root,
            allow_http,
            ..
        } if !vars.is_empty()
            || vars_file.is_some()
            || datasources.is_some()
            || resource_state.is_some()
            || show_secrets
            || seed.is_some()
            || now.is_some()
            || root.is_some()
            || !allow_http.is_empty() =>
        {
            // clap drops `requires` when a conflicting flag (--project) is given.
            eprintln!(
                "error: --var, --vars, --datasources, --resource-state, --show-secrets, --seed, --now, --root and --allow-http need a BLUEPRINT"
            );
            return ExitCode::from(2);
        }
        Command::Render {
            blueprint: None,
            project,
            context,
            format,
            out,
            explain,
            no_schema_defaults,
            terraform_outputs,
            rules,
            compile_flux,
            ..
        } => windsor::render(windsor::RenderArgs {
            project,
            rules,
            compile_flux,
            context,
            format,
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
        } => return status(batch::merge(&reports, report_format, out.as_deref())),
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
            format,
            fail_fast,
        } => {
            return status(batch::run(batch::Args {
                paths,
                out,
                check,
                jobs: jobs.map(usize::from),
                shard,
                report,
                report_format,
                test,
                format: match format {
                    windsor::Format::Yaml => bpvm::batch::Format::Yaml,
                    windsor::Format::Json => bpvm::batch::Format::Json,
                },
                fail_fast,
            }));
        }
        Command::Test {
            project,
            case,
            no_schema_defaults,
            rules,
            paths,
        } => match windsor::test(windsor::TestArgs {
            project,
            rules,
            paths,
            case,
            schema_defaults: !no_schema_defaults,
        }) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
    };
    finish(result)
}

/// A command that reports its own failures: exit 1 when it found any.
fn status(result: Result<bool, String>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => finish(Err(e)),
    }
}

/// Exit 0, or print the error and exit 1.
fn finish(result: Result<(), String>) -> ExitCode {
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

/// What Bluelink's effect functions may do, from the flags.
fn effects(
    seed: Option<u64>,
    now: Option<&str>,
    root: Option<PathBuf>,
    allow_http: Vec<String>,
) -> Result<Effects, String> {
    let now = match now {
        None => None,
        Some(t) => Some(
            chrono::DateTime::parse_from_rfc3339(t)
                .map_err(|e| format!("error: --now {t:?} is not an RFC 3339 time: {e}"))?
                .with_timezone(&chrono::Utc),
        ),
    };
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
    let env = load_env(env)?;
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
