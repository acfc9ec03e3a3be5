//! An included system evaluated in a render's scope: its tiers' components
//! and substitutions, variants by their own conditions, its secrets
//! checked.

use super::{System, Tier};
use crate::blueprint::component::{as_texts, string_list};
use crate::fields::KUSTOMIZATION;
use crate::kind::Strategy;
use crate::template::condition::holds;
use crate::template::tmpl::{Evaluator, Tmpl};
use bpvm_runtime::{Map, Value, text};

/// A field's evaluation failed: where, and why.
/// Where an evaluation failed, and why.
pub type Failure = (String, crate::Why);

fn names(ev: &mut Evaluator, t: &Option<Tmpl>, at: &str) -> Result<Option<Value>, Failure> {
    let Some(t) = t else { return Ok(None) };
    let v = t.eval(ev).map_err(|e| (format!("{at}{}", e.at), e.diag.into()))?;
    Ok(Some(Value::List(string_list(&v))))
}

fn substitutions(ev: &mut Evaluator, t: &Option<Tmpl>, at: &str) -> Result<Option<Value>, Failure> {
    let Some(t) = t else { return Ok(None) };
    let v = t.eval(ev).map_err(|e| (format!("{at}{}", e.at), e.diag.into()))?;
    let Value::Map(m) = v else {
        return Err((at.to_string(), "substitutions must be a mapping".into()));
    };
    Ok(Some(Value::Map(as_texts(&m))))
}

/// Evaluates a tier; `None` for a variant whose condition is false.
fn tier(ev: &mut Evaluator, t: &Tier, at: &str) -> Result<Option<Map>, Failure> {
    if let Some(c) = &t.when
        && !holds(ev, c).map_err(|m| (format!("{at}.when"), m))?
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
    // A newer Windsor's fields, as written, after the known ones (W13).
    for (k, v) in t.raw.iter().filter(|(k, _)| !KUSTOMIZATION.contains(&k.as_str())) {
        out.insert(k.clone(), v.clone());
    }
    Ok(Some(out))
}

/// Evaluates an included system into its composed form (fields in output
/// order, `when`, `strategy` and `ordinal` gone); `source` is the
/// facet's source, for a system that names none.
pub fn evaluate(ev: &mut Evaluator, s: &System, source: &str) -> Result<Map, Failure> {
    let at = format!("flux[{}]", s.name);
    if let Some(Value::Map(secrets)) = s.raw.get("secrets") {
        check_secrets(&s.name, secrets).map_err(|m| (format!("{at}.secrets"), m.into()))?;
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
                        )
                        .into(),
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
    // A newer Windsor's fields, as written, after the known ones (W13).
    for (k, v) in s.extra.iter() {
        out.insert(k.clone(), v.clone());
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
