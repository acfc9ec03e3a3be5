//! One render by the Windsor v0.9 rules (W10): facets included in rounds
//! (a facet's condition may read what other facets' config blocks set),
//! their requirements checked, config blocks merged as written and
//! evaluated, then components and flux systems emitted, folded by
//! ordinal and strategy, and the dependency barriers applied.

use super::blocks::Config;
use super::error::{Error, Errors};
use super::facet::{Cond, Facet, Kind, Strategy};
use super::host::Host;
use super::merge::{merge_component, merge_preserving};
use super::project::{Project, TEMPLATE, read_yaml};
use super::render::{Options, Rendered, identity, list_of, string_list};
use super::requires::{Requirement, is_set, report};
use super::tmpl::{Evaluator, Outcome};
use bpvm_runtime::{Map, Value, text};
use foldhash::{HashMap, HashSet};

/// The source name of the project's own template.
const TEMPLATE_SOURCE: &str = "template";

/// Inclusion rounds stop here even if the set of facets still changes.
const ROUNDS: usize = 10;

/// A condition's value, as Windsor v0.9 reads it: nil is false, a bool is
/// itself, the text `true` is true and any other text false; anything
/// else is an error.
pub fn holds(ev: &mut Evaluator, c: &Cond) -> Result<bool, String> {
    match ev.run(&c.prog) {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(Value::Null) => Ok(false),
        Ok(Value::Str(s)) => Ok(&*s == "true"),
        Ok(other) => Err(format!(
            "a condition must give a bool, got {} (from `{}`)",
            other.type_name(),
            c.src
        )),
        Err(Outcome::Deferred) => Err(format!(
            "a condition cannot wait for a deferred value (from `{}`)",
            c.src
        )),
        Err(Outcome::Failed(d)) => Err(d.to_string()),
    }
}

/// The context values Windsor derives before composing (W11): the
/// cluster driver a platform implies, a `workstation` map with an
/// architecture, and node maps that are always maps.
pub fn derive(ctx: &mut Map) {
    let platform = ctx
        .get("platform")
        .or_else(|| ctx.get("provider"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let driver = match platform.as_str() {
        "docker" | "incus" | "metal" | "hetzner" | "omni" | "hyperv" | "vsphere" => Some("talos"),
        "aws" => Some("eks"),
        "azure" => Some("aks"),
        "gcp" => Some("gke"),
        _ => None,
    };
    let has_driver = ctx
        .get("cluster")
        .and_then(Value::as_map)
        .is_some_and(|c| c.contains_key("driver"));
    if let Some(d) = driver
        && !has_driver
    {
        let mut cluster = ctx.get("cluster").and_then(Value::as_map).cloned().unwrap_or_default();
        cluster.insert("driver", Value::Str(d.into()));
        ctx.insert("cluster", Value::Map(cluster));
    }
    let mut ws = ctx
        .get("workstation")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    if !ws.contains_key("arch") {
        // Windsor uses the host's; a fixed value keeps renders the same
        // on every machine (D1).
        ws.insert("arch", Value::Str("amd64".into()));
    }
    ctx.insert("workstation", Value::Map(ws));
    match ctx.get("cluster") {
        None | Some(Value::Null) => {
            let mut c = Map::new();
            for pool in ["controlplanes", "workers"] {
                let mut p = Map::new();
                p.insert("nodes", Value::Map(Map::new()));
                c.insert(pool, Value::Map(p));
            }
            ctx.insert("cluster", Value::Map(c));
        }
        Some(Value::Map(c)) => {
            let mut c = c.clone();
            for pool in ["controlplanes", "workers"] {
                let mut p = c.get(pool).and_then(Value::as_map).cloned().unwrap_or_default();
                if !p.contains_key("nodes") {
                    p.insert("nodes", Value::Map(Map::new()));
                }
                c.insert(pool, Value::Map(p));
            }
            ctx.insert("cluster", Value::Map(c));
        }
        Some(_) => {}
    }
}

/// The requirements of facet `f` that are not met in `ev`'s scope, as
/// (path, note) pairs.
fn unmet(ev: &mut Evaluator, f: &Facet) -> Result<Vec<(String, String)>, Error> {
    let mut out = Vec::new();
    let mut check = |ev: &mut Evaluator, gate: Option<&Cond>, reqs: &[Requirement], at: &str| -> Result<(), Error> {
        if reqs.is_empty() {
            return Ok(());
        }
        if let Some(c) = gate
            && !holds(ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}.when"), m))?
        {
            return Ok(());
        }
        for (i, r) in reqs.iter().enumerate() {
            if let Some(c) = &r.when
                && !holds(ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}.requires[{i}].when"), m))?
            {
                continue;
            }
            for p in &r.paths {
                if !is_set(ev.scope(), p) {
                    out.push((p.clone(), r.message.clone()));
                }
            }
        }
        Ok(())
    };
    check(ev, None, &f.requires, "")?;
    for b in &f.config {
        check(ev, b.when.as_ref(), &b.requires, &format!("config[{}]", b.name))?;
    }
    for p in &f.parts {
        check(ev, p.when.as_ref(), &p.requires, &format!("{}[{}]", p.kind.key(), p.id))?;
    }
    Ok(out)
}

/// What the rounds decide: the facets included, and the scope every
/// emitted field reads.
struct Included<'p> {
    facets: Vec<&'p Facet>,
    scope: Map,
}

/// What a facet the render left out would have given.
fn excluded(f: &Facet) -> super::barriers::Excluded {
    let mut provides: Vec<String> = f.parts.iter().map(|p| p.id.clone()).collect();
    for s in &f.flux {
        provides.push(format!("{}-install", s.name));
        provides.push(format!("{}-resources", s.name));
        for v in &s.resources {
            if let Some(n) = v.raw.get("name").and_then(Value::as_str) {
                provides.push(format!("{}-resources-{n}", s.name));
            }
        }
        provides.push(s.name.clone());
    }
    super::barriers::Excluded {
        facet: f.name.clone(),
        when: f.when.as_ref().map(|c| c.src.clone()),
        provides,
    }
}

fn rounds<'p>(
    ev: &mut Evaluator,
    project: &'p Project,
    ctx: &Map,
    set: &Map,
    explain: &mut Vec<String>,
) -> Result<Included<'p>, Errors> {
    let mut scope = ctx.clone();
    let mut previous: Option<Vec<&str>> = None;
    for round in 1..=ROUNDS {
        ev.set_scope(Value::Map(scope));
        let mut config = Config::default();
        let mut included: Vec<&Facet> = Vec::new();
        // (facet name, path, note): notes are listed by facet name.
        let mut missing: Vec<(&str, String, String)> = Vec::new();
        let mut notes = Vec::new();
        for f in &project.facets {
            let yes = match &f.when {
                None => true,
                Some(c) => holds(ev, c).map_err(|m| Error::new(Some(&f.file), "when", m))?,
            };
            let why = f
                .when
                .as_ref()
                .map_or("no condition".to_string(), |c| format!("`{}`", c.src));
            if !yes {
                notes.push(format!(
                    "facet {} ({}, ordinal {}): skipped by {why}",
                    f.name, f.file, f.ordinal
                ));
                continue;
            }
            let misses = unmet(ev, f)?;
            config.add(ev, ctx, f)?;
            if misses.is_empty() {
                notes.push(format!(
                    "facet {} ({}, ordinal {}): included",
                    f.name, f.file, f.ordinal
                ));
                included.push(f);
            } else {
                notes.push(format!(
                    "facet {} ({}, ordinal {}): included by {why}, but waiting for {}",
                    f.name,
                    f.file,
                    f.ordinal,
                    misses.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>().join(", ")
                ));
                missing.extend(misses.into_iter().map(|(p, m)| (f.name.as_str(), p, m)));
            }
        }
        ev.set_scope(Value::Map(ctx.clone()));
        config.evaluate(ev, ctx)?;
        let mut next = ev.take_scope();
        merge_preserving(&mut next, set);
        let names: Vec<&str> = included.iter().map(|f| f.name.as_str()).collect();
        let done = previous.as_ref() == Some(&names) || round == ROUNDS;
        if done {
            if !missing.is_empty() {
                missing.sort_by(|a, b| a.0.cmp(b.0));
                let missing: Vec<(String, String)> = missing.into_iter().map(|(_, p, m)| (p, m)).collect();
                return Err(Error::new(None, "", report(&missing)).into());
            }
            explain.push(format!("rounds: {round} (the included facets stopped changing)"));
            explain.extend(notes);
            return Ok(Included {
                facets: included,
                scope: next,
            });
        }
        previous = Some(names);
        scope = next;
    }
    unreachable!("the last round always returns")
}

/// The entries of one list, in collection order, found by identity.
#[derive(Default)]
struct Entries {
    list: Vec<(String, Entry)>,
    at: HashMap<String, usize>,
}

/// A component list kept in dependency order (depth-first, in list
/// order) after every write, as Windsor re-sorts it after each one. A
/// sorted list is its own sort, so a write only re-sorts when it leaves
/// a component before one it depends on.
struct Sorted {
    list: Vec<(String, Map)>,
    at: HashMap<String, usize>,
    /// Every name some component's `dependsOn` lists.
    wanted: HashSet<String>,
}

impl Sorted {
    fn new(list: Vec<(String, Map)>) -> Sorted {
        let mut s = Sorted {
            list,
            at: HashMap::default(),
            wanted: HashSet::default(),
        };
        s.resort();
        s
    }

    fn resort(&mut self) {
        self.list = super::order::topological(std::mem::take(&mut self.list));
        self.at = self
            .list
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (id.clone(), i))
            .collect();
        for (_, c) in &self.list {
            self.wanted
                .extend(super::deps::names(c).into_iter().map(str::to_string));
        }
    }

    /// Merges `body` into component `id` (or replaces it), or appends it.
    fn write(&mut self, kind: Kind, id: &str, body: &Map, merge: bool) {
        let out_of_order = match self.at.get(id) {
            Some(&i) => {
                let have = &mut self.list[i].1;
                if merge {
                    merge_component(kind, have, body);
                } else {
                    *have = body.clone();
                }
                let deps = super::deps::names(have);
                self.wanted.extend(deps.iter().map(|d| d.to_string()));
                deps.iter().any(|d| self.at.get(*d).is_some_and(|&j| j > i))
            }
            None => {
                self.at.insert(id.to_string(), self.list.len());
                self.list.push((id.to_string(), body.clone()));
                self.wanted
                    .extend(super::deps::names(body).into_iter().map(str::to_string));
                self.wanted.contains(id)
            }
        };
        if out_of_order {
            self.resort();
        }
    }
}

/// A contribution to a component or system, with what decides its fold.
struct Entry {
    body: Map,
    ordinal: i64,
    strategy: Strategy,
}

/// Folds `incoming` into the entry of its identity (Windsor v0.9's table:
/// a higher ordinal wins, a lower one only merges under, equal ordinals
/// go by strategy rank, then by strategy).
fn fold(entries: &mut Entries, id: &str, incoming: Entry, merge: &dyn Fn(&mut Map, &Map)) {
    let Some(&i) = entries.at.get(id) else {
        entries.at.insert(id.to_string(), entries.list.len());
        entries.list.push((id.to_string(), incoming));
        return;
    };
    let old = &mut entries.list[i].1;
    let either_removes = old.strategy == Strategy::Remove || incoming.strategy == Strategy::Remove;
    if incoming.ordinal > old.ordinal {
        if incoming.strategy == Strategy::Merge && !either_removes {
            merge(&mut old.body, &incoming.body);
            old.ordinal = incoming.ordinal;
        } else {
            *old = incoming;
        }
    } else if incoming.ordinal < old.ordinal {
        if incoming.strategy == Strategy::Merge && old.strategy != Strategy::Remove {
            let mut under = incoming.body;
            merge(&mut under, &old.body);
            old.body = under;
        }
    } else if incoming.strategy.rank() > old.strategy.rank() {
        *old = incoming;
    } else if incoming.strategy == old.strategy {
        match incoming.strategy {
            Strategy::Replace => *old = incoming,
            Strategy::Merge => merge(&mut old.body, &incoming.body),
            Strategy::Remove => {}
        }
    }
}

/// Renders context `name` by the v0.9 rules. `ctx` holds the context
/// values; `opts.operator` the values the operator set, which win over
/// facet config (all of `ctx` when not given).
pub fn render(project: &Project, name: &str, ctx: Value, opts: &Options) -> Result<Rendered, Errors> {
    let mut ctx = ctx.as_map().cloned().unwrap_or_default();
    derive(&mut ctx);
    let set = match &opts.operator {
        Some(v) => v.as_map().cloned().unwrap_or_default(),
        None => ctx.clone(),
    };
    let facets_dir = project.root.dir().join(TEMPLATE).join("facets");
    let mut host = Host::new(project.root.clone(), facets_dir, opts.outputs.clone());
    host.environment = opts.environment.clone();
    let mut ev = Evaluator::new(Value::Map(ctx.clone()), host);
    let mut explain = Vec::new();
    let included = rounds(&mut ev, project, &ctx, &set, &mut explain)?;
    ev.set_scope(Value::Map(included.scope));

    let mut terraform = Entries::default();
    let mut kustomize = Entries::default();
    let mut flux = Entries::default();
    let mut crds: Vec<String> = Vec::new();
    let mut backend: Option<String> = None;
    let mut substitutions = Map::new();
    let mut messages: Vec<&super::facet::Message> = Vec::new();
    let mut errors = Vec::new();
    let merge_tf = |a: &mut Map, b: &Map| merge_component(Kind::Terraform, a, b);
    let merge_k = |a: &mut Map, b: &Map| merge_component(Kind::Kustomize, a, b);
    for f in &included.facets {
        ev.host.dir = project
            .root
            .dir()
            .join(&f.file)
            .parent()
            .map(|d| d.to_path_buf())
            .unwrap_or_default();
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
                Ok(false) => continue,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            }
            if let super::tmpl::Tmpl::Map(fields) = &p.body
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
                Ok(false) => continue,
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
            match super::flux::evaluate(&mut ev, s, TEMPLATE_SOURCE) {
                Ok(body) => {
                    let entry = Entry {
                        body,
                        ordinal: s.ordinal.unwrap_or(f.ordinal),
                        strategy: s.strategy,
                    };
                    fold(&mut flux, &s.name, entry, &super::flux::merge);
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
            super::merge::remove_from(&mut list[i].1, &e.body);
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
            Some(&i) => super::flux::merge(&mut systems[i], &e.body),
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
            super::flux::remove(&mut systems[i], &e.body);
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
                Some(&i) => super::flux::merge(&mut systems[i], &s),
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
    prune(&mut terraform, &mut kustomize, &mut substitutions);

    let mut bp = super::barriers::Composed {
        terraform,
        kustomize,
        flux: systems,
        crds,
        excluded: project
            .facets
            .iter()
            .filter(|f| !included.facets.iter().any(|g| g.name == f.name))
            .map(excluded)
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

    let config_maps = config_maps(&base, &set, name, &substitutions, &mut bp.kustomize);
    let messages = show(&mut ev, &messages)?;
    let mut blueprint = super::output::composed(name, &base, user.as_ref(), backend, bp, substitutions, config_maps);
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
    })
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
        explain.push(super::render::decided(at, &f.name, yes, c));
    }
    Ok(yes)
}

/// Evaluates a terraform component or kustomization: a kustomization's
/// `substitute` goes into its `substitutions`, winning per key.
fn part(ev: &mut Evaluator, p: &super::facet::Part) -> Result<Map, (String, String)> {
    let mut body = super::render::evaluate_part(ev, &p.body, p.kind)?;
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
fn show(ev: &mut Evaluator, messages: &[&super::facet::Message]) -> Result<Vec<Value>, Errors> {
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

/// Drops the empty strings composition leaves: in terraform inputs (at
/// any depth), plain kustomizations' components and substitutions, and
/// the blueprint's substitutions. Flux tiers keep theirs.
fn prune(terraform: &mut [(String, Map)], kustomize: &mut [(String, Map)], substitutions: &mut Map) {
    fn deep(v: &mut Value) {
        match v {
            Value::Map(m) => {
                m.retain(|k, v| !k.as_str().is_empty() && !matches!(v, Value::Str(s) if s.is_empty()));
                for (_, v) in m.iter_mut() {
                    deep(v);
                }
            }
            Value::List(l) => {
                l.retain(|v| !matches!(v, Value::Str(s) if s.is_empty()));
                l.iter_mut().for_each(deep);
            }
            _ => {}
        }
    }
    for (_, c) in terraform.iter_mut() {
        if let Some(v) = c.get_mut("inputs") {
            deep(v);
        }
    }
    for (_, c) in kustomize.iter_mut() {
        if let Some(Value::List(l)) = c.get_mut("components") {
            l.retain(|v| !matches!(v, Value::Str(s) if s.is_empty()));
        }
        if let Some(Value::Map(m)) = c.get_mut("substitutions") {
            m.retain(|k, v| !k.as_str().is_empty() && !matches!(v, Value::Str(s) if s.is_empty()));
        }
    }
    substitutions.retain(|k, v| !k.as_str().is_empty() && !matches!(v, Value::Str(s) if s.is_empty()));
}

/// `values-common` (the blueprint's substitutions, the values files'
/// `substitutions.common` and the variables Windsor has always set) and
/// `values-<kustomization>` from the values files.
fn config_maps(base: &Map, set: &Map, name: &str, substitutions: &Map, kustomize: &mut [(String, Map)]) -> Map {
    let mut out = base
        .get("configMaps")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    let mut common = substitutions.clone();
    let given = set
        .get("substitutions")
        .and_then(Value::as_map)
        .cloned()
        .unwrap_or_default();
    if let Some(Value::Map(c)) = given.get("common") {
        for (k, v) in c.iter() {
            common.insert(k.clone(), Value::Str(text::to_text(v).into()));
        }
    }
    let path = |p: &str| -> String {
        let mut v = Some(&Value::Map(set.clone())).cloned();
        for step in p.split('.') {
            v = v.and_then(|x| x.as_map().and_then(|m| m.get(step)).cloned());
        }
        v.map(|x| text::to_text(&x)).unwrap_or_default()
    };
    let mut legacy: Vec<(&str, String)> = vec![
        ("DOMAIN", path("dns.domain")),
        ("CONTEXT", name.to_string()),
        ("CONTEXT_ID", path("id")),
    ];
    if path("workstation.runtime") != "docker-desktop" {
        let (start, end) = (
            path("network.loadbalancer_ips.start"),
            path("network.loadbalancer_ips.end"),
        );
        if !(start.is_empty() && end.is_empty()) {
            legacy.push(("LOADBALANCER_IP_RANGE", format!("{start}-{end}")));
        }
        legacy.push(("LOADBALANCER_IP_START", start));
        legacy.push(("LOADBALANCER_IP_END", end));
    }
    legacy.push(("REGISTRY_URL", path("docker.registry_url")));
    let volume = match set
        .get("cluster")
        .and_then(Value::as_map)
        .and_then(|c| c.get("workers"))
        .and_then(Value::as_map)
        .and_then(|w| w.get("volumes"))
    {
        Some(Value::List(l)) => l
            .first()
            .and_then(Value::as_str)
            .and_then(|v| v.split(':').nth(1))
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    };
    legacy.push(("LOCAL_VOLUME_PATH", volume));
    for (k, v) in legacy {
        if !v.is_empty() {
            common.insert(k, Value::Str(v.into()));
        }
    }
    common.retain(|_, v| !matches!(v, Value::Str(s) if s.is_empty()));
    if !common.is_empty() {
        out.insert("values-common", Value::Map(common));
    }
    for (target, values) in given.iter() {
        if target.as_str() == "common" {
            continue;
        }
        let Some(values) = values.as_map() else { continue };
        let texts: Map = values
            .iter()
            .map(|(k, v)| (k.clone(), Value::Str(text::to_text(v).into())))
            .collect();
        out.insert(
            format!("values-{}", target.as_str()).as_str(),
            Value::Map(texts.clone()),
        );
        if let Some((_, k)) = kustomize.iter_mut().find(|(id, _)| id == target.as_str()) {
            let mut merged = k
                .get("substitutions")
                .and_then(Value::as_map)
                .cloned()
                .unwrap_or_default();
            for (sk, sv) in texts.iter() {
                merged.insert(sk.clone(), sv.clone());
            }
            k.insert("substitutions", Value::Map(merged));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A component named `id` depending on `deps`.
    fn component(id: &str, deps: &[String]) -> Map {
        let mut m = Map::new();
        m.insert("name", Value::Str(id.into()));
        m.insert(
            "dependsOn",
            Value::List(deps.iter().map(|d| Value::Str(d.as_str().into())).collect()),
        );
        m
    }

    #[test]
    fn writes_keep_the_order_re_sorting_after_every_write_gives() {
        // Pseudo-random lists of up to 7 components with random acyclic
        // dependencies (a cycle fails the render anyway), written in
        // random order, some twice (a merge).
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..3000 {
            let n = 1 + next(7) as usize;
            let names: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
            let mut writes = Vec::new();
            for _ in 0..n + next(3) as usize {
                let k = next(n as u64) as usize;
                let id = &names[k];
                let deps: Vec<String> = names[..k].iter().filter(|_| next(3) == 0).cloned().collect();
                writes.push((id.clone(), component(id, &deps)));
            }
            let mut naive: Vec<(String, Map)> = Vec::new();
            let mut sorted = Sorted::new(Vec::new());
            for (id, body) in &writes {
                match naive.iter_mut().find(|(i, _)| i == id) {
                    Some((_, have)) => merge_component(Kind::Terraform, have, body),
                    None => naive.push((id.clone(), body.clone())),
                }
                naive = super::super::order::topological(naive);
                sorted.write(Kind::Terraform, id, body, true);
            }
            let ids = |l: &[(String, Map)]| l.iter().map(|(i, _)| i.clone()).collect::<Vec<_>>();
            assert_eq!(ids(&sorted.list), ids(&naive), "{writes:?}");
        }
    }
}
