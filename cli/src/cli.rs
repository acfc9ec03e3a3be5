//! The command line: every subcommand, flag and help text, as clap reads
//! them. What each command does is in its own module.

use crate::args::{BluelinkFlags, DialectArg, OutputFormat, Rules, WindsorTarget};
use crate::{batch, check, graph};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

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
}

/// The top-level help's examples, each runnable from the repository's root.
const EXAMPLES: &str = "\
Examples:
  bpvm render --project examples/windsor --context local
  bpvm render examples/bluelink/blueprint.yaml --vars examples/bluelink/blueprint.vars.yaml
  bpvm test --project examples/windsor
  bpvm batch examples --out rendered
  bpvm eval --env examples/blueprint.yaml \"cluster.cni.driver == 'cilium'\"";

#[derive(Subcommand)]
pub enum Command {
    /// Print the blueprint of a Windsor context or of a Bluelink blueprint.
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
    #[command(after_help = "\
Examples:
  bpvm render --project examples/windsor --context local
  bpvm render --project examples/windsor -o json --explain
  bpvm render examples/bluelink/blueprint.yaml --vars examples/bluelink/blueprint.vars.yaml \\
      --datasources examples/bluelink/blueprint.datasources.yaml --seed 7")]
    Render {
        /// A Bluelink blueprint (YAML or JSON); without it, the Windsor
        /// project is rendered.
        #[arg(value_name = "BLUEPRINT")]
        blueprint: Option<PathBuf>,
        #[command(flatten)]
        windsor: WindsorTarget,
        #[command(flatten)]
        output: OutputFormat,
        /// Write to FILE instead of stdout: atomically, keeping its mode,
        /// and only ever a regular file (a symlink, folder, FIFO or device
        /// there is refused).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Say on stderr which facets and components were included or
        /// skipped, and the condition that decided (Windsor).
        #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
        explain: bool,
        /// Do not apply the defaults of contexts/_template/schema.yaml (Windsor).
        #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
        no_schema_defaults: bool,
        /// Print the flux systems compiled to the kustomizations Windsor
        /// applies (`<system>-install`, `<system>-resources[-<variant>]`)
        /// under `kustomize:`, instead of the `flux:` systems that
        /// `windsor show blueprint` prints (Windsor v0.9).
        #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
        compile_flux: bool,
        /// A YAML or JSON file of terraform outputs by component; without
        /// it terraform_output() stays as written (Windsor).
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with = "blueprint",
            help_heading = "Windsor options"
        )]
        terraform_outputs: Option<PathBuf>,
        #[command(flatten)]
        bluelink: BluelinkFlags,
    },
    /// Run the template's test suites (contexts/_template/tests/**/*.test.yaml).
    ///
    /// Prints ✓ or ✗ per case, with what differed, then "N passed, M failed".
    /// Exit status 1 if any case failed.
    #[command(after_help = "\
Examples:
  bpvm test --project examples/windsor
  bpvm test --project examples/windsor 'dev adds the dashboard and observability'
  bpvm test --project examples/windsor --path contexts/_template/tests/aws.test.yaml")]
    Test {
        /// The project folder.
        #[arg(long, value_name = "DIR", default_value = ".")]
        project: PathBuf,
        /// Only the case with exactly this name, as `windsor test NAME`.
        #[arg(value_name = "NAME")]
        name: Option<String>,
        /// The same as NAME.
        #[arg(long, value_name = "NAME", conflicts_with = "name")]
        case: Option<String>,
        /// Do not apply the defaults of contexts/_template/schema.yaml
        /// (seed rules; a v0.9 case applies them when it sets
        /// applySchemaDefaults).
        #[arg(long)]
        no_schema_defaults: bool,
        /// Which Windsor rules to test by: the ones the template's
        /// metadata.yaml cliVersion selects, the seed format's, or v0.9's.
        #[arg(long, value_enum, default_value = "auto")]
        rules: Rules,
        /// Only the cases of this test file or folder, relative to the
        /// project (repeatable).
        #[arg(long = "path", value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Find every mistake in templates before anything renders
    ///
    /// Checks each Windsor project and Bluelink blueprint under PATHs (a
    /// project folder, a blueprint file, or folders searched as `bpvm
    /// batch` searches them) without rendering: every expression against
    /// the template's schema or declarations for every context at once
    /// (paths nothing provides, operations the types rule out, conditions
    /// that are constant or never hold), config blocks nothing reads,
    /// `dependsOn` names and files that are not there, and context and
    /// test values the schema refuses. Exits 1 when it finds an error (or
    /// a warning, with --deny-warnings), 0 otherwise. The rules are listed
    /// in the README.
    #[command(after_help = "\
Examples:
  bpvm check examples/windsor
  bpvm check examples --format json
  bpvm check examples/windsor --format sarif > bpvm.sarif
  bpvm check examples/windsor --deny-warnings")]
    Check {
        /// Projects, blueprints or folders to search (default: the current folder).
        #[arg(value_name = "PATH", default_value = ".")]
        paths: Vec<PathBuf>,
        /// How findings are written.
        #[arg(long, value_enum, default_value = "human")]
        format: check::Form,
        /// Fail on warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Render every Windsor context and Bluelink blueprint under PATHs in one run
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
    #[command(
        args_conflicts_with_subcommands = true,
        after_help = "\
Examples:
  bpvm batch examples --out rendered
  bpvm batch examples --out rendered --check
  bpvm batch examples --test --shard 1/2 --report shard-1.json
  bpvm batch examples --test --shard 2/2 --report shard-2.json
  bpvm batch merge-reports shard-*.json --report-format junit --out junit.xml"
    )]
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
        #[command(flatten)]
        output: OutputFormat,
        /// Start nothing new after the first failure.
        #[arg(long)]
        fail_fast: bool,
    },
    /// Compile EXPR once, evaluate it, print the result as one line of JSON.
    ///
    /// nil/none prints as null, bytes as their UTF-8 text. Exit status: 0 on
    /// success, 1 on a compile or evaluation error (the diagnostic goes to
    /// stderr), 2 on bad usage.
    #[command(after_help = "\
Examples:
  bpvm eval --env examples/blueprint.yaml \"cluster.cni.driver == 'cilium' && (cluster.enabled ?? true)\"
  bpvm eval --env examples/blueprint.yaml --disasm \"cluster.nodes.count > 2 ? 'ha' : 'single'\"
  bpvm eval --dialect bluelink 'map(split(\"a,b\", \",\"), to_upper)'")]
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
    #[command(after_help = "\
Examples:
  bpvm bench --env examples/blueprint.yaml --seconds 0.2 \"cluster.cni.driver == 'cilium'\" \"cluster.nodes.count > 2\"
  bpvm bench --env examples/blueprint.yaml --seconds 0.2 --unbound --json \"cluster.enabled ?? true\"")]
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
    /// Say where a value of a blueprint came from.
    ///
    /// Windsor (without BLUEPRINT): the context is rendered as `bpvm
    /// render` does; then every contribution to the value at PATH is
    /// listed in fold order (the base blueprint's, then each facet's by
    /// ordinal): its facet and file with line:column, ordinal and
    /// strategy, its conditions and what they gave, whether it decided the
    /// value (✓), was overridden by a later one (↷) or kept out by a
    /// condition (–), the expression, and what each path the expression
    /// reads held in the render's scope (marked empty, deferred or not
    /// set). PATH is terraform.<id>.inputs.<key>,
    /// kustomize.<name>.substitutions.<key>, kustomize.<name>.components,
    /// flux.<name>.dependsOn, flux.<name>.install.components,
    /// flux.<name>.install.substitutions.<key>,
    /// flux.<name>.resources.<variant>.components or .substitutions.<key>,
    /// substitutions.<key>,
    /// configMaps.values-common.<key>, or a config block's <name>.<key>.
    ///
    /// Bluelink (with BLUEPRINT): the blueprint is rendered with the given
    /// flags, and the substitutions written at PATH or under it are listed
    /// with their line:column and what each path they read held (the
    /// variables, values, data source fields, resources and child exports
    /// as rendered). PATH is resources.<name>.spec.<field> (<name>[i] for
    /// an item of `each`), values.<name>, exports.<name>, or any other path
    /// of the blueprint.
    #[command(after_help = "\
Examples:
  bpvm explain --project examples/windsor terraform.cluster.inputs.endpoint
  bpvm explain --project examples/windsor kustomize.ingress.components
  bpvm explain --project examples/windsor cluster_config.cluster_name
  bpvm explain resources.saveOrderFunction.spec.functionName examples/bluelink/blueprint.yaml \\
      --vars examples/bluelink/blueprint.vars.yaml")]
    Explain {
        /// The value's path in the blueprint.
        #[arg(value_name = "PATH")]
        path: String,
        /// A Bluelink blueprint; without it, the Windsor project's context.
        #[arg(value_name = "BLUEPRINT")]
        blueprint: Option<PathBuf>,
        #[command(flatten)]
        windsor: WindsorTarget,
        #[command(flatten)]
        bluelink: BluelinkFlags,
    },
    /// Print a blueprint's dependency graph, as Mermaid or Graphviz DOT.
    ///
    /// Windsor (without BLUEPRINT): the context is rendered as `bpvm
    /// render` does, and its terraform components, kustomizations and flux
    /// systems are drawn, each with an arrow from every entry its
    /// `dependsOn` names (a name nothing defines is drawn in red); --all
    /// also draws, dimmed, the components a `when` kept out. Bluelink (with
    /// BLUEPRINT): its resources, data sources, values and includes, with
    /// an arrow from what each one's substitutions read (dashed), from each
    /// resource its `dependsOn` names, and both ways between a resource and
    /// those its `linkSelector` selects. The same blueprint always gives
    /// the same text.
    #[command(after_help = "\
Examples:
  bpvm graph --project examples/windsor
  bpvm graph --project examples/windsor --all --format dot
  bpvm graph examples/bluelink/blueprint.yaml")]
    Graph {
        /// A Bluelink blueprint; without it, the Windsor project's context.
        #[arg(value_name = "BLUEPRINT")]
        blueprint: Option<PathBuf>,
        #[command(flatten)]
        windsor: WindsorTarget,
        /// The drawing's format.
        #[arg(long, value_enum, default_value = "mermaid")]
        format: graph::Drawing,
        /// Also draw, dimmed, the components and flux systems a `when` kept out.
        #[arg(long, conflicts_with = "blueprint", help_heading = "Windsor options")]
        all: bool,
    },
    /// Print the completion script of a shell.
    #[command(after_help = "\
Examples:
  source <(bpvm completions bash)
  bpvm completions zsh > _bpvm
  bpvm completions fish > bpvm.fish
  bpvm completions powershell > bpvm.ps1")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff), or write one per command to a folder.
    #[command(after_help = "\
Examples:
  bpvm man > bpvm.1
  bpvm man --out man/man1")]
    Man {
        /// Write bpvm.1 and bpvm-<command>.1 into DIR instead.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum BatchAction {
    /// Combine the JSON reports of a batch's shards into one report.
    ///
    /// Each target must be in one report only, and when the reports name
    /// their shards, every shard of the batch must be there.
    #[command(after_help = "\
Examples:
  bpvm batch examples --shard 1/2 --report shard-1.json
  bpvm batch examples --shard 2/2 --report shard-2.json
  bpvm batch merge-reports shard-1.json shard-2.json --report-format junit --out junit.xml")]
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
