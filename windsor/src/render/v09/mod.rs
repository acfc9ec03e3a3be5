//! One render by the Windsor v0.9 rules (W10): facets included in rounds
//! (a facet's condition may read what other facets' config blocks set,
//! `rounds`, `blocks`), their contributions collected and folded by
//! ordinal and strategy (`collect`, `contributions`), written into the
//! template's blueprint (`apply`), the context's blueprint overlaid
//! (`overlay`), empty values pruned (`prune`), the dependency barriers
//! applied (`barriers`) and the ConfigMaps made (`configmaps`).
//!
//! Imports the shared `render::outcome`, `render::part` and `render::origin`, `output`, and
//! the rooms before `render`; never `seed`.

pub(crate) mod apply;
pub(crate) mod barriers;
pub(crate) mod blocks;
pub(crate) mod collect;
pub(crate) mod configmaps;
pub(crate) mod contributions;
pub(crate) mod overlay;
pub(crate) mod prune;
pub(crate) mod rounds;

use crate::error::{Error, Errors};
use crate::kind::Kind;
use crate::load::facet::Message;
use crate::load::project::{Project, read_yaml};
use crate::render::outcome::{Excluded, Options, Rendered, Settled};
use crate::render::output::composed;
use crate::render::part::evaluator;
use crate::template::tmpl::{Evaluator, Outcome};
use apply::Systems;
use barriers::Composed;
use bpvm_runtime::{Map, Value, text};
use collect::collect;
use overlay::overlay;

/// Renders context `name` by the v0.9 rules. `ctx` holds the context
/// values; `opts.operator` the values the operator set, which win over
/// facet config (all of `ctx` when not given).
pub fn render(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    let (ctx, set, mut ev) = start(project, ctx, opts);
    let mut explain = Vec::new();
    let included = rounds::rounds(&mut ev, project, &ctx, &set, &mut explain)?;
    let took_part = included.took_part;
    ev.set_scope(Value::Map(included.scope));
    let mut excluded: Vec<Excluded> = project
        .facets
        .iter()
        .filter(|f| !included.facets.iter().any(|i| std::ptr::eq(*i, *f)))
        .filter_map(|f| f.when.as_ref().map(|c| Excluded::all_of(f, &c.src)))
        .flatten()
        .collect();
    let collected = collect(&mut ev, project, &included.facets, &mut excluded, &mut explain)?;
    let base_parts = apply::base_parts(&mut ev, project)?;

    let base = project.blueprint.as_map().cloned().unwrap_or_default();
    let mut lists = [
        apply::components(Kind::Terraform, &base_parts, collected.terraform),
        apply::components(Kind::Kustomize, &base_parts, collected.kustomize),
    ];
    let mut systems = Systems::of(&base, collected.flux);
    let user_rel = format!("contexts/{name}/blueprint.yaml");
    let user = read_yaml(&project.root, &user_rel)?.and_then(|v| v.as_map().cloned());
    if let Some(user) = &user {
        overlay(user, &mut lists, &mut systems);
    }
    let mut substitutions = collected.substitutions;
    let [mut terraform, mut kustomize] = lists;
    for (_, c) in terraform.iter_mut().chain(kustomize.iter_mut()) {
        // The local template is where they come from anyway.
        if c.get("source").and_then(Value::as_str) == Some("template") {
            c.remove("source");
        }
    }
    prune::prune(&mut terraform, &mut kustomize, &mut substitutions);

    let left_out = project
        .facets
        .iter()
        .filter(|f| !included.facets.iter().any(|g| g.name == f.name));
    let mut bp = Composed {
        terraform,
        kustomize,
        flux: systems.list,
        crds: collected.crds,
        excluded: left_out.map(rounds::excluded).collect(),
    };
    barriers(&mut bp, collected.backend.as_deref()).map_err(|mut errors| {
        crate::render::origin::place(&mut errors.0, &included.facets, project, name);
        errors
    })?;

    let defaults = project.schema_defaults();
    let config_maps = configmaps::config_maps(&base, &set, defaults, name, &substitutions, &mut bp.kustomize);
    let messages = show(&mut ev, &collected.messages)?;
    let mut blueprint = composed(
        name,
        &base,
        user.as_ref(),
        collected.backend,
        bp,
        substitutions,
        config_maps,
    );
    if !messages.is_empty()
        && let Value::Map(m) = &mut blueprint
    {
        m.insert("messages", Value::List(messages));
    }
    let asked = ev.host.asked.take();
    Ok(Rendered {
        blueprint,
        explain,
        asked,
        excluded,
        included: project.indices(&included.facets),
        took_part: project.indices(&took_part),
        scope: ev.take_shown_scope(),
        secrecy: ev.secrecy.clone(),
    })
}

/// The context with Windsor's derived values, the values the operator
/// set, and an evaluator over the context: where a render starts.
fn start(project: &Project, ctx: Value, opts: &Options) -> (Map, Map, Evaluator) {
    let mut ctx = ctx.as_map().cloned().unwrap_or_default();
    crate::context::resolve::derive(&mut ctx);
    let set = match &opts.operator {
        Some(v) => v.as_map().cloned().unwrap_or_default(),
        None => ctx.clone(),
    };
    let ev = evaluator(project, Value::Map(ctx.clone()), opts);
    (ctx, set, ev)
}

/// What the render decides before composing, without failing on an
/// unmet requirement: the facets included, the scope and what is unmet.
pub(crate) fn settled(project: &Project, ctx: Value, opts: &Options) -> Result<Settled, Errors> {
    let (ctx, set, mut ev) = start(project, ctx, opts);
    let included = rounds::settle(&mut ev, project, &ctx, &set, &mut Vec::new())?;
    let mut scope = included.scope;
    ev.secrecy.mask_values(&mut scope);
    Ok(Settled {
        included: project.indices(&included.facets),
        took_part: project.indices(&included.took_part),
        scope,
        unmet: included.unmet,
    })
}

/// The dependency barriers applied, then every dependency and the
/// `backend` checked against what was composed.
fn barriers(bp: &mut Composed, backend: Option<&str>) -> Result<(), Errors> {
    bp.crds.sort();
    bp.resolve_tiers();
    bp.crd_barrier();
    bp.global_barrier();
    let mut problems = bp.validate();
    if let Some(b) = backend
        && !bp.terraform.iter().any(|(id, _)| id == b)
    {
        problems.push(Error::new(
            None,
            "backend",
            format!(
                "backend names terraform component {b:?} but no component with that ID is declared. Set backend to the ID of an existing terraform component, or remove the backend field to opt out of the in-blueprint backend tier."
            ),
        ));
    }
    if !problems.is_empty() {
        return Err(Errors::new(problems));
    }
    Ok(())
}

/// The messages whose conditions give `true`, interpolated; empty and
/// repeated texts are left out (a deferred part stays as written).
fn show(ev: &mut Evaluator, messages: &[&Message]) -> Result<Vec<Value>, Errors> {
    let mut out: Vec<Value> = Vec::new();
    for m in messages {
        if let Some(c) = &m.when {
            match ev.run(&c.prog) {
                Ok(Value::Bool(true)) => {}
                Ok(_) | Err(Outcome::Deferred) => continue,
                Err(Outcome::Failed(d)) => {
                    return Err(Error::new(None, "messages", format!("message when {:?}: {d}", c.src)).into());
                }
            }
        }
        let text = match m.text.eval(ev) {
            Ok(Value::Null) => String::new(),
            Ok(Value::Str(s)) => s.to_string(),
            Ok(other) => text::to_text(&other),
            Err(e) => return Err(Error::new(None, format!("messages{}", e.at), e.diag).into()),
        };
        let mut entry = Map::new();
        entry.insert("text", Value::Str(text.as_str().into()));
        let entry = Value::Map(entry);
        if !text.is_empty() && !out.contains(&entry) {
            out.push(entry);
        }
    }
    Ok(out)
}
