//! One render by the Windsor v0.9 rules (W10): facets included in rounds
//! (a facet's condition may read what other facets' config blocks set),
//! their requirements checked, config blocks merged as written and
//! evaluated, then components and flux systems emitted, folded by
//! ordinal and strategy, and the dependency barriers applied.

pub(crate) mod barriers;
pub(crate) mod blocks;
pub(crate) mod configmaps;
pub(crate) mod contributions;
pub(crate) mod prune;
pub(crate) mod rounds;

use crate::blueprint::component::{identity, list_of, string_list};
use crate::blueprint::merge::merge_component;
use crate::error::{Error, Errors};
use crate::host::Host;
use crate::kind::{Kind, Strategy};
use crate::load::facet::Facet;
use crate::load::project::{Project, TEMPLATE, read_yaml};
use crate::render::outcome::{Excluded, Options, Rendered};
use crate::render::v09::contributions::{Entries, Entry, Sorted, fold};
use crate::template::condition::{Cond, holds};
use crate::template::tmpl::{Evaluator, Outcome};
use bpvm_runtime::{Map, Value, text};
use foldhash::HashMap;

/// The source name of the project's own template.
const TEMPLATE_SOURCE: &str = "template";

/// Renders context `name` by the v0.9 rules. `ctx` holds the context
/// values; `opts.operator` the values the operator set, which win over
/// facet config (all of `ctx` when not given).
pub fn render(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    let mut ctx = ctx.as_map().cloned().unwrap_or_default();
    crate::context::resolve::derive(&mut ctx);
    let set = match &opts.operator {
        Some(v) => v.as_map().cloned().unwrap_or_default(),
        None => ctx.clone(),
    };
    let facets_dir = project.root.dir().join(TEMPLATE).join("facets");
    let mut host = Host::new(project.root.clone(), facets_dir, opts.outputs.clone());
    host.environment = opts.environment.clone();
    host.paths = Some(project.paths.clone());
    let mut ev = Evaluator::new(Value::Map(ctx.clone()), host);
    let mut explain = Vec::new();
    let included = crate::render::v09::rounds::rounds(&mut ev, project, &ctx, &set, &mut explain)?;
    ev.set_scope(Value::Map(included.scope));
    let mut excluded: Vec<Excluded> = project
        .facets
        .iter()
        .filter(|f| !included.facets.iter().any(|i| std::ptr::eq(*i, *f)))
        .filter_map(|f| f.when.as_ref().map(|c| Excluded::all_of(f, &c.src)))
        .flatten()
        .collect();

    let mut terraform = Entries::default();
    let mut kustomize = Entries::default();
    let mut flux = Entries::default();
    let mut crds: Vec<String> = Vec::new();
    let mut backend: Option<String> = None;
    let mut substitutions = Map::new();
    let mut messages: Vec<&crate::load::facet::Message> = Vec::new();
    let mut errors = Vec::new();
    let merge_tf = |a: &mut Map, b: &Map| merge_component(Kind::Terraform, a, b);
    let merge_k = |a: &mut Map, b: &Map| merge_component(Kind::Kustomize, a, b);
    for f in &included.facets {
        ev.host.dir = project.folder_of(&f.file);
        let fail = |at: String, m: String| Error::new(Some(&f.file), at, m);
        if let Some(t) = &f.crds {
            match t.eval(&mut ev) {
                Ok(v) => {
                    for r in string_list(&v) {
                        let r = r.as_str().unwrap_or("").to_string();
                        if r.contains(['/', '\\']) || r.contains("..") {
                            errors.push(fail(
                                "crds".into(),
                                format!(
                                    "invalid crd reference {r:?}: must be a single path segment without '/', '\\', or '..'"
                                ),
                            ));
                        } else if !crds.contains(&r) {
                            crds.push(r);
                        }
                    }
                }
                Err(e) => errors.push(fail(format!("crds{}", e.at), e.diag.to_string())),
            }
        }
        for p in &f.parts {
            let at = format!("{}[{}]", p.kind.key(), p.id);
            match gate(&mut ev, p.when.as_ref(), f, &at, &mut explain) {
                Ok(true) => {}
                Ok(false) => {
                    excluded.push(Excluded::of(
                        f,
                        p.kind.key(),
                        p.id.clone(),
                        &condition(p.when.as_ref(), f),
                    ));
                    continue;
                }
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            }
            if let crate::template::tmpl::Tmpl::Map(fields) = &p.body
                && let Some((_, subs)) = fields.iter().find(|(k, _)| &**k == "substitutions")
                && let Err(m) = project.sensitive.check(subs)
            {
                errors.push(fail(at, m));
                continue;
            }
            match part(&mut ev, p) {
                Ok(body) => {
                    let entry = Entry {
                        body,
                        ordinal: p.ordinal.unwrap_or(f.ordinal),
                        strategy: p.strategy,
                    };
                    match p.kind {
                        Kind::Terraform => fold(&mut terraform, &p.id, entry, &merge_tf),
                        Kind::Kustomize => fold(&mut kustomize, &p.id, entry, &merge_k),
                    }
                }
                Err((inner, m)) => errors.push(fail(format!("{at}{inner}"), m)),
            }
        }
        for s in &f.flux {
            match gate(&mut ev, s.when.as_ref(), f, &format!("flux[{}]", s.name), &mut explain) {
                Ok(true) => {}
                Ok(false) => {
                    excluded.push(Excluded::of(f, "flux", s.name.clone(), &condition(s.when.as_ref(), f)));
                    continue;
                }
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            }
            let tiers = s.install.iter().chain(&s.resources);
            if let Some(m) = tiers
                .filter_map(|t| t.substitutions.as_ref())
                .find_map(|t| project.sensitive.check(t).err())
            {
                errors.push(fail(format!("flux[{}]", s.name), m));
                continue;
            }
            match crate::flux::evaluate(&mut ev, s, TEMPLATE_SOURCE) {
                Ok(body) => {
                    let entry = Entry {
                        body,
                        ordinal: s.ordinal.unwrap_or(f.ordinal),
                        strategy: s.strategy,
                    };
                    fold(&mut flux, &s.name, entry, &crate::flux::merge);
                }
                Err((at, m)) => errors.push(fail(at, m)),
            }
        }
        if let Some(b) = &f.backend {
            backend = Some(b.clone());
        }
        if let Some(t) = &f.substitutions {
            if let Err(m) = project.sensitive.check(t) {
                errors.push(fail("substitutions".into(), m));
                continue;
            }
            match t.eval(&mut ev) {
                Ok(Value::Map(m)) => {
                    for (k, v) in m.iter() {
                        substitutions.insert(k.clone(), Value::Str(text::to_text(v).into()));
                    }
                }
                Ok(_) => {}
                Err(e) => errors.push(fail(format!("substitutions{}", e.at), e.diag.to_string())),
            }
        }
        messages.extend(&f.messages);
    }
    if !errors.is_empty() {
        return Err(Errors::new(errors));
    }

    // The template's blueprint.yaml's own components, evaluated.
    ev.host.dir = project.root.dir().join(TEMPLATE);
    let mut base_parts = Vec::new();
    for p in &project.base {
        match part(&mut ev, p) {
            Ok(body) => base_parts.push((p.kind, p.id.clone(), body)),
            Err((inner, m)) => errors.push(Error::new(
                Some(&format!("{TEMPLATE}/blueprint.yaml")),
                format!("{}[{}]{inner}", p.kind.key(), p.id),
                m,
            )),
        }
    }
    if !errors.is_empty() {
        return Err(Errors::new(errors));
    }

    // The template's blueprint.yaml, then the collected entries written
    // into it: replacements, then merges, each list re-sorted by
    // dependencies after every insertion, as Windsor does.
    let base = project.blueprint.as_map().cloned().unwrap_or_default();
    let mut lists: [Vec<(String, Map)>; 2] = [Vec::new(), Vec::new()];
    for (slot, (kind, collected)) in [(Kind::Terraform, terraform.list), (Kind::Kustomize, kustomize.list)]
        .into_iter()
        .enumerate()
    {
        let list = &mut lists[slot];
        list.extend(
            base_parts
                .iter()
                .filter(|(k, ..)| *k == kind)
                .map(|(_, id, c)| (id.clone(), c.clone())),
        );
        let mut collected = collected;
        collected.sort_by(|a, b| a.0.cmp(&b.0));
        let mut sorted = Sorted::new(std::mem::take(list));
        for pass in [Strategy::Replace, Strategy::Merge] {
            for (id, e) in collected.iter().filter(|(_, e)| e.strategy == pass) {
                sorted.write(kind, id, &e.body, pass == Strategy::Merge);
            }
        }
        *list = sorted.list;
        let at: HashMap<&str, usize> = list.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect();
        let mut gone = Vec::new();
        for (id, e) in collected.iter().filter(|(_, e)| e.strategy == Strategy::Remove) {
            if let Some(&i) = at.get(id.as_str()) {
                gone.push((i, e));
            }
        }
        for (i, e) in gone {
            crate::blueprint::merge::remove_from(&mut list[i].1, &e.body);
        }
    }
    let mut systems: Vec<Map> = list_of(&base, "flux");
    let mut flux = flux.list;
    flux.sort_by(|a, b| a.0.cmp(&b.0));
    let mut system_at: HashMap<String, usize> = systems
        .iter()
        .enumerate()
        .map(|(i, s)| (s.get("name").and_then(Value::as_str).unwrap_or("").to_string(), i))
        .collect();
    let (removals, upserts): (Vec<_>, Vec<_>) = flux.into_iter().partition(|(_, e)| e.strategy == Strategy::Remove);
    for (id, e) in upserts {
        match system_at.get(&id) {
            Some(&i) => crate::flux::merge(&mut systems[i], &e.body),
            None => {
                system_at.insert(id, systems.len());
                systems.push(e.body);
            }
        }
    }
    // A removal that won its fold took the facets' contributions with it;
    // what it lists is removed from the template's blueprint.yaml system.
    for (id, e) in removals {
        if let Some(&i) = system_at.get(&id) {
            crate::flux::remove(&mut systems[i], &e.body);
        }
    }

    // The context's own blueprint.yaml overlays the result.
    let user_rel = format!("contexts/{name}/blueprint.yaml");
    let user = read_yaml(&project.root, &user_rel)?.and_then(|v| v.as_map().cloned());
    if let Some(user) = &user {
        for (slot, kind) in [Kind::Terraform, Kind::Kustomize].into_iter().enumerate() {
            for c in list_of(user, kind.key()) {
                let Some(id) = identity(kind, &c) else { continue };
                match lists[slot].iter_mut().find(|(i, _)| *i == id) {
                    Some((_, have)) => merge_component(kind, have, &c),
                    None => lists[slot].push((id, c)),
                }
            }
        }
        for s in list_of(user, "flux") {
            let id = s.get("name").and_then(Value::as_str).unwrap_or("").to_string();
            match system_at.get(&id) {
                Some(&i) => crate::flux::merge(&mut systems[i], &s),
                None => {
                    system_at.insert(id, systems.len());
                    systems.push(s);
                }
            }
        }
    }
    let [mut terraform, mut kustomize] = lists;
    for (_, c) in terraform.iter_mut().chain(kustomize.iter_mut()) {
        // The local template is where they come from anyway.
        if c.get("source").and_then(Value::as_str) == Some("template") {
            c.remove("source");
        }
    }
    crate::render::v09::prune::prune(&mut terraform, &mut kustomize, &mut substitutions);

    let mut bp = crate::render::v09::barriers::Composed {
        terraform,
        kustomize,
        flux: systems,
        crds,
        excluded: project
            .facets
            .iter()
            .filter(|f| !included.facets.iter().any(|g| g.name == f.name))
            .map(crate::render::v09::rounds::excluded)
            .collect(),
    };
    bp.crds.sort();
    bp.resolve_tiers();
    bp.crd_barrier();
    bp.global_barrier();
    let mut problems = bp.validate();
    if let Some(b) = &backend
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

    let config_maps = crate::render::v09::configmaps::config_maps(&base, &set, name, &substitutions, &mut bp.kustomize);
    let messages = show(&mut ev, &messages)?;
    let mut blueprint =
        crate::render::output::composed(name, &base, user.as_ref(), backend, bp, substitutions, config_maps);
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
        scope: ev.take_scope(),
    })
}

/// The condition [`gate`] decided by: the component's own, else its facet's.
fn condition(own: Option<&Cond>, f: &Facet) -> String {
    own.or(f.when.as_ref()).map_or_else(String::new, |c| c.src.clone())
}

/// Whether a component or system `at` of facet `f` is emitted: by its own
/// condition (said in `explain`), else by the facet's again, against the
/// final scope, as Windsor checks it.
fn gate(ev: &mut Evaluator, own: Option<&Cond>, f: &Facet, at: &str, explain: &mut Vec<String>) -> Result<bool, Error> {
    let Some(c) = own.or(f.when.as_ref()) else {
        return Ok(true);
    };
    let yes = holds(ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}.when"), m))?;
    if own.is_some() {
        explain.push(crate::render::part::decided(at, &f.name, yes, c));
    }
    Ok(yes)
}

/// Evaluates a terraform component or kustomization: a kustomization's
/// `substitute` goes into its `substitutions`, winning per key.
fn part(ev: &mut Evaluator, p: &crate::load::facet::Part) -> Result<Map, (String, String)> {
    let mut body = crate::render::part::evaluate_part(ev, &p.body, p.kind)?;
    if p.kind == Kind::Kustomize
        && let Some(Value::Map(over)) = body.remove("substitute")
    {
        let mut subs = body
            .get("substitutions")
            .and_then(Value::as_map)
            .cloned()
            .unwrap_or_default();
        for (k, v) in over.iter() {
            subs.insert(k.clone(), Value::Str(text::to_text(v).into()));
        }
        body.insert("substitutions", Value::Map(subs));
    }
    Ok(body)
}

/// The messages whose conditions give `true`, interpolated; empty and
/// repeated texts are left out (a deferred part stays as written).
fn show(ev: &mut Evaluator, messages: &[&crate::load::facet::Message]) -> Result<Vec<Value>, Errors> {
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
            Err(e) => return Err(Error::new(None, format!("messages{}", e.at), e.diag.to_string()).into()),
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
