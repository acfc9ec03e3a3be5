//! Expectation keys Windsor's runner drops without a word: reported as
//! warnings, so a misspelt key is seen.

use super::read::{field, sub, terraform_id};
use bpvm_runtime::{Map, Value};
use std::fmt::Write;

/// Warnings for the keys of a case's `expect` or `exclude` (named `at`)
/// that are not fields of the blueprint, terraform component,
/// kustomization, flux system or resources variant they are under:
/// Windsor decodes these documents leniently and drops such keys, so an
/// expectation written with one silently asserts nothing. Fields Windsor
/// decodes but does not compare (durations, `destroy`, `secrets`, …) are
/// not reported.
pub(crate) fn unknown_keys(doc: &Map, at: &str) -> Vec<String> {
    let mut out = Vec::new();
    unknown(doc, crate::fields::BLUEPRINT, "blueprint", at, &mut out);
    for (i, tf) in list_items(doc, "terraform") {
        let id = match terraform_id(tf) {
            id if id.is_empty() => i.to_string(),
            id => id,
        };
        unknown(
            tf,
            crate::fields::TERRAFORM,
            "terraform component",
            &format!("{at}.terraform[{id}]"),
            &mut out,
        );
    }
    for (i, k) in list_items(doc, "kustomize") {
        let at = format!("{at}.kustomize[{}]", name_or_index(k, i));
        unknown(k, crate::fields::KUSTOMIZATION, "kustomization", &at, &mut out);
    }
    for (i, sys) in list_items(doc, "flux") {
        let at = format!("{at}.flux[{}]", name_or_index(sys, i));
        unknown(sys, crate::fields::FLUX_SYSTEM, "flux system", &at, &mut out);
        if let Some(install) = sub(sys, "install") {
            unknown(
                install,
                crate::fields::KUSTOMIZATION,
                "kustomization",
                &format!("{at}.install"),
                &mut out,
            );
        }
        for (j, v) in list_items(sys, "resources") {
            let at = format!("{at}.resources[{}]", name_or_index(v, j));
            let fields: Vec<&str> = crate::fields::KUSTOMIZATION.iter().copied().chain(["when"]).collect();
            unknown(v, &fields, "resources variant", &at, &mut out);
        }
    }
    out
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

fn unknown(m: &Map, fields: &[&str], what: &str, at: &str, out: &mut Vec<String>) {
    for k in m.keys().map(|k| k.as_str()).filter(|k| !fields.contains(k)) {
        let mut msg = format!("{at}.{k}: not a {what} field; Windsor's runner ignores it");
        if let Some(near) = bpvm_runtime::suggest::closest(k, fields) {
            let _ = write!(msg, " (did you mean {near:?}?)");
        }
        out.push(msg);
    }
}
