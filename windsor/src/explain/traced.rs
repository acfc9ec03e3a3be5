//! `explain` of a context's value as `bpvm explain` asks it: the context
//! rendered from its files, where each value it read came from, and a
//! trace even when the render fails (as Windsor's `explain` traces and
//! warns), from what the render decided before it failed.

use super::blocks::credit_blocks;
use super::explain_in;
use super::explanation::Explanation;
use crate::context::scope::{Values, context, traced};
use crate::host::Host;
use crate::load::project::Project;
use crate::load::project::TEMPLATE;
use crate::render::outcome::{Options, Rendered};
use crate::render::{Unmet, render, settled};
use crate::template::condition::truth;
use crate::template::secrecy::{Secrecy, Secrets};
use crate::template::tmpl::Evaluator;
use crate::texts::Texts;
use bpvm_runtime::{Map, Value};

/// A render that failed, and what of it explain could still trace.
#[derive(Debug, Clone, PartialEq)]
pub struct Failure {
    /// The render's errors.
    pub errors: crate::error::Errors,
    /// The `requires` that were not met (v0.9 rules), in facet order.
    pub unmet: Vec<Fired>,
}

/// A `requires` that was not met, and where it is written.
#[derive(Debug, Clone, PartialEq)]
pub struct Fired {
    /// The requirement and the path it found unset.
    pub unmet: Unmet,
    /// Where the requirement is written in its facet's file (line,
    /// column from 1).
    pub at: Option<(usize, usize)>,
}

/// An explanation, and the render's failure when it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct Traced {
    /// The value explained.
    pub explanation: Explanation,
    /// Why the render failed; `None` when it did not.
    pub failure: Option<Failure>,
}

/// Renders context `name` of `project` from its files as `bpvm render`
/// does and explains `path`, with the origin of every value of the
/// scope. A render that fails is traced as far as it got: the facets it
/// included and the scope its config blocks left; the failure is given
/// beside the trace. An error is as a command prints it (`error: …`,
/// or `file:line:column: error: …`). Values computed from a sensitive
/// value show as `********` ([`explain_context_with`] shows them).
pub fn explain_context(project: &Project, name: &str, path: &str) -> Result<Traced, String> {
    explain_context_with(project, name, path, Secrets::Masked)
}

/// [`explain_context`], values computed from a sensitive value shown as
/// `secrets` says.
pub fn explain_context_with(project: &Project, name: &str, path: &str, secrets: Secrets) -> Result<Traced, String> {
    let (ctx, mut origins) = traced(project, name).map_err(|e| e.to_string())?;
    let values = context(project, name, Values::Files, true).map_err(|e| e.to_string())?;
    let operator = context(project, name, Values::Files, false).map_err(|e| e.to_string())?;
    let opts = Options {
        operator: Some(operator),
        secrets,
        ..Default::default()
    };
    let (rendered, failure) = match render(project, name, values.clone(), &opts) {
        Ok(r) => (r, None),
        Err(errors) => {
            let (rendered, unmet) = partial(project, values, &opts, &ctx);
            let mut texts = Texts::new(&project.root);
            let unmet = unmet
                .into_iter()
                .map(|u| Fired {
                    at: texts.locate(&u.file, &u.at),
                    unmet: Unmet {
                        file: texts.shown(&u.file),
                        ..u
                    },
                })
                .collect();
            let failure = Failure { errors, unmet };
            (rendered, Some(failure))
        }
    };
    credit_blocks(project, &rendered, &ctx, &mut origins);
    let mut explanation = explain_in(project, &rendered, path, failure.is_some()).map_err(|e| format!("error: {e}"))?;
    if explanation.scoped {
        explanation.origin = origins.under(path).map(|(p, o)| (p.to_string(), o.clone())).collect();
    }
    explanation.origins = origins;
    Ok(Traced { explanation, failure })
}

/// What a failed render decided before composing; when even that fails,
/// the context alone and no facet.
fn partial(project: &Project, values: Value, opts: &Options, ctx: &Map) -> (Rendered, Vec<Unmet>) {
    let (included, scope, unmet) = match settled(project, values, opts) {
        // A facet waiting for a requirement had its condition hold: its
        // contributions are traced as the render would compose them.
        Ok(s) => {
            let mut included = s.included;
            for u in &s.unmet {
                included.extend(project.facets.iter().position(|f| f.name == u.facet));
            }
            included.sort_unstable();
            included.dedup();
            (included, s.scope, s.unmet)
        }
        Err(_) => (holding(project, ctx), ctx.clone(), Vec::new()),
    };
    let secrecy = Secrecy::new(project.sensitive.paths(), opts.secrets);
    let mut scope = scope;
    secrecy.mask_values(&mut scope);
    let rendered = Rendered {
        blueprint: Value::Null,
        explain: Vec::new(),
        asked: Vec::new(),
        excluded: Vec::new(),
        took_part: included.clone(),
        included,
        scope,
        secrecy,
    };
    (rendered, unmet)
}

/// The facets whose conditions hold against the context alone (what a
/// render that could not evaluate its config blocks would include).
fn holding(project: &Project, ctx: &Map) -> Vec<usize> {
    let mut host = Host::new(project.root.clone(), project.root.dir().join(TEMPLATE), None);
    host.allow_env = project.allow_env.clone();
    let mut ev = Evaluator::new(Value::Map(ctx.clone()), host);
    let mut out = Vec::new();
    for (i, f) in project.facets.iter().enumerate() {
        if f.when.as_ref().is_none_or(|c| truth(&mut ev, c).unwrap_or(false)) {
            out.push(i);
        }
    }
    out
}
