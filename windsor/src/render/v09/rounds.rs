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
pub struct Included<'p> {
    /// The included facets, in facet order.
    pub facets: Vec<&'p Facet>,
    /// The scope every emitted field reads.
    pub scope: Map,
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

pub fn rounds<'p>(
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
