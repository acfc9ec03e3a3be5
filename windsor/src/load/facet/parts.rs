//! A facet's terraform components and kustomizations: each item read into
//! its identity, condition, strategy, ordinal and compiled body.

use super::loaded::Part;
use super::reader::Reader;
use crate::fields::Unknown;
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
    // A newer Windsor's field stays where it stands and goes into the
    // output as written, never evaluated; the output prints it after the
    // fields bpvm knows, in document order (`render::output`).
    let newer = r.fields(m, &known(kind, r.v09), &at, Unknown::Kept);
    let mut raw: Vec<&str> = newer.iter().map(String::as_str).collect();
    let body = if v09 {
        // Windsor v0.9 never evaluates these: `enabled` is decided at
        // deploy time, patches are applied as written.
        raw.extend_from_slice(match kind {
            Kind::Terraform => &["enabled"],
            Kind::Kustomize => &[
                "enabled",
                "patches",
                "interval",
                "retryInterval",
                "timeout",
                "decryption",
            ],
        });
        compile(
            r,
            &body,
            &raw,
            &compiler_for(true),
            Some(crate::template::shorthand::expand),
            &at,
        )
    } else {
        let rewrite: Option<crate::template::tmpl::Rewrite> = if r.v09 {
            Some(crate::template::shorthand::expand)
        } else {
            None
        };
        compile(r, &body, &raw, &compiler_for(r.v09), rewrite, &at)
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

/// The fields a component of `kind` may have, by the v0.9 rules or the
/// seed's, with the fields only a facet gives it.
fn known(kind: Kind, v09: bool) -> Vec<&'static str> {
    let own = match (kind, v09) {
        (Kind::Terraform, _) => crate::fields::TERRAFORM,
        (Kind::Kustomize, true) => crate::fields::KUSTOMIZATION,
        (Kind::Kustomize, false) => crate::fields::SEED_KUSTOMIZATION,
    };
    let facet_only = if v09 {
        crate::fields::FACET_ONLY
    } else {
        crate::fields::SEED_FACET_ONLY
    };
    own.iter().chain(facet_only).copied().collect()
}

/// `body` compiled, the fields in `raw` kept as written; an error is `r`'s.
fn compile(
    r: &mut Reader,
    body: &Map,
    raw: &[&str],
    compiler: &bpvm_compiler::Compiler,
    rewrite: Option<crate::template::tmpl::Rewrite>,
    at: &str,
) -> Tmpl {
    match Tmpl::compile_except(body, raw, compiler, rewrite) {
        Ok(t) => t,
        Err(TmplError { at: inner, diag }) => {
            r.fail(&format!("{at}{inner}"), diag);
            Tmpl::Lit(Value::Null)
        }
    }
}
