//! One render by the seed rules: facets chosen by their conditions, config
//! blocks evaluated in dependency order, component contributions folded
//! by ordinal and strategy into the base blueprint, the context's own
//! blueprint overlaid, and the result ordered and checked.
//!
//! Imports the shared `render::outcome`, `render::part` and `render::origin`, `output`, and
//! the rooms before `render`; never `v09`.

pub(crate) mod config;
pub(crate) mod fold;

use crate::blueprint::component::{as_texts, identity, list_of};
use crate::blueprint::merge::{merge_component, overlay_substitutions};
use crate::blueprint::order;
use crate::error::{Error, Errors};
use crate::kind::Kind;
use crate::load::facet::Facet;
use crate::load::project::{Project, TEMPLATE, read_yaml};
use crate::render::outcome::{Excluded, Options, Rendered, Settled};
use crate::render::part::{decided, evaluate_part, evaluator};
use crate::template::condition::truth;
use crate::template::tmpl::Evaluator;
use bpvm_runtime::{Map, Value};
use fold::{Contribution, fold};
use foldhash::HashMap;

/// Renders context `name` by the seed rules.
pub(crate) fn render(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    let mut ev = evaluator(project, ctx.clone(), opts);
    let mut explain = Vec::new();
    let mut excluded = Vec::new();

    let included = include(&mut ev, project, &mut explain, &mut excluded)?;
    config::evaluate(&mut ev, &included)?;
    let contributions = contributions(&mut ev, project, &included, &mut explain, &mut excluded)?;
    let base = project.blueprint.as_map().cloned().unwrap_or_default();
    let base_parts = base_parts(&mut ev, project)?;
    let mut lists = Lists {
        lists: [
            fold(Kind::Terraform, &base_parts, &contributions),
            fold(Kind::Kustomize, &base_parts, &contributions),
        ],
        at: Default::default(),
    };
    lists.index();

    // The context's own blueprint.yaml overlays the result.
    let user_rel = format!("contexts/{name}/blueprint.yaml");
    let user = read_yaml(&project.root, &user_rel)?.and_then(|v| v.as_map().cloned());
    if let Some(user) = &user {
        lists.overlay(user);
    }
    let config_maps = lists.substitutions(&base, &ctx);

    let [terraform, kustomize] = lists.lists;
    // Checked in contribution order, so a cycle is named from where it starts.
    let mut problems = order::check("terraform", &terraform);
    problems.extend(order::check("kustomize", &kustomize));
    if !problems.is_empty() {
        crate::render::origin::place(&mut problems, &included, project, name);
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
        took_part: project.indices(&included),
        scope: ev.take_shown_scope(),
        secrecy: ev.secrecy.clone(),
    })
}

/// What the render decides before composing: the facets included and the
/// scope with their config blocks evaluated.
pub(crate) fn settled(project: &Project, ctx: Value, opts: &Options) -> Result<Settled, Errors> {
    let mut ev = evaluator(project, ctx, opts);
    let included = include(&mut ev, project, &mut Vec::new(), &mut Vec::new())?;
    config::evaluate(&mut ev, &included)?;
    Ok(Settled {
        included: project.indices(&included),
        took_part: project.indices(&included),
        scope: ev.take_shown_scope(),
        unmet: Vec::new(),
    })
}

/// The facets whose conditions hold against the context, in order; each
/// decision said in `explain`, what is left out in `excluded`.
fn include<'p>(
    ev: &mut Evaluator,
    project: &'p Project,
    explain: &mut Vec<String>,
    excluded: &mut Vec<Excluded>,
) -> Result<Vec<&'p Facet>, Error> {
    let mut included = Vec::new();
    for f in &project.facets {
        let yes = match &f.when {
            None => true,
            Some(c) => truth(ev, c).map_err(|m| Error::new(Some(&f.file), "when", m))?,
        };
        let why = f
            .when
            .as_ref()
            .map_or("no condition".to_string(), |c| format!("`{}`", c.src));
        explain.push(format!(
            "facet {} ({}, ordinal {}): {} by {why}",
            f.name,
            project.root.shown(&f.file),
            f.ordinal,
            if yes { "included" } else { "skipped" }
        ));
        if yes {
            included.push(f);
        } else if let Some(c) = &f.when {
            excluded.extend(Excluded::all_of(f, &c.src));
        }
    }
    Ok(included)
}

/// The included facets' components, in facet order, each that its own
/// condition lets through evaluated into a contribution.
fn contributions(
    ev: &mut Evaluator,
    project: &Project,
    included: &[&Facet],
    explain: &mut Vec<String>,
    excluded: &mut Vec<Excluded>,
) -> Result<Vec<Contribution>, Errors> {
    let mut contributions = Vec::new();
    let mut errors = Vec::new();
    for f in included {
        for p in &f.parts {
            let at = format!("{}[{}]", p.kind.key(), p.id);
            if let Some(c) = &p.when {
                let yes = truth(ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}.when"), m))?;
                explain.push(decided(&at, &f.name, yes, c));
                if !yes {
                    excluded.push(Excluded::of(f, p.kind.key(), p.id.clone(), &c.src));
                    continue;
                }
            }
            ev.host.dir = project.folder_of(&f.file);
            match evaluate_part(ev, &p.body, p.kind) {
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
    Ok(contributions)
}

/// The template's blueprint.yaml's own components, evaluated.
fn base_parts(ev: &mut Evaluator, project: &Project) -> Result<Vec<(Kind, String, Map)>, Errors> {
    let base_file = format!("{TEMPLATE}/blueprint.yaml");
    ev.host.dir = project.root.dir().join(TEMPLATE);
    let mut parts = Vec::new();
    let mut errors = Vec::new();
    for p in &project.base {
        match evaluate_part(ev, &p.body, p.kind) {
            Ok(body) => parts.push((p.kind, p.id.clone(), body)),
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
    Ok(parts)
}

/// The folded terraform and kustomize lists, and where each component is
/// in its list.
struct Lists {
    lists: [Vec<(String, Map)>; 2],
    at: [HashMap<String, usize>; 2],
}

impl Lists {
    fn index(&mut self) {
        for (slot, list) in self.lists.iter().enumerate() {
            for (i, (id, _)) in list.iter().enumerate() {
                self.at[slot].entry(id.clone()).or_insert(i);
            }
        }
    }

    /// The context's blueprint.yaml: a component of the same identity
    /// merged, any other added.
    fn overlay(&mut self, user: &Map) {
        for (slot, kind) in [Kind::Terraform, Kind::Kustomize].into_iter().enumerate() {
            for c in list_of(user, kind.key()) {
                let Some(id) = identity(kind, &c) else { continue };
                match self.at[slot].get(&id) {
                    Some(&i) => merge_component(kind, &mut self.lists[slot][i].1, &c),
                    None => {
                        self.at[slot].insert(id.clone(), self.lists[slot].len());
                        self.lists[slot].push((id, c));
                    }
                }
            }
        }
    }

    /// The base's ConfigMaps, with values.yaml `substitutions.<name>`
    /// added as `values-<name>`; those win over the facets' substitutions
    /// of kustomization `<name>`.
    fn substitutions(&mut self, base: &Map, ctx: &Value) -> Map {
        let mut config_maps = base
            .get("configMaps")
            .and_then(Value::as_map)
            .cloned()
            .unwrap_or_default();
        let subs = ctx
            .as_map()
            .and_then(|m| m.get("substitutions"))
            .and_then(Value::as_map);
        for (target, values) in subs.into_iter().flat_map(|s| s.iter()) {
            let Some(values) = values.as_map() else { continue };
            let texts = as_texts(values);
            config_maps.insert(
                format!("values-{}", target.as_str()).as_str(),
                Value::Map(texts.clone()),
            );
            if let Some(&i) = self.at[1].get(target.as_str()) {
                overlay_substitutions(&mut self.lists[1][i].1, &texts);
            }
        }
        config_maps
    }
}
