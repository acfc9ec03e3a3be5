//! What Windsor v0.9 does to dependencies once the components and flux
//! systems are composed: bare system names become install tiers, roots
//! wait for the CRD layer, everything waits for global-dependency
//! systems, and then every edge must land on something that exists.

use crate::error::Error;
use crate::flux::reorder;
use bpvm_runtime::{Map, Value};
use foldhash::{HashMap, HashSet};

/// The composed lists the barriers work on.
pub struct Composed {
    /// Terraform components by id, in order.
    pub terraform: Vec<(String, Map)>,
    /// Plain kustomizations by name, in order.
    pub kustomize: Vec<(String, Map)>,
    /// Flux systems, by name.
    pub flux: Vec<Map>,
    /// CRD layer references, sorted.
    pub crds: Vec<String>,
    /// The facets the render left out, to say why a dependency on what
    /// they would have given dangles.
    pub excluded: Vec<Excluded>,
}

/// A facet the render left out.
pub struct Excluded {
    /// Its name.
    pub facet: String,
    /// Its condition, as written (none: it was left out waiting on
    /// requirements).
    pub when: Option<String>,
    /// The terraform ids, kustomization and flux tier names it gives.
    pub provides: Vec<String>,
}

impl Composed {
    /// How a dependency on `dep` dangles: not composed, or given only by
    /// a facet the render left out.
    fn missing(&self, dep: &str, what: &str) -> String {
        match self.excluded.iter().find(|e| e.provides.iter().any(|p| p == dep)) {
            Some(Excluded {
                facet, when: Some(w), ..
            }) => format!(
                "{dep:?}, which is not in the composition: it is contributed by facet {facet:?}, excluded because its when condition ({w}) evaluated false"
            ),
            Some(Excluded { facet, when: None, .. }) => format!(
                "{dep:?}, which is not in the composition: it is contributed by facet {facet:?}, which was excluded"
            ),
            None => format!("non-existent {what} {dep:?}"),
        }
    }
}

fn names(m: &Map, key: &str) -> Vec<String> {
    match m.get(key) {
        Some(Value::List(l)) => l.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

fn set_names(m: &mut Map, key: &str, items: Vec<String>) {
    m.insert(
        key,
        Value::List(items.into_iter().map(|s| Value::Str(s.into())).collect()),
    );
}

fn text<'m>(m: &'m Map, key: &str) -> &'m str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

impl Composed {
    /// The CRD layer kustomizations' names.
    pub fn layers(&self) -> Vec<String> {
        if self.crds.is_empty() {
            Vec::new()
        } else {
            vec!["crds".to_string()]
        }
    }

    /// Every compiled kustomization's name and dependencies: plain ones,
    /// then each system's tiers.
    pub fn compiled(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = self
            .kustomize
            .iter()
            .map(|(n, k)| (n.clone(), names(k, "dependsOn")))
            .collect();
        for s in &self.flux {
            out.extend(tier_deps(s));
        }
        out
    }

    /// A bare system name in a plain kustomization's or a system's
    /// `dependsOn` means that system's install tier.
    pub fn resolve_tiers(&mut self) {
        let plain: HashSet<String> = self.kustomize.iter().map(|(n, _)| n.clone()).collect();
        let installs: HashSet<String> = self
            .flux
            .iter()
            .filter(|s| s.contains_key("install"))
            .map(|s| format!("{}-install", text(s, "name")))
            .collect();
        let resolve = |d: String| {
            let tier = format!("{d}-install");
            if !plain.contains(&d) && installs.contains(&tier) {
                tier
            } else {
                d
            }
        };
        for (_, k) in self.kustomize.iter_mut() {
            if k.contains_key("dependsOn") {
                let deps = names(k, "dependsOn").into_iter().map(resolve).collect();
                set_names(k, "dependsOn", deps);
            }
        }
        for s in self.flux.iter_mut() {
            if s.contains_key("dependsOn") {
                let deps = names(s, "dependsOn").into_iter().map(resolve).collect();
                set_names(s, "dependsOn", deps);
            }
        }
    }

    /// Kustomizations and systems that depend on nothing wait for the CRD
    /// layer.
    pub fn crd_barrier(&mut self) {
        let layers = self.layers();
        if layers.is_empty() {
            return;
        }
        for (_, k) in self.kustomize.iter_mut() {
            if names(k, "dependsOn").is_empty() {
                set_names(k, "dependsOn", layers.clone());
            }
        }
        for s in self.flux.iter_mut() {
            if names(s, "dependsOn").is_empty() {
                set_names(s, "dependsOn", layers.clone());
                reorder(s);
            }
        }
    }

    /// Everything outside a global-dependency system's dependency closure
    /// waits for that system's last tier(s).
    pub fn global_barrier(&mut self) {
        for g in 0..self.flux.len() {
            if !matches!(self.flux[g].get("globalDependency"), Some(Value::Bool(true))) {
                continue;
            }
            let own = crate::flux::tiers::tier_names(&self.flux[g]);
            if own.is_empty() {
                continue;
            }
            let terminals: Vec<String> = if crate::flux::tiers::variants(&self.flux[g]).next().is_some() {
                own.iter()
                    .filter(|n| **n != crate::flux::tiers::install_name(&self.flux[g]))
                    .cloned()
                    .collect()
            } else {
                own.clone()
            };
            let graph: HashMap<String, Vec<String>> = self.compiled().into_iter().collect();
            let mut closure: HashSet<String> = HashSet::default();
            let mut stack = own.clone();
            while let Some(n) = stack.pop() {
                if closure.insert(n.clone())
                    && let Some(deps) = graph.get(&n)
                {
                    stack.extend(deps.iter().cloned());
                }
            }
            for (name, k) in self.kustomize.iter_mut() {
                if !closure.contains(name) {
                    append(k, &terminals);
                }
            }
            for (i, s) in self.flux.iter_mut().enumerate() {
                let inside = i == g || crate::flux::tiers::tier_names(s).iter().any(|t| closure.contains(t));
                if !inside {
                    append(s, &terminals);
                    reorder(s);
                }
            }
        }
    }

    /// Every dependency must name something composed; the first dangling
    /// one of each list is reported, then any cycle.
    pub fn validate(&self) -> Vec<Error> {
        let mut out = Vec::new();
        for (name, _) in &self.kustomize {
            if name == "crds" || name.starts_with("crds-") {
                out.push(Error::new(
                    None,
                    format!("kustomize[{name}]"),
                    format!("kustomization name {name:?} is reserved for the CRD layer; use the crds: section instead"),
                ));
            }
        }
        let ids: HashSet<&str> = self.terraform.iter().map(|(i, _)| i.as_str()).collect();
        'terraform: for (id, c) in &self.terraform {
            for d in names(c, "dependsOn") {
                if !ids.contains(d.as_str()) {
                    out.push(Error::new(
                        None,
                        format!("terraform[{id}].dependsOn"),
                        format!(
                            "terraform component {id:?} depends on {}",
                            self.missing(&d, "component")
                        ),
                    ));
                    break 'terraform;
                }
            }
        }
        let compiled = self.compiled();
        let mut known: HashSet<&str> = compiled.iter().map(|(n, _)| n.as_str()).collect();
        let layers = self.layers();
        known.extend(layers.iter().map(String::as_str));
        'kustomize: for (name, deps) in &compiled {
            for d in deps {
                if !known.contains(d.as_str()) {
                    out.push(Error::new(
                        None,
                        "",
                        format!("kustomization {name:?} depends on {}", self.missing(d, "kustomization")),
                    ));
                    break 'kustomize;
                }
            }
        }
        for (list, what, items) in [
            ("terraform", "terraform components", &self.terraform),
            ("kustomize", "kustomizations", &self.kustomize),
        ] {
            let g = crate::blueprint::deps::graph(items);
            for cycle in crate::blueprint::cycles::cycles(&g.deps) {
                let mut path: Vec<&str> = cycle.iter().map(|&i| items[i].0.as_str()).collect();
                path.push(path[0]);
                out.push(Error::new(
                    None,
                    format!("{list}[{}].dependsOn", path[0]),
                    format!("dependency cycle detected in {what}: {}", path.join(" → ")),
                ));
            }
        }
        out
    }
}

/// The names and dependencies of the tiers `system` compiles to (what
/// [`crate::flux::tiers::system_tiers`] gives, without building the tiers).
fn tier_deps(system: &Map) -> Vec<(String, Vec<String>)> {
    use crate::flux::tiers::{install_emitted, install_name, variant_name, variants};
    let own = names(system, "dependsOn");
    let mut out = Vec::new();
    let install = install_emitted(system).then(|| install_name(system));
    if let Some(i) = &install {
        out.push((i.clone(), own.clone()));
    }
    for v in variants(system) {
        let mut deps = match &install {
            Some(i) => vec![i.clone()],
            None => own.clone(),
        };
        deps.extend(names(v, "dependsOn"));
        out.push((variant_name(system, v), deps));
    }
    out
}

fn append(m: &mut Map, extra: &[String]) {
    let mut deps = names(m, "dependsOn");
    for t in extra {
        if !deps.contains(t) {
            deps.push(t.clone());
        }
    }
    set_names(m, "dependsOn", deps);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tier_deps_are_the_compiled_tiers_names_and_dependencies() {
        for yaml in [
            "{name: a, dependsOn: [x], install: {components: [c]}, resources: [{components: [d]}, {name: v, dependsOn: [y]}]}",
            "{name: b, dependsOn: [x], install: {substitutions: {k: v}}, resources: [{dependsOn: [y]}]}",
            "{name: c, path: p}",
        ] {
            let s = Value::from_yaml(yaml).unwrap();
            let s = s.as_map().unwrap();
            let compiled: Vec<(String, Vec<String>)> = crate::flux::tiers::system_tiers(s)
                .iter()
                .map(|t| (text(t, "name").to_string(), names(t, "dependsOn")))
                .collect();
            assert_eq!(tier_deps(s), compiled, "{yaml}");
        }
    }
}
