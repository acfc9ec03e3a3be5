//! Facets (`kind: Facet`, and the older `kind: Feature`): parsed,
//! checked and compiled once when the project loads. A file is read by
//! one `reader` that collects every problem; its components (`parts`),
//! config blocks (`config`) and Windsor v0.9's own fields (`v09`) each
//! have their module.

mod config;
mod parts;
mod reader;
mod v09;

use crate::error::Error;
use crate::flux::System;
use crate::kind::{Kind, Strategy};
use crate::load::requires::Requirement;
use crate::template::condition::Cond;
use crate::template::tmpl::Tmpl;
use bpvm_runtime::Value;
use reader::Reader;

/// A named config block: a body evaluated late, in dependency order (W3).
#[derive(Debug, Clone)]
pub struct Block {
    /// The name it is read by (`talos.controlplanes`).
    pub name: String,
    /// Its condition.
    pub when: Option<Cond>,
    /// Every other key (v0.9: its `value`).
    pub body: Tmpl,
    /// How it folds into a same-name block of a lower ordinal (v0.9).
    pub strategy: Strategy,
    /// Its own ordinal (v0.9; none: the facet's).
    pub ordinal: Option<i64>,
    /// What it needs set (v0.9).
    pub requires: Vec<Requirement>,
}

/// A terraform component or kustomization of a facet.
#[derive(Debug, Clone)]
pub struct Part {
    /// Terraform or kustomize.
    pub kind: Kind,
    /// Its identity: terraform `name`, else `path`; kustomize `name`.
    pub id: String,
    /// Its own condition (none: it goes with its facet).
    pub when: Option<Cond>,
    /// How it folds.
    pub strategy: Strategy,
    /// Its own ordinal, overriding the facet's for this component.
    pub ordinal: Option<i64>,
    /// The component without `when`, `strategy`, `ordinal`, compiled.
    pub body: Tmpl,
    /// What it needs set (v0.9).
    pub requires: Vec<Requirement>,
}

/// A message of a facet: text shown after a deploy, when its condition
/// holds (v0.9).
#[derive(Debug, Clone)]
pub struct Message {
    /// Its condition.
    pub when: Option<Cond>,
    /// Its text, with `${…}` parts.
    pub text: Tmpl,
}

/// One facet file.
#[derive(Debug, Clone)]
pub struct Facet {
    /// `metadata.name`.
    pub name: String,
    /// The file, relative to the project root.
    pub file: String,
    /// Ordinal: explicit, or from the file name (W1).
    pub ordinal: i64,
    /// Its condition.
    pub when: Option<Cond>,
    /// Config blocks.
    pub config: Vec<Block>,
    /// Terraform components, then kustomizations.
    pub parts: Vec<Part>,
    /// What the facet needs set (v0.9).
    pub requires: Vec<Requirement>,
    /// Flux systems (v0.9).
    pub flux: Vec<System>,
    /// CRD layer references (v0.9).
    pub crds: Option<Tmpl>,
    /// Blueprint-wide substitutions (v0.9).
    pub substitutions: Option<Tmpl>,
    /// Messages shown after a deploy (v0.9).
    pub messages: Vec<Message>,
    /// The terraform component that holds the state backend (v0.9).
    pub backend: Option<String>,
}

/// The ordinal a facet file's basename gives it (seed 000; `option-` and
/// `addon-` are accepted as the reference accepts them).
///
/// ```
/// use bpvm_windsor::ordinal_from_basename;
/// assert_eq!(ordinal_from_basename("config-talos.yaml"), 100);
/// assert_eq!(ordinal_from_basename("provider-base.yaml"), 199);
/// assert_eq!(ordinal_from_basename("platform-aws.yaml"), 200);
/// assert_eq!(ordinal_from_basename("option-dev.yaml"), 300);
/// assert_eq!(ordinal_from_basename("addons-x.yaml"), 400);
/// assert_eq!(ordinal_from_basename("base.yaml"), 0);
/// ```
pub fn ordinal_from_basename(base: &str) -> i64 {
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| base.starts_with(p));
    if starts(&["config-"]) {
        100
    } else if starts(&["provider-", "platform-"]) {
        if base.contains("-base") { 199 } else { 200 }
    } else if starts(&["options-", "option-"]) {
        300
    } else if starts(&["addons-", "addon-"]) {
        400
    } else {
        0
    }
}

/// The top-level fields of a v0.9 facet.
const FACET_FIELDS: &[&str] = &[
    "kind",
    "apiVersion",
    "metadata",
    "ordinal",
    "when",
    "backend",
    "config",
    "requires",
    "terraform",
    "kustomize",
    "flux",
    "crds",
    "substitutions",
    "messages",
];

/// Parses a facet document. `file` is its path relative to the project;
/// `v09` selects the Windsor v0.9 format (W10).
pub fn parse(doc: &Value, file: &str, v09: bool) -> Result<Facet, Vec<Error>> {
    let base = file.rsplit('/').next().unwrap_or(file);
    let mut r = Reader {
        file,
        v09,
        errors: Vec::new(),
    };
    let Some(root) = doc.as_map() else {
        r.fail("", format!("a facet must be a mapping, got {}", doc.type_name()));
        return Err(r.errors);
    };
    match root.get("kind").and_then(Value::as_str) {
        Some("Facet" | "Feature") => {}
        Some(other) => r.fail("kind", format!("unknown kind {other:?} (expected Facet or Feature)")),
        None => r.fail("kind", "missing kind (expected Facet or Feature)"),
    }
    if v09 {
        r.fields(root, FACET_FIELDS, "");
    }
    let name = match root.get("metadata").and_then(Value::as_map).and_then(|m| m.get("name")) {
        Some(Value::Str(n)) if !n.is_empty() => n.to_string(),
        _ => {
            r.fail("metadata.name", "a facet needs a name");
            String::new()
        }
    };
    let ordinal = match root.get("ordinal") {
        None | Some(Value::Null) => ordinal_from_basename(base),
        Some(Value::Int(n)) => *n,
        Some(other) => {
            r.fail(
                "ordinal",
                format!("an ordinal must be an integer, got {}", other.type_name()),
            );
            0
        }
    };
    let when = r.when(root.get("when"), "");
    let config = config::blocks(&mut r, root);
    let parts = parts::parts_of(&mut r, root, v09);
    let mut facet = Facet {
        name,
        file: file.to_string(),
        ordinal,
        when,
        config,
        parts,
        requires: Vec::new(),
        flux: Vec::new(),
        crds: None,
        substitutions: None,
        messages: Vec::new(),
        backend: None,
    };
    if v09 {
        v09::read(&mut r, root, &mut facet);
    }
    if r.errors.is_empty() { Ok(facet) } else { Err(r.errors) }
}

/// The components of the base `blueprint.yaml`, compiled like a facet's
/// (their inputs may have `${…}` too).
pub fn base_parts(doc: &Value, file: &str, v09: bool) -> Result<Vec<Part>, Vec<Error>> {
    let mut r = Reader {
        file,
        v09,
        errors: Vec::new(),
    };
    let parts = doc
        .as_map()
        .map(|root| parts::parts_of(&mut r, root, false))
        .unwrap_or_default();
    if r.errors.is_empty() { Ok(parts) } else { Err(r.errors) }
}
