//! One render by the seed rules: facets chosen by their conditions, config
//! blocks evaluated in dependency order, component contributions folded
//! by ordinal and strategy into the base blueprint, the context's own
//! blueprint overlaid, and the result ordered and checked.

pub(crate) mod config;
pub(crate) mod fold;

use crate::blueprint::component::{as_texts, identity, list_of};
use crate::blueprint::merge::{merge_component, overlay_substitutions};
use crate::blueprint::order;
use crate::error::{Error, Errors};
use crate::host::Host;
use crate::kind::Kind;
use crate::load::facet::Facet;
use crate::load::project::{Project, TEMPLATE, read_yaml};
use crate::render::outcome::{Excluded, Options, Rendered};
use crate::render::part::{decided, evaluate_part};
use crate::template::condition::truth;
use crate::template::tmpl::Evaluator;
use bpvm_runtime::Value;
use fold::{Contribution, fold};
use foldhash::HashMap;

/// Renders context `name` by the seed rules.
pub(crate) fn render(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    let facets_dir = project.root.dir().join(TEMPLATE).join("facets");
    let mut host = Host::new(project.root.clone(), facets_dir, opts.outputs.clone());
    host.environment = opts.environment.clone();
    host.paths = Some(project.paths.clone());
    let mut ev = Evaluator::new(ctx.clone(), host);
    let mut explain = Vec::new();
    let mut excluded = Vec::new();

    // Facets, by their conditions against the context.
    let mut included: Vec<&Facet> = Vec::new();
    for f in &project.facets {
        let yes = match &f.when {
            None => true,
            Some(c) => truth(&mut ev, c).map_err(|m| Error::new(Some(&f.file), "when", m))?,
        };
        let why = f
            .when
            .as_ref()
            .map_or("no condition".to_string(), |c| format!("`{}`", c.src));
        explain.push(format!(
            "facet {} ({}, ordinal {}): {} by {why}",
            f.name,
            f.file,
            f.ordinal,
            if yes { "included" } else { "skipped" }
        ));
        if yes {
            included.push(f);
        } else if let Some(c) = &f.when {
            excluded.extend(Excluded::all_of(f, &c.src));
        }
    }

    config::evaluate(&mut ev, &included)?;

    // Contributions, in facet order.
    let mut contributions: Vec<Contribution> = Vec::new();
    let mut errors = Vec::new();
    for f in &included {
        for p in &f.parts {
            let at = format!("{}[{}]", p.kind.key(), p.id);
            if let Some(c) = &p.when {
                let yes = truth(&mut ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}.when"), m))?;
                explain.push(decided(&at, &f.name, yes, c));
                if !yes {
                    excluded.push(Excluded::of(f, p.kind.key(), p.id.clone(), &c.src));
                    continue;
                }
            }
            ev.host.dir = project.folder_of(&f.file);
            match evaluate_part(&mut ev, &p.body, p.kind) {
                Ok(body) => contributions.push(Contribution {
                    kind: p.kind,
                    id: p.id.clone(),
                    ordinal: p.ordinal.unwrap_or(f.ordinal),
                    strategy: p.strategy,
                    body,
                }),
                Err((inner, message)) => errors.push(Error::new(Some(&f.file), format!("{at}{inner}"), message)),
            }
        }
    }
    if !errors.is_empty() {
        return Err(Errors::new(errors));
    }

    let base = project.blueprint.as_map().cloned().unwrap_or_default();
    let base_file = format!("{TEMPLATE}/blueprint.yaml");
    ev.host.dir = project.root.dir().join(TEMPLATE);
    let mut base_parts = Vec::new();
    for p in &project.base {
        match evaluate_part(&mut ev, &p.body, p.kind) {
            Ok(body) => base_parts.push((p.kind, p.id.clone(), body)),
            Err((inner, message)) => errors.push(Error::new(
                Some(&base_file),
                format!("{}[{}]{inner}", p.kind.key(), p.id),
                message,
            )),
        }
    }
    if !errors.is_empty() {
        return Err(Errors::new(errors));
    }
    let mut lists = [Vec::new(), Vec::new()];
    for (slot, kind) in [Kind::Terraform, Kind::Kustomize].into_iter().enumerate() {
        lists[slot] = fold(kind, &base_parts, &contributions);
    }
    // Where each component is in its list.
    let mut at: [HashMap<String, usize>; 2] = Default::default();
    for (slot, list) in lists.iter().enumerate() {
        for (i, (id, _)) in list.iter().enumerate() {
            at[slot].entry(id.clone()).or_insert(i);
        }
    }

    // The context's own blueprint.yaml overlays the result.
    let user_rel = format!("contexts/{name}/blueprint.yaml");
    let user = read_yaml(&project.root, &user_rel)?.and_then(|v| v.as_map().cloned());
    if let Some(user) = &user {
        for (slot, kind) in [Kind::Terraform, Kind::Kustomize].into_iter().enumerate() {
            for c in list_of(user, kind.key()) {
                let Some(id) = identity(kind, &c) else { continue };
                match at[slot].get(&id) {
                    Some(&i) => merge_component(kind, &mut lists[slot][i].1, &c),
                    None => {
                        at[slot].insert(id.clone(), lists[slot].len());
                        lists[slot].push((id, c));
                    }
                }
            }
        }
    }

    // values.yaml `substitutions.<kustomization>` win over the facets'.
    let mut config_maps = base
        .get("configMaps")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    if let Some(subs) = ctx
        .as_map()
        .and_then(|m| m.get("substitutions"))
        .and_then(Value::as_map)
    {
        for (target, values) in subs.iter() {
            let Some(values) = values.as_map() else { continue };
            let texts = as_texts(values);
            config_maps.insert(
                format!("values-{}", target.as_str()).as_str(),
                Value::Map(texts.clone()),
            );
            if let Some(&i) = at[1].get(target.as_str()) {
                overlay_substitutions(&mut lists[1][i].1, &texts);
            }
        }
    }

    let [terraform, kustomize] = lists;
    // Checked in contribution order, so a cycle is named from where it starts.
    let mut problems = order::check("terraform", &terraform);
    problems.extend(order::check("kustomize", &kustomize));
    if !problems.is_empty() {
        return Err(Errors::new(problems));
    }
    let terraform = order::topological(terraform);
    let kustomize = order::kustomize(kustomize);
    let blueprint = crate::render::output::blueprint(name, &base, user.as_ref(), terraform, kustomize, config_maps);
    let asked = ev.host.asked.take();
    Ok(Rendered {
        blueprint,
        explain,
        asked,
        excluded,
        included: project.indices(&included),
        scope: ev.take_scope(),
    })
}
