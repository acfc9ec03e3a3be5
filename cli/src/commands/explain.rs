//! `bpvm explain PATH`: where a value of the rendered blueprint came from.

use crate::args::{BluelinkFlags, NEEDS_BLUEPRINT, WindsorTarget};
use crate::{exit, load};
use bpvm::Value;
use bpvm::bluelink::explain as bluelink_explain;
use bpvm::windsor::explain::{Contribution, Explanation, Found, Read, Role, explain};
use bpvm::windsor::render::render_files;
use std::fmt::Write;
use std::path::{Path, PathBuf};
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
/// configMaps.values-common.<key>, or a config block's <name>.<key>.
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
        Some(blueprint) => exit::code(bluelink(&args.path, blueprint, &args.bluelink)),
        None if args.bluelink.any() => exit::usage(NEEDS_BLUEPRINT),
        None => exit::code(windsor(&args.path, &args.windsor)),
    }
}

/// `bpvm explain PATH` of a Windsor project's context.
fn windsor(path: &str, target: &WindsorTarget) -> Result<(), String> {
    let project = load::windsor::project(&target.project, target.rules)?;
    let name = load::windsor::context(&project, target.context.as_deref())?.name;
    let rendered = render_files(&project, &name, true, None).map_err(|e| format!("error: {e}"))?;
    let why = explain(&project, &rendered, path).map_err(|e| format!("error: {e}"))?;
    anstream::print!("{}", text(&why));
    Ok(())
}

/// A value on one line, cut at 80 characters; text still holding `${…}`
/// is marked deferred, nothing at all empty.
fn shown(v: &Value) -> String {
    match v {
        Value::Str(s) if s.contains("${") => return format!("(deferred) {}", cut(v.to_json())),
        Value::Null => return "(empty)".to_string(),
        Value::Str(s) if s.is_empty() => return "(empty) \"\"".to_string(),
        _ => {}
    }
    cut(v.to_json())
}

fn cut(json: String) -> String {
    match json.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &json[..i]),
        None => json,
    }
}

/// The explanation as the command prints it.
fn text(why: &Explanation) -> String {
    let mut out = match &why.value {
        Some(v) => format!("{} = {}\n", why.path, shown(v)),
        None => format!("{} (not set)\n", why.path),
    };
    if why.contributions.is_empty() {
        out.push_str(if why.path.starts_with("configMaps.") {
            "  no facet sets it: Windsor does, from the context (its values files' substitutions.common, \
             or a variable it always sets: CONTEXT, DOMAIN, LOADBALANCER_IP_*, …)\n"
        } else {
            "  no facet sets it: it comes from the context's values\n"
        });
    }
    for c in &why.contributions {
        contribution(&mut out, c);
    }
    if !why.added.is_empty() {
        let items: Vec<String> = why.added.iter().map(shown).collect();
        let _ = writeln!(
            out,
            "  + {}: added by Windsor after composing (a bare system name becomes its install tier, \
             systems without dependencies wait for the CRD layer, everything waits for global-dependency systems)",
            items.join(", ")
        );
    }
    out
}

fn contribution(out: &mut String, c: &Contribution) {
    let (mark, role) = match c.role {
        Role::Effective => (crate::paint::mark(true), ""),
        Role::Overridden => ("↷".to_string(), "overridden: "),
        Role::Excluded => ("–".to_string(), "excluded: "),
    };
    let who = c
        .facet
        .as_ref()
        .map_or("the base blueprint".to_string(), |f| format!("facet {f}"));
    let place = c.at.map_or(c.file.clone(), |(l, col)| format!("{}:{l}:{col}", c.file));
    let ordinal = c.ordinal.map_or(String::new(), |o| format!(", ordinal {o}"));
    let _ = writeln!(out, "  {mark} {role}{who} ({place}{ordinal}, {})", c.strategy);
    for (when, held) in &c.conditions {
        let _ = writeln!(out, "      when `{when}`: {held}");
    }
    if let Some(e) = &c.expression {
        let _ = writeln!(out, "      {e}");
    }
    reads(out, &c.reads);
    match (&c.value, &c.error) {
        (_, Some(e)) => {
            let _ = writeln!(out, "      fails: {e}");
        }
        (Some(v), None) => {
            let _ = writeln!(out, "      gives {}", shown(v));
        }
        (None, None) => {
            let _ = writeln!(out, "      removes it");
        }
    }
}

/// What an expression read, a line each.
fn reads(out: &mut String, reads: &[Read]) {
    for r in reads {
        let what = match &r.found {
            Found::Set(v) => format!("= {}", shown(v)),
            Found::Empty => "(empty)".to_string(),
            Found::Deferred(t) => format!("(deferred: {t})"),
            Found::NotSet => "(not set)".to_string(),
        };
        let _ = writeln!(out, "        reads {} {what}", r.path);
    }
}

/// `bpvm explain PATH BLUEPRINT`.
fn bluelink(path: &str, blueprint: &Path, flags: &BluelinkFlags) -> Result<(), String> {
    let bp = load::bluelink::blueprint(blueprint)?;
    let opts = load::bluelink::options(flags, &bp)?;
    let rendered = bpvm::bluelink::render::render(&bp, &opts).map_err(|e| format!("{e}"))?;
    let why = bluelink_explain::explain(&bp, &rendered, path).map_err(|e| format!("error: {e}"))?;
    let mut out = match &why.value {
        Some(v) => format!("{} = {}\n", why.path, shown(v)),
        None => format!("{} (not set)\n", why.path),
    };
    if why.written.is_empty() {
        out.push_str("  written as is: no substitution\n");
    }
    for w in &why.written {
        let _ = writeln!(out, "  {} ({}:{}:{})", w.path, w.file, w.at.line, w.at.col);
        let _ = writeln!(out, "      {}", w.text);
        reads(&mut out, &w.reads);
    }
    anstream::print!("{out}");
    Ok(())
}
