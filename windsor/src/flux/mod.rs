//! `flux:` systems (Windsor v0.9): a named unit of Flux kustomizations
//! with an `install` tier (controllers) and `resources` variants (what
//! the controllers serve). A facet's systems are compiled with it; each
//! render evaluates the included ones and folds same-name systems.

pub(crate) mod tiers;

use crate::blueprint::merge::merge_component;
use crate::error::Error;
use crate::fields::check_fields;
use crate::fields::{FLUX_SYSTEM as FIELDS, KUSTOMIZATION};
use crate::host::compiler_for;
use crate::kind::Kind;
use crate::kind::Strategy;
use crate::template::condition::{Cond, condition};
use crate::template::tmpl::{Evaluator, Tmpl, TmplError};
use bpvm_runtime::{Map, Value, text};

/// An install tier or a resources variant, compiled.
#[derive(Debug, Clone)]
pub struct Tier {
    /// Its own condition (variants only).
    pub when: Option<Cond>,
    /// `components`, evaluated as a list of names.
    pub components: Option<Tmpl>,
    /// `dependsOn` (variants only).
    pub depends_on: Option<Tmpl>,
    /// `substitutions` with `substitute` over it.
    pub substitutions: Option<Tmpl>,
    /// Whether it declares `substitutions` (`substitute` alone does not
    /// keep an install tier without components).
    pub declares_substitutions: bool,
    /// Every other field, kept as written (durations, patches, enabled).
    pub raw: Map,
}

/// A system of a facet, compiled.
#[derive(Debug, Clone)]
pub struct System {
    /// Its identity.
    pub name: String,
    /// Its own condition (none: the facet's).
    pub when: Option<Cond>,
    /// How it folds into a same-name system.
    pub strategy: Strategy,
    /// Its own ordinal (none: the facet's).
    pub ordinal: Option<i64>,
    /// Cross-system dependencies.
    pub depends_on: Option<Tmpl>,
    /// The controller tier.
    pub install: Option<Tier>,
    /// The resources variants.
    pub resources: Vec<Tier>,
    /// `path`, `source`, `enabled`, `destroy`, `globalDependency` and
    /// `secrets`, kept as written: secrets are resolved at deploy time.
    pub raw: Map,
}

struct Parse<'a> {
    file: &'a str,
    errors: &'a mut Vec<Error>,
}

impl Parse<'_> {
    fn fail(&mut self, at: &str, message: impl Into<String>) {
        self.errors.push(Error::new(Some(self.file), at, message));
    }

    fn tmpl(&mut self, v: Option<&Value>, at: &str) -> Option<Tmpl> {
        let v = v.filter(|v| !matches!(v, Value::Null))?;
        match Tmpl::compile_rewritten(v, &compiler_for(true), Some(crate::template::shorthand::expand)) {
            Ok(t) => Some(t),
            Err(TmplError { at: inner, diag }) => {
                self.fail(&format!("{at}{inner}"), diag.to_string());
                None
            }
        }
    }

    fn when(&mut self, v: Option<&Value>, at: &str) -> Option<Cond> {
        match v {
            Some(Value::Str(s)) if !s.trim().is_empty() => match condition(s, true) {
                Ok(c) => Some(c),
                Err(d) => {
                    self.fail(&format!("{at}.when"), d.to_string());
                    None
                }
            },
            Some(Value::Bool(b)) => condition(if *b { "true" } else { "false" }, true).ok(),
            _ => None,
        }
    }

    fn tier(&mut self, v: &Value, at: &str, variant: bool) -> Option<Tier> {
        let Some(m) = v.as_map() else {
            self.fail(at, format!("must be a mapping, got {}", v.type_name()));
            return None;
        };
        let mut known: Vec<&str> = KUSTOMIZATION.to_vec();
        if variant {
            known.push("when");
        }
        let file = self.file;
        check_fields(m, &known, at, &mut |at, msg| {
            self.errors.push(Error::new(Some(file), at, msg))
        });
        let subs = match (m.get("substitutions"), m.get("substitute")) {
            (Some(Value::Map(a)), Some(Value::Map(b))) => {
                let mut s = a.clone();
                for (k, v) in b.iter() {
                    s.insert(k.clone(), v.clone());
                }
                Some(Value::Map(s))
            }
            (Some(a @ Value::Map(_)), _) => Some(a.clone()),
            (_, Some(b @ Value::Map(_))) => Some(b.clone()),
            _ => None,
        };
        let mut raw = Map::new();
        for (k, v) in m.iter() {
            if !matches!(
                k.as_str(),
                "when" | "components" | "dependsOn" | "substitutions" | "substitute"
            ) {
                raw.insert(k.clone(), v.clone());
            }
        }
        Some(Tier {
            when: if variant { self.when(m.get("when"), at) } else { None },
            components: self.tmpl(m.get("components"), &format!("{at}.components")),
            depends_on: if variant {
                self.tmpl(m.get("dependsOn"), &format!("{at}.dependsOn"))
            } else {
                None
            },
            substitutions: self.tmpl(subs.as_ref(), &format!("{at}.substitutions")),
            declares_substitutions: m.contains_key("substitutions"),
            raw,
        })
    }
}

/// Parses a facet's `flux:` list.
pub fn parse(list: &[Value], file: &str, errors: &mut Vec<Error>) -> Vec<System> {
    let mut p = Parse { file, errors };
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        let Some(m) = item.as_map() else {
            p.fail(
                &format!("flux[{i}]"),
                format!("a flux system must be a mapping, got {}", item.type_name()),
            );
            continue;
        };
        let Some(name) = m.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) else {
            p.fail(&format!("flux[{i}]"), "a flux system needs a name");
            continue;
        };
        let at = format!("flux[{name}]");
        check_fields(m, FIELDS, &at, &mut |at, msg| {
            p.errors.push(Error::new(Some(file), at, msg))
        });
        let strategy = match m.get("strategy").and_then(Value::as_str) {
            None => Strategy::Merge,
            Some(s) => match Strategy::parse(s) {
                Some(s) => s,
                None => {
                    p.fail(
                        &format!("{at}.strategy"),
                        format!("unknown strategy {s:?} (merge, replace or remove)"),
                    );
                    Strategy::Merge
                }
            },
        };
        let ordinal = match m.get("ordinal") {
            None | Some(Value::Null) => None,
            Some(Value::Int(n)) => Some(*n),
            Some(other) => {
                p.fail(
                    &format!("{at}.ordinal"),
                    format!("an ordinal must be an integer, got {}", other.type_name()),
                );
                None
            }
        };
        let install = m
            .get("install")
            .filter(|v| !matches!(v, Value::Null))
            .and_then(|v| p.tier(v, &format!("{at}.install"), false));
        let mut resources = Vec::new();
        match m.get("resources") {
            None | Some(Value::Null) => {}
            Some(Value::List(vs)) => {
                for (j, v) in vs.iter().enumerate() {
                    if let Some(t) = p.tier(v, &format!("{at}.resources[{j}]"), true) {
                        resources.push(t);
                    }
                }
            }
            Some(other) => p.fail(
                &format!("{at}.resources"),
                format!("must be a list of variants, got {}", other.type_name()),
            ),
        }
        if let Some(s) = m.get("secrets").filter(|v| !matches!(v, Value::Null))
            && !matches!(s, Value::Map(_))
        {
            p.fail(
                &format!("{at}.secrets"),
                format!("must be a mapping of secret names, got {}", s.type_name()),
            );
        }
        let mut raw = Map::new();
        for key in ["path", "source", "enabled", "destroy", "globalDependency", "secrets"] {
            if let Some(v) = m.get(key).filter(|v| !matches!(v, Value::Null)) {
                raw.insert(key, v.clone());
            }
        }
        out.push(System {
            name: name.to_string(),
            when: p.when(m.get("when"), &at),
            strategy,
            ordinal,
            depends_on: p.tmpl(m.get("dependsOn"), &format!("{at}.dependsOn")),
            install,
            resources,
            raw,
        });
    }
    out
}

/// A field's evaluation failed: where, and why.
pub type Failure = (String, String);

fn names(ev: &mut Evaluator, t: &Option<Tmpl>, at: &str) -> Result<Option<Value>, Failure> {
    let Some(t) = t else { return Ok(None) };
    let v = t.eval(ev).map_err(|e| (format!("{at}{}", e.at), e.diag.to_string()))?;
    Ok(Some(Value::List(crate::blueprint::component::string_list(&v))))
}

fn substitutions(ev: &mut Evaluator, t: &Option<Tmpl>, at: &str) -> Result<Option<Value>, Failure> {
    let Some(t) = t else { return Ok(None) };
    let v = t.eval(ev).map_err(|e| (format!("{at}{}", e.at), e.diag.to_string()))?;
    let Value::Map(m) = v else {
        return Err((at.to_string(), "substitutions must be a mapping".into()));
    };
    Ok(Some(Value::Map(crate::blueprint::component::as_texts(&m))))
}

/// Evaluates a tier; `None` for a variant whose condition is false.
fn tier(ev: &mut Evaluator, t: &Tier, at: &str) -> Result<Option<Map>, Failure> {
    if let Some(c) = &t.when
        && !crate::template::condition::holds(ev, c).map_err(|m| (format!("{at}.when"), m))?
    {
        return Ok(None);
    }
    let mut out = Map::new();
    for f in KUSTOMIZATION {
        let v = match *f {
            "components" => names(ev, &t.components, &format!("{at}.components"))?,
            "dependsOn" => names(ev, &t.depends_on, &format!("{at}.dependsOn"))?,
            "substitutions" => substitutions(ev, &t.substitutions, &format!("{at}.substitutions"))?,
            other => t.raw.get(other).cloned(),
        };
        match v {
            // Empty lists are not printed (Windsor's omitempty).
            Some(Value::List(l)) if l.is_empty() && matches!(*f, "components" | "dependsOn") => {}
            Some(v) => {
                out.insert(*f, v);
            }
            None => {}
        }
    }
    Ok(Some(out))
}

/// Evaluates an included system into its composed form (fields in output
/// order, `when`, `strategy` and `ordinal` gone); `source` is the
/// facet's source, for a system that names none.
pub fn evaluate(ev: &mut Evaluator, s: &System, source: &str) -> Result<Map, Failure> {
    let at = format!("flux[{}]", s.name);
    if let Some(Value::Map(secrets)) = s.raw.get("secrets") {
        check_secrets(&s.name, secrets).map_err(|m| (format!("{at}.secrets"), m))?;
    }
    let mut out = Map::new();
    out.insert("name", Value::Str(s.name.as_str().into()));
    for key in ["path", "source", "enabled", "destroy"] {
        match s.raw.get(key) {
            Some(v) => {
                out.insert(key, v.clone());
            }
            None if key == "source" => {
                out.insert(key, Value::Str(source.into()));
            }
            None => {}
        }
    }
    match names(ev, &s.depends_on, &format!("{at}.dependsOn"))? {
        Some(Value::List(d)) if d.is_empty() => {}
        Some(d) => {
            out.insert("dependsOn", d);
        }
        None => {}
    }
    if let Some(v) = s.raw.get("globalDependency") {
        out.insert("globalDependency", v.clone());
    }
    if let Some(t) = &s.install
        && let Some(install) = tier(ev, t, &format!("{at}.install"))?
    {
        let has_components = matches!(install.get("components"), Some(Value::List(l)) if !l.is_empty());
        if has_components
            || s.strategy == Strategy::Remove
            || t.declares_substitutions
            || install.contains_key("patches")
        {
            out.insert("install", Value::Map(install));
        }
    }
    if !s.resources.is_empty() {
        let mut variants = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        for (j, t) in s.resources.iter().enumerate() {
            if let Some(v) = tier(ev, t, &format!("{at}.resources[{j}]"))? {
                let tier_name = match v.get("name").and_then(Value::as_str) {
                    Some(n) if !n.is_empty() => format!("{}-resources-{n}", s.name),
                    _ => format!("{}-resources", s.name),
                };
                if seen.contains(&tier_name) {
                    return Err((
                        format!("{at}.resources[{j}]"),
                        format!(
                            "duplicate resources variant {tier_name:?} in system {:?}; add a unique name: field to each variant",
                            s.name
                        ),
                    ));
                }
                seen.push(tier_name);
                variants.push(Value::Map(v));
            }
        }
        out.insert("resources", Value::List(variants));
    }
    if let Some(v) = s.raw.get("secrets") {
        out.insert("secrets", v.clone());
    }
    Ok(out)
}

/// Each secret declares data keys, each a complete `${…}` reference.
fn check_secrets(system: &str, secrets: &Map) -> Result<(), String> {
    for (name, entry) in secrets.iter() {
        let data = entry.as_map().and_then(|m| m.get("data")).and_then(Value::as_map);
        let Some(data) = data.filter(|d| !d.is_empty()) else {
            return Err(format!(
                "secret {:?} in flux system {system:?} declares no data keys; nest them under `data:` (an entry is `data: {{<key>: <ref>}}` plus an optional `namespaces:` selector)",
                name.as_str()
            ));
        };
        for (k, v) in data.iter() {
            let t = v.as_str().unwrap_or("");
            let complete = t.find("${").is_some_and(|i| t[i..].contains('}'));
            if !complete {
                return Err(format!(
                    "secret {:?} key {:?} in flux system {system:?} must contain a complete ${{...}} expression (a reference or a secret() call), not a plaintext literal or unterminated expression, got {:?}",
                    name.as_str(),
                    k.as_str(),
                    text::to_text(v)
                ));
            }
        }
    }
    Ok(())
}

fn list(v: Option<&Value>) -> Vec<Value> {
    match v {
        Some(Value::List(l)) => l.clone(),
        _ => Vec::new(),
    }
}

/// Folds system `newer` into `older` (the `merge` strategy): dependencies
/// united and sorted, tiers merged field by field, variants matched by
/// name, secrets united; path, source, enabled and destroy stay the
/// first contributor's.
pub fn merge(older: &mut Map, newer: &Map) {
    let mut deps = list(older.get("dependsOn"));
    for d in list(newer.get("dependsOn")) {
        if !deps.contains(&d) {
            deps.push(d);
        }
    }
    if older.contains_key("dependsOn") || newer.contains_key("dependsOn") {
        deps.sort_by(|a, b| a.as_str().unwrap_or("").cmp(b.as_str().unwrap_or("")));
        older.insert("dependsOn", Value::List(deps));
    }
    let global = matches!(older.get("globalDependency"), Some(Value::Bool(true)))
        || matches!(newer.get("globalDependency"), Some(Value::Bool(true)));
    if global {
        older.insert("globalDependency", Value::Bool(true));
    }
    match (older.get_mut("install"), newer.get("install")) {
        (Some(Value::Map(a)), Some(Value::Map(b))) => merge_component(Kind::Kustomize, a, b),
        (None, Some(b)) => {
            older.insert("install", b.clone());
        }
        _ => {}
    }
    if let Some(Value::List(incoming)) = newer.get("resources") {
        let mut variants = list(older.get("resources"));
        for v in incoming {
            let name = v.as_map().and_then(|m| m.get("name")).cloned();
            let found = variants
                .iter_mut()
                .find(|x| x.as_map().and_then(|m| m.get("name")).cloned() == name);
            match (found, v) {
                (Some(Value::Map(a)), Value::Map(b)) => merge_component(Kind::Kustomize, a, b),
                _ => variants.push(v.clone()),
            }
        }
        older.insert("resources", Value::List(variants));
    }
    if let Some(Value::Map(incoming)) = newer.get("secrets") {
        let mut secrets = older
            .get("secrets")
            .and_then(Value::as_map)
            .cloned()
            .unwrap_or_default();
        for (name, entry) in incoming.iter() {
            match secrets.get_mut(name.as_str()) {
                Some(Value::Map(have)) => merge_secret(have, entry),
                _ => {
                    secrets.insert(name.clone(), entry.clone());
                }
            }
        }
        older.insert("secrets", Value::Map(secrets));
    }
    reorder(older);
}

/// Applies a `remove` descriptor to a system: the dependencies it lists
/// go, the install tier loses the components, dependencies, patches and
/// substitutions it lists, and the variants it names go.
pub fn remove(system: &mut Map, spec: &Map) {
    crate::blueprint::merge::remove_items(system, "dependsOn", spec);
    if let (Some(Value::Map(install)), Some(Value::Map(gone))) = (system.get_mut("install"), spec.get("install")) {
        crate::blueprint::merge::remove_from(install, gone);
    }
    if let Some(Value::List(gone)) = spec.get("resources") {
        let names: Vec<Option<Value>> = gone
            .iter()
            .map(|v| v.as_map().and_then(|m| m.get("name")).cloned())
            .collect();
        if let Some(Value::List(variants)) = system.get_mut("resources") {
            variants.retain(|v| !names.contains(&v.as_map().and_then(|m| m.get("name")).cloned()));
        }
    }
}

fn merge_secret(have: &mut Map, entry: &Value) {
    let Some(entry) = entry.as_map() else { return };
    let mut namespaces = list(have.get("namespaces"));
    for n in list(entry.get("namespaces")) {
        if !namespaces.contains(&n) {
            namespaces.push(n);
        }
    }
    if !namespaces.is_empty() {
        have.insert("namespaces", Value::List(namespaces));
    }
    let mut data = have.get("data").and_then(Value::as_map).cloned().unwrap_or_default();
    if let Some(d) = entry.get("data").and_then(Value::as_map) {
        for (k, v) in d.iter() {
            data.insert(k.clone(), v.clone());
        }
    }
    have.insert("data", Value::Map(data));
}

/// Puts a system's fields back in output order.
fn reorder(m: &mut Map) {
    let mut out = Map::new();
    for f in FIELDS {
        if let Some(v) = m.get(f) {
            out.insert(*f, v.clone());
        }
    }
    *m = out;
}
