//! Inclusion rounds (Windsor v0.9): facets are included by their
//! conditions against the scope the previous round left, their
//! requirements checked, and the config blocks of every facet whose
//! condition holds merged and evaluated into the next round's scope,
//! until the set of included facets stops changing.

use crate::blueprint::merge::merge_preserving;
use crate::error::{Error, Errors};
use crate::load::facet::Facet;
use crate::load::project::Project;
use crate::load::requires::{Requirement, is_set, report};
use crate::render::v09::blocks::Config;
use crate::template::condition::Cond;
use crate::template::condition::holds;
use crate::template::tmpl::Evaluator;
use bpvm_runtime::{Map, Value};

/// Inclusion rounds stop here even if the set of facets still changes.
const ROUNDS: usize = 10;

/// A requirement not met in the scope a round left.
#[derive(Debug, Clone, PartialEq)]
pub struct Unmet {
    /// The facet whose requirement it is.
    pub facet: String,
    /// The facet's file, relative to the project.
    pub file: String,
    /// The requirement's YAML path in the file (`requires[0]`,
    /// `config[x].requires[1]`).
    pub at: String,
    /// The scope path that is not set.
    pub path: String,
    /// The note the template gives for it.
    pub message: String,
    /// The condition that made it apply, when it has one.
    pub when: Option<String>,
}

/// The requirements of facet `f` that are not met in `ev`'s scope.
fn unmet(ev: &mut Evaluator, f: &Facet) -> Result<Vec<Unmet>, Error> {
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
        let dot = if at.is_empty() { "" } else { "." };
        for (i, r) in reqs.iter().enumerate() {
            if let Some(c) = &r.when
                && !holds(ev, c).map_err(|m| Error::new(Some(&f.file), format!("{at}{dot}requires[{i}].when"), m))?
            {
                continue;
            }
            for p in &r.paths {
                if !is_set(ev.scope(), p) {
                    out.push(Unmet {
                        facet: f.name.clone(),
                        file: f.file.clone(),
                        at: format!("{at}{dot}requires[{i}]"),
                        path: p.clone(),
                        message: r.message.clone(),
                        when: r.when.as_ref().or(gate).map(|c| c.src.clone()),
                    });
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
pub struct Included<'p> {
    /// The included facets, in facet order.
    pub facets: Vec<&'p Facet>,
    /// The scope every emitted field reads.
    pub scope: Map,
    /// The requirements still unmet when the rounds ended.
    pub unmet: Vec<Unmet>,
    /// Every facet whose condition held in some round: its config blocks
    /// shaped a scope, even when a later round left it out.
    pub took_part: Vec<&'p Facet>,
}

/// What a facet the render left out would have given.
pub fn excluded(f: &Facet) -> crate::render::v09::barriers::Excluded {
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
    crate::render::v09::barriers::Excluded {
        facet: f.name.clone(),
        when: f.when.as_ref().map(|c| c.src.clone()),
        provides,
    }
}

/// The rounds run to the end; an unmet requirement fails the render,
/// listing every missing path as Windsor does.
pub fn rounds<'p>(
    ev: &mut Evaluator,
    project: &'p Project,
    ctx: &Map,
    set: &Map,
    explain: &mut Vec<String>,
) -> Result<Included<'p>, Errors> {
    let included = settle(ev, project, ctx, set, explain)?;
    if !included.unmet.is_empty() {
        let mut missing: Vec<&Unmet> = included.unmet.iter().collect();
        missing.sort_by(|a, b| a.facet.cmp(&b.facet));
        let missing: Vec<(String, String)> = missing
            .into_iter()
            .map(|u| (u.path.clone(), u.message.clone()))
            .collect();
        return Err(Error::new(None, "", report(&missing)).into());
    }
    Ok(included)
}

/// The rounds run until the included facets stop changing: what they
/// include, the scope they leave, and the requirements still unmet
/// (`explain` traces a render that fails on them).
pub fn settle<'p>(
    ev: &mut Evaluator,
    project: &'p Project,
    ctx: &Map,
    set: &Map,
    explain: &mut Vec<String>,
) -> Result<Included<'p>, Errors> {
    let mut scope = ctx.clone();
    let mut previous: Option<Vec<&str>> = None;
    let mut took_part: Vec<&Facet> = Vec::new();
    for round in 1..=ROUNDS {
        ev.set_scope(Value::Map(scope));
        let mut config = Config::default();
        let mut included: Vec<&Facet> = Vec::new();
        let mut missing: Vec<Unmet> = Vec::new();
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
                    f.name,
                    project.root.shown(&f.file),
                    f.ordinal
                ));
                continue;
            }
            if !took_part.iter().any(|t| std::ptr::eq(*t, f)) {
                took_part.push(f);
            }
            let misses = unmet(ev, f)?;
            config.add(ev, ctx, f)?;
            if misses.is_empty() {
                notes.push(format!(
                    "facet {} ({}, ordinal {}): included",
                    f.name,
                    project.root.shown(&f.file),
                    f.ordinal
                ));
                included.push(f);
            } else {
                notes.push(format!(
                    "facet {} ({}, ordinal {}): included by {why}, but waiting for {}",
                    f.name,
                    project.root.shown(&f.file),
                    f.ordinal,
                    misses.iter().map(|u| u.path.as_str()).collect::<Vec<_>>().join(", ")
                ));
                missing.extend(misses);
            }
        }
        ev.set_scope(Value::Map(ctx.clone()));
        config.evaluate(ev, ctx)?;
        let mut next = ev.take_scope();
        merge_preserving(&mut next, set);
        let names: Vec<&str> = included.iter().map(|f| f.name.as_str()).collect();
        let done = previous.as_ref() == Some(&names) || round == ROUNDS;
        if done {
            explain.push(format!("rounds: {round} (the included facets stopped changing)"));
            explain.extend(notes);
            return Ok(Included {
                facets: included,
                scope: next,
                unmet: missing,
                took_part,
            });
        }
        previous = Some(names);
        scope = next;
    }
    unreachable!("the last round always returns")
}
