//! `bpvm explain PATH` of a Windsor project's context: every contribution
//! to the value, in fold order, and where each value read came from. A
//! render that fails is traced as far as it got, its failure a warning
//! (exit 0, as Windsor's `explain`; an error with --strict).

use super::value::{heading, reads, shown};
use crate::args::WindsorTarget;
use crate::{load, paint};
use bpvm::windsor::explain::{Contribution, Explanation, Failure, Origins, Role, explain_context_with};
use std::fmt::Write;

/// Renders the target's context and explains the value at `path`.
pub fn explain(path: &str, target: &WindsorTarget, secrets: bpvm::windsor::Secrets) -> Result<(), String> {
    let project = load::windsor::project(&target.project, target.rules)?;
    load::windsor::warn(&project.warnings, target.strict)?;
    let name = load::windsor::context(&project, target.context.as_deref())?.name;
    load::windsor::warn(&bpvm::windsor::validate::context(&project, &name), target.strict)?;
    let traced = explain_context_with(&project, &name, path, secrets)?;
    let mut out = heading(&traced.explanation.path, traced.explanation.value.as_ref());
    if let Some(f) = &traced.failure {
        failure(&mut out, f);
    }
    text(&mut out, &traced.explanation);
    anstream::print!("{}", paint::marked(&paint::escaped(&out)));
    let Some(f) = &traced.failure else {
        return Ok(());
    };
    // The trace on stdout says that the render failed and where it stops.
    let (severity, tail) = match target.strict {
        true => ("error", " (an error by --strict)"),
        false => ("warning", ""),
    };
    let lines: Vec<String> = f.errors.0.iter().map(|e| e.printed(severity, tail)).collect();
    let said = paint::safe(&lines.join("\n"));
    if target.strict {
        return Err(said);
    }
    eprintln!("{said}");
    Ok(())
}

/// The failed render's lines: that the trace stops there, and each
/// `requires` not met with where it is written and why it applied.
fn failure(out: &mut String, f: &Failure) {
    out.push_str("  ! the render failed; this is the trace as far as it got (the failure is on stderr)\n");
    for fired in &f.unmet {
        let u = &fired.unmet;
        let why = u.when.as_ref().map_or(String::new(), |w| format!(", as `{w}` holds"));
        let place = fired
            .at
            .map_or(format!("{} {}", u.file, u.at), |(l, c)| format!("{}:{l}:{c}", u.file));
        let _ = writeln!(
            out,
            "  ! requires: facet {} ({place}) needs {}, which is not set{why}",
            u.facet, u.path
        );
        for line in u.message.lines().filter(|l| !l.trim().is_empty()) {
            let _ = writeln!(out, "      {line}");
        }
    }
}

/// The explanation as the command prints it, after its heading.
fn text(out: &mut String, why: &Explanation) {
    for (path, origin) in &why.origin {
        if *path == why.path {
            let _ = writeln!(out, "  from {origin}");
        } else {
            let _ = writeln!(out, "  {path} from {origin}");
        }
    }
    if why.contributions.is_empty() && why.origin.is_empty() {
        out.push_str(if why.path.starts_with("configMaps.") {
            "  no facet sets it: Windsor does, from the context (its values files' substitutions.common, \
             or a variable it always sets: CONTEXT, DOMAIN, LOADBALANCER_IP_*, …)\n"
        } else if why.scoped {
            "  the schema declares it; nothing sets it\n"
        } else {
            "  no facet sets it: it comes from the context's values\n"
        });
    }
    for c in &why.contributions {
        contribution(out, c, &why.origins);
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
}

fn contribution(out: &mut String, c: &Contribution, origins: &Origins) {
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
    reads(out, &c.reads, &|p| origins.of(p).map(ToString::to_string));
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
