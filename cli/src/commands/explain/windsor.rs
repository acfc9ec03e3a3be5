//! `bpvm explain PATH` of a Windsor project's context: every contribution
//! to the value, in fold order.

use super::value::{heading, reads, shown};
use crate::args::WindsorTarget;
use crate::{load, paint};
use bpvm::windsor::explain::{Contribution, Explanation, Role};
use bpvm::windsor::render::render_files;
use std::fmt::Write;

/// Renders the target's context and explains the value at `path`.
pub fn explain(path: &str, target: &WindsorTarget) -> Result<(), String> {
    let project = load::windsor::project(&target.project, target.rules)?;
    load::windsor::warn(&project.warnings, target.strict)?;
    let name = load::windsor::context(&project, target.context.as_deref())?.name;
    load::windsor::warn(&bpvm::windsor::validate::context(&project, &name), target.strict)?;
    let rendered = render_files(&project, &name, true, None).map_err(|e| format!("error: {e}"))?;
    let why = bpvm::windsor::explain::explain(&project, &rendered, path).map_err(|e| format!("error: {e}"))?;
    anstream::print!("{}", paint::marked(&paint::escaped(&text(&why))));
    Ok(())
}

/// The explanation as the command prints it.
fn text(why: &Explanation) -> String {
    let mut out = heading(&why.path, why.value.as_ref());
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
        Role::Effective => (paint::PASSED.to_string(), ""),
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
