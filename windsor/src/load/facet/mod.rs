//! Facets (`kind: Facet`, and the older `kind: Feature`): parsed,
//! checked and compiled once when the project loads. A file is read by
//! one `reader` that collects every problem; its components (`parts`),
//! config blocks (`config`) and Windsor v0.9's own fields (`v09`) each
//! have their module.
//!
//! Imports the leaves, `host`, `template`, `flux` (a facet's systems) and
//! `load::requires`; what a facet is (`loaded`) imports nothing above.

mod config;
mod gate;
mod loaded;
mod parts;
mod reader;
mod shape;
mod v09;

pub use gate::{facet_left_out, left_out};
pub use loaded::{Block, Facet, Message, Part};
pub use shape::{FACET_OBJ, SEED_FACET_OBJ};

use crate::error::Error;
use crate::fields::Unknown;
use bpvm_runtime::Value;
use reader::Reader;
use shape::{FACET_FIELDS, SEED_FACET_FIELDS};

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

/// Parses a facet document. `file` is its path relative to the project;
/// `v09` selects the Windsor v0.9 format (W10). Fields of a newer Windsor
/// go to `warnings`.
pub fn parse(doc: &Value, file: &str, v09: bool, warnings: &mut Vec<Error>) -> Result<Facet, Vec<Error>> {
    let mut r = Reader {
        file,
        v09,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let facet = read(&mut r, doc);
    warnings.append(&mut r.warnings);
    match facet {
        Some(f) if r.errors.is_empty() => Ok(f),
        _ => Err(r.errors),
    }
}

/// The facet `doc`, its problems in `r`.
fn read(r: &mut Reader, doc: &Value) -> Option<Facet> {
    let file = r.file;
    let v09 = r.v09;
    let base = file.rsplit('/').next().unwrap_or(file);
    let Some(root) = doc.as_map() else {
        r.fail("", format!("a facet must be a mapping, got {}", doc.type_name()));
        return None;
    };
    match root.get("kind").and_then(Value::as_str) {
        Some("Facet" | "Feature") => {}
        Some(other) => r.fail("kind", format!("unknown kind {other:?} (expected Facet or Feature)")),
        None => r.fail("kind", "missing kind (expected Facet or Feature)"),
    }
    // A facet's own unknown field has nowhere to go: Windsor ignores it.
    r.fields(
        root,
        if v09 { FACET_FIELDS } else { SEED_FACET_FIELDS },
        "",
        Unknown::Ignored,
    );
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
    let config = config::blocks(r, root);
    let parts = parts::parts_of(r, root, v09);
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
        left_out: None,
    };
    if v09 {
        v09::read(r, root, &mut facet);
    }
    Some(facet)
}

/// The components of the base `blueprint.yaml`, compiled like a facet's
/// (their inputs may have `${…}` too). Its fields of a newer Windsor go
/// to `warnings`; the render passes them into the output.
pub fn base_parts(doc: &Value, file: &str, v09: bool, warnings: &mut Vec<Error>) -> Result<Vec<Part>, Vec<Error>> {
    let mut r = Reader {
        file,
        v09,
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let parts = match doc.as_map() {
        Some(root) => {
            r.fields(root, crate::fields::blueprint(v09), "", Unknown::Kept);
            parts::parts_of(&mut r, root, false)
        }
        None => Vec::new(),
    };
    warnings.append(&mut r.warnings);
    if r.errors.is_empty() { Ok(parts) } else { Err(r.errors) }
}
