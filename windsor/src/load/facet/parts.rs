//! A facet's terraform components and kustomizations: each item read into
//! its identity, condition, strategy, ordinal and compiled body.

use super::loaded::Part;
use super::reader::Reader;
use crate::host::compiler_for;
use crate::kind::Kind;
use crate::template::tmpl::{Tmpl, TmplError};
use bpvm_runtime::{Map, Value};

/// The terraform components, then the kustomizations, of a document.
pub(super) fn parts_of(r: &mut Reader, root: &Map, v09: bool) -> Vec<Part> {
    let mut parts = Vec::new();
    for kind in [Kind::Terraform, Kind::Kustomize] {
        let Some(list) = r.list_at(root, kind.key()) else {
            continue;
        };
        for (i, item) in list.iter().enumerate() {
            if let Some(p) = part(r, kind, item, i, v09) {
                parts.push(p);
            }
        }
    }
    parts
}

/// A terraform component or kustomization, item `i` of its list.
fn part(r: &mut Reader, kind: Kind, item: &Value, i: usize, v09: bool) -> Option<Part> {
    let key = kind.key();
    let Some(m) = item.as_map() else {
        r.fail(
            &format!("{key}[{i}]"),
            format!("must be a mapping, got {}", item.type_name()),
        );
        return None;
    };
    let text = |k: &str| m.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let id = match kind {
        Kind::Terraform => text("name").or(text("path")),
        Kind::Kustomize => text("name"),
    };
    let Some(id) = id else {
        let need = if kind == Kind::Terraform {
            "a name or a path"
        } else {
            "a name"
        };
        r.fail(&format!("{key}[{i}]"), format!("a component needs {need}"));
        return None;
    };
    let at = format!("{key}[{id}]");
    let strategy = r.strategy(m.get("strategy"), &at);
    let ordinal = r.ordinal(m.get("ordinal"), &at);
    let requires = if v09 {
        r.requires(m.get("requires"), &format!("{at}.requires"))
    } else {
        Vec::new()
    };
    let when = r.when(m.get("when"), &at);
    let mut body = Map::new();
    for (k, v) in m
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "when" | "strategy" | "ordinal" | "requires"))
    {
        body.insert(k.clone(), v.clone());
    }
    let body = if v09 {
        let known: Vec<&str> = match kind {
            Kind::Terraform => crate::fields::TERRAFORM.to_vec(),
            Kind::Kustomize => crate::fields::KUSTOMIZATION.to_vec(),
        };
        let known: Vec<&str> = known
            .into_iter()
            .chain(crate::fields::FACET_ONLY.iter().copied())
            .collect();
        r.fields(m, &known, &at);
        // Windsor v0.9 never evaluates these: `enabled` is decided at
        // deploy time, patches are applied as written.
        let raw: &[&str] = match kind {
            Kind::Terraform => &["enabled"],
            Kind::Kustomize => &[
                "enabled",
                "patches",
                "interval",
                "retryInterval",
                "timeout",
                "decryption",
            ],
        };
        match Tmpl::compile_except(
            &body,
            raw,
            &compiler_for(true),
            Some(crate::template::shorthand::expand),
        ) {
            Ok(t) => t,
            Err(TmplError { at: inner, diag }) => {
                r.fail(&format!("{at}{inner}"), diag.to_string());
                Tmpl::Lit(Value::Null)
            }
        }
    } else {
        r.tmpl(&Value::Map(body), &at)
    };
    Some(Part {
        kind,
        id: id.to_string(),
        when,
        strategy,
        ordinal,
        body,
        requires,
    })
}
