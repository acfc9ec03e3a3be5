//! The collected entries written into the template's own blueprint.yaml:
//! its components first, then replacements, then merges, each list
//! re-sorted by dependencies after every insertion (as Windsor does),
//! then removals; and flux systems merged into the template's by name.

use crate::blueprint::component::list_of;
use crate::blueprint::merge::remove_from;
use crate::error::{Error, Errors};
use crate::kind::{Kind, Strategy};
use crate::load::project::{Project, TEMPLATE};
use crate::render::v09::collect::part;
use crate::render::v09::contributions::{Entries, Entry, Sorted};
use crate::template::tmpl::Evaluator;
use bpvm_runtime::{Map, Value};
use foldhash::HashMap;

/// A component list: each component's identity and body, in order.
pub(crate) type List = Vec<(String, Map)>;

/// The template's blueprint.yaml's own components, evaluated.
pub(crate) fn base_parts(ev: &mut Evaluator, project: &Project) -> Result<Vec<(Kind, String, Map)>, Errors> {
    ev.host.dir = project.root.dir().join(TEMPLATE);
    let mut parts = Vec::new();
    let mut errors = Vec::new();
    for p in &project.base {
        match part(ev, p) {
            Ok(body) => parts.push((p.kind, p.id.clone(), body)),
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
    Ok(parts)
}

/// The list of `kind`: the base's components, then `collected` written in.
pub(crate) fn components(kind: Kind, base_parts: &[(Kind, String, Map)], collected: Entries) -> List {
    let base: List = base_parts
        .iter()
        .filter(|(k, ..)| *k == kind)
        .map(|(_, id, c)| (id.clone(), c.clone()))
        .collect();
    let mut collected = collected.list;
    collected.sort_by(|a, b| a.0.cmp(&b.0));
    let mut sorted = Sorted::new(base);
    for pass in [Strategy::Replace, Strategy::Merge] {
        for (id, e) in collected.iter().filter(|(_, e)| e.strategy == pass) {
            sorted.write(kind, id, &e.body, pass == Strategy::Merge);
        }
    }
    let mut list = sorted.list;
    remove(&mut list, &collected);
    list
}

/// The removals of `collected` applied to the components they name.
fn remove(list: &mut List, collected: &[(String, Entry)]) {
    let at: HashMap<&str, usize> = list.iter().enumerate().map(|(i, (id, _))| (id.as_str(), i)).collect();
    let mut gone = Vec::new();
    for (id, e) in collected.iter().filter(|(_, e)| e.strategy == Strategy::Remove) {
        if let Some(&i) = at.get(id.as_str()) {
            gone.push((i, e));
        }
    }
    for (i, e) in gone {
        remove_from(&mut list[i].1, &e.body);
    }
}

/// Flux systems by name, in order, and where each is.
pub(crate) struct Systems {
    pub list: Vec<Map>,
    at: HashMap<String, usize>,
}

impl Systems {
    /// The base blueprint's systems, then the collected ones merged in by
    /// name; a removal that won its fold took the facets' contributions
    /// with it, and what it lists is removed from the base's system.
    pub(crate) fn of(base: &Map, collected: Entries) -> Systems {
        let list: Vec<Map> = list_of(base, "flux");
        let at = list.iter().enumerate().map(|(i, s)| (name(s), i)).collect();
        let mut systems = Systems { list, at };
        let mut flux = collected.list;
        flux.sort_by(|a, b| a.0.cmp(&b.0));
        let (removals, upserts): (Vec<_>, Vec<_>) = flux.into_iter().partition(|(_, e)| e.strategy == Strategy::Remove);
        for (id, e) in upserts {
            systems.upsert(id, e.body);
        }
        for (id, e) in removals {
            if let Some(&i) = systems.at.get(&id) {
                crate::flux::remove(&mut systems.list[i], &e.body);
            }
        }
        systems
    }

    /// Merges `system` into the one of its name, or adds it.
    pub(crate) fn upsert(&mut self, id: String, system: Map) {
        match self.at.get(&id) {
            Some(&i) => crate::flux::merge(&mut self.list[i], &system),
            None => {
                self.at.insert(id, self.list.len());
                self.list.push(system);
            }
        }
    }
}

/// A system's name (empty when it has none).
pub(crate) fn name(s: &Map) -> String {
    s.get("name").and_then(Value::as_str).unwrap_or("").to_string()
}
