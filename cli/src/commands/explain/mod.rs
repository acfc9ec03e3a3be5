//! `bpvm explain PATH`: where a value of the rendered blueprint came from.
//!
//! `windsor` and `bluelink` explain a value of each language, both
//! writing values and reads as `value` does. None imports this file; they
//! may import the crate's shared modules (`args`, `load`, `paint`).

mod bluelink;
mod value;
mod windsor;

use crate::args::{BluelinkFlags, NEEDS_BLUEPRINT, WindsorTarget};
use crate::{exit, load};
use std::path::PathBuf;
use std::process::ExitCode;

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
/// configMaps.values-common.<key>, a config block's <name>.<key>, or
/// any value of the context (gitops.mode, cluster.workers.count), which
/// is explained from where it is set. Every value an expression read
/// says where it came from: a values file's line:column, a schema
/// default, windsor.yaml, a config block, or the rule that derived it
/// (`bpvm values` lists them all). A path that names nothing is an error
/// naming the closest one. When the render fails (a `requires` not met,
/// an expression that fails), the trace is printed as far as the render
/// got, with each `requires` that fired, and the failure is a warning on
/// stderr: the exit status is 0, as Windsor's `explain`, and 1 with
/// --strict.
///
/// Bluelink (with BLUEPRINT): the blueprint is rendered with the given
/// flags, and the substitutions written at PATH or under it are listed
/// with their line:column and what each path they read held (the
/// variables, values, data source fields, resources and child exports
/// as rendered). PATH is resources.<name>.spec.<field> (<name>[i] for
/// an item of `each`), values.<name>, exports.<name>, or any other path
/// of the blueprint.
#[derive(clap::Args)]
#[command(after_help = "\
Examples:
  bpvm explain --project examples/windsor terraform.cluster.inputs.endpoint
  bpvm explain --project examples/windsor kustomize.ingress.components
  bpvm explain --project examples/windsor cluster_config.cluster_name
  bpvm explain --project examples/windsor cluster.workers.count
  bpvm explain resources.saveOrderFunction.spec.functionName examples/bluelink/blueprint.yaml \\
      --vars examples/bluelink/blueprint.vars.yaml")]
pub struct Args {
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
}

pub fn run(args: Args) -> ExitCode {
    match &args.blueprint {
        Some(blueprint) => exit::code(bluelink::explain(&args.path, blueprint, &args.bluelink)),
        None if args.bluelink.any() => exit::usage(NEEDS_BLUEPRINT),
        None => exit::code(load::windsor::at_now(args.bluelink.now.as_deref(), || {
            windsor::explain(
                &args.path,
                &args.windsor,
                load::windsor::secrets(args.bluelink.show_secrets),
            )
        })),
    }
}
