//! Expectation keys no field stands for. Windsor's runner decodes an
//! expectation leniently and drops such a key, so an expectation written
//! with one asserts nothing: a key within two edits of a field is a typo
//! (an error, with the field), any other is reported (a field of a newer
//! Windsor, or one the runner never compares).

use super::read::{field, sub, terraform_id};
use crate::fields::{SEED_BLUEPRINT, SEED_KUSTOMIZATION};
use bpvm_runtime::{Map, Value};

/// One key of an expectation that is no field at its place.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Unknown {
    /// Its YAML path (`cases[0].expect.terraform[cluster].inputz`).
    pub at: String,
    /// The key as written.
    pub key: String,
    /// What it is a key of (`terraform component`).
    pub what: &'static str,
    /// The field it is within two edits of: a typo.
    pub near: Option<&'static str>,
}

impl Unknown {
    /// The message: a typo names the field it was meant to be.
    pub(crate) fn message(&self) -> String {
        match self.near {
            Some(near) => format!(
                "unknown key {:?} in a {} expectation (did you mean {near:?}?); it would assert nothing",
                self.key, self.what
            ),
            None => format!(
                "{:?} is not a {} field; Windsor's runner ignores it, so it asserts nothing",
                self.key, self.what
            ),
        }
    }
}

/// The keys of a case's `expect` or `exclude` (named `at`) that are not
/// fields of the blueprint, terraform component, kustomization, flux
/// system or resources variant they are under, by the v0.9 format's
/// types (`v09`) or the seed format's. A component's facet-only fields
/// (`when`, `strategy`, …) count as fields: expectations are often
/// copied from facets.
pub(crate) fn unknown_keys(doc: &Map, at: &str, v09: bool) -> Vec<Unknown> {
    let mut out = Vec::new();
    let (blueprint, kustomization) = if v09 {
        (crate::fields::BLUEPRINT, crate::fields::KUSTOMIZATION)
    } else {
        (SEED_BLUEPRINT, SEED_KUSTOMIZATION)
    };
    let with_facet = |fields: &[&'static str]| -> Vec<&'static str> {
        fields.iter().chain(crate::fields::FACET_ONLY).copied().collect()
    };
    let (terraform, kustomization) = (with_facet(crate::fields::TERRAFORM), with_facet(kustomization));
    unknown(doc, blueprint, "blueprint", at, &mut out);
    for (i, tf) in list_items(doc, "terraform") {
        let id = match terraform_id(tf) {
            id if id.is_empty() => i.to_string(),
            id => id,
        };
        let at = format!("{at}.terraform[{id}]");
        unknown(tf, &terraform, "terraform component", &at, &mut out);
    }
    for (i, k) in list_items(doc, "kustomize") {
        let at = format!("{at}.kustomize[{}]", name_or_index(k, i));
        unknown(k, &kustomization, "kustomization", &at, &mut out);
    }
    if v09 {
        flux(doc, at, &mut out);
    }
    out
}

/// The flux systems' keys (v0.9 only: the seed format has none).
fn flux(doc: &Map, at: &str, out: &mut Vec<Unknown>) {
    use crate::fields::{FLUX_SYSTEM, KUSTOMIZATION};
    for (i, sys) in list_items(doc, "flux") {
        let at = format!("{at}.flux[{}]", name_or_index(sys, i));
        unknown(sys, FLUX_SYSTEM, "flux system", &at, out);
        if let Some(install) = sub(sys, "install") {
            unknown(install, KUSTOMIZATION, "kustomization", &format!("{at}.install"), out);
        }
        let variant: Vec<&str> = KUSTOMIZATION.iter().copied().chain(["when"]).collect();
        for (j, v) in list_items(sys, "resources") {
            let at = format!("{at}.resources[{}]", name_or_index(v, j));
            unknown(v, &variant, "resources variant", &at, out);
        }
    }
}

/// The map items of a list field with their positions.
fn list_items<'m>(m: &'m Map, key: &str) -> Vec<(usize, &'m Map)> {
    match m.get(key) {
        Some(Value::List(l)) => l
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i, v.as_map()?)))
            .collect(),
        _ => Vec::new(),
    }
}

fn name_or_index(m: &Map, i: usize) -> String {
    match field(m, "name") {
        n if n.is_empty() => i.to_string(),
        n => n,
    }
}

fn unknown(m: &Map, fields: &[&'static str], what: &'static str, at: &str, out: &mut Vec<Unknown>) {
    for k in m.keys().map(|k| k.as_str()).filter(|k| !fields.contains(k)) {
        out.push(Unknown {
            at: format!("{at}.{k}"),
            key: k.to_string(),
            what,
            near: bpvm_runtime::suggest::closest(k, fields),
        });
    }
}
