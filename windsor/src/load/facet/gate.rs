//! What of a facet file a render that leaves the facet out depends on,
//! as one hash: so that editing the body of a facet one context excludes
//! changes neither that context's cache key nor whether a change affects
//! it.
//!
//! A facet whose condition is false for a context gives that render
//! nothing from its body: its components, config blocks, requirements,
//! substitutions and messages are never evaluated (Windsor v0.9's
//! inclusion rounds included: a facet counts as left out only when its
//! condition held in no round, see `Rendered::took_part`). What it still
//! gives is the decision and what surrounds it: its condition, name,
//! ordinal and file, the forms that choose the project's rules, the ids
//! of what it would provide (a dependency on one of them says which
//! facet left it out), and whether it loads cleanly — an error fails
//! every render and a warning is a note of every render, with its
//! line and column, so a file with either is hashed whole.

use super::{Facet, parse};
use bpvm_runtime::Value;
use bpvm_runtime::root::inputs::hash_value;

/// The hash of what renders that leave out the facet in `bytes` (the
/// file `file`, relative to the project, read by the v0.9 rules when
/// `v09`) depend on: equal for two versions of the file when such a
/// render is the same with either. A file that is not a facet that loads
/// without a warning hashes whole (as its bytes, under its own prefix).
///
/// ```
/// use bpvm_windsor::facet_left_out;
/// let facet = |body: &str| format!(
///     "kind: Facet\napiVersion: blueprints.windsorcli.dev/v1alpha1\nmetadata:\n  name: dev\n\
///      when: dev == true\nkustomize:\n  - name: ingress\n    substitutions:\n      replicas: \"{body}\"\n");
/// let file = "contexts/_template/facets/option-dev.yaml";
/// let one = facet_left_out(file, facet("1").as_bytes(), false);
/// assert_eq!(one, facet_left_out(file, facet("2").as_bytes(), false));
/// let other_condition = facet("1").replace("dev == true", "dev == false");
/// assert_ne!(one, facet_left_out(file, other_condition.as_bytes(), false));
/// ```
pub fn facet_left_out(file: &str, bytes: &[u8], v09: bool) -> [u8; 32] {
    let parsed = std::str::from_utf8(bytes).ok().and_then(|text| {
        let doc = Value::from_yaml_as(text, bpvm_runtime::Typing::GoYaml).ok()?;
        let mut warnings = Vec::new();
        let facet = parse(&doc, file, v09, &mut warnings).ok()?;
        warnings.is_empty().then(|| left_out(&doc, &facet, v09))
    });
    parsed.unwrap_or_else(|| hash_value(&[b"whole\0".as_slice(), bytes].concat()))
}

/// The hash of the decisive parts of the facet `f` parsed from `doc`
/// (without a warning): what [`facet_left_out`] gives for its file. The
/// loader notes it in each facet, so that a batch need not parse a facet
/// again to name what a render that left it out depends on.
pub fn left_out(doc: &Value, f: &Facet, v09: bool) -> [u8; 32] {
    let mut out = String::from("facet-left-out-1\0");
    let mut put = |part: &str| {
        out.push_str(&part.len().to_string());
        out.push(':');
        out.push_str(part);
    };
    put(&f.file);
    put(if v09 { "v0.9" } else { "seed" });
    put(&f.name);
    put(&f.ordinal.to_string());
    put(f.when.as_ref().map_or("", |c| c.src.as_str()));
    put(doc
        .as_map()
        .and_then(|m| m.get("kind"))
        .and_then(Value::as_str)
        .unwrap_or(""));
    let (seed, v09_form) = crate::format::forms(&f.file, doc);
    for form in [seed, v09_form] {
        put(&form
            .map(|form| format!("{}\0{}", form.at, form.what))
            .unwrap_or_default());
    }
    for id in provides(f) {
        put(&id);
    }
    hash_value(out.as_bytes())
}

/// What the facet would give, as a dangling dependency names it.
fn provides(f: &Facet) -> Vec<String> {
    let mut ids: Vec<String> = f.parts.iter().map(|p| format!("{}\0{}", p.kind.key(), p.id)).collect();
    for s in &f.flux {
        ids.push(format!("flux\0{}", s.name));
        for v in &s.resources {
            if let Some(n) = v.raw.get("name").and_then(Value::as_str) {
                ids.push(format!("flux\0{}\0{n}", s.name));
            }
        }
    }
    ids
}
