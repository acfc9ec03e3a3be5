//! The type of the scope every expression of a template runs in: the
//! schema's properties, the values Windsor adds to every context, and
//! the config blocks the facets define.

use super::schema;
use crate::load::facet::Facet;
use crate::template::tmpl::Tmpl;
use bpvm_checker::{Fields, Keys, Ty};
use bpvm_runtime::Value;

/// A path of the scope and the type of what Windsor puts there.
type Set = (&'static [&'static str], fn() -> Ty);

/// Values Windsor sets in every context, whatever the schema says.
const ADDED: &[Set] = &[
    (&["context"], || Ty::Str),
    (&["context_path"], || Ty::Str),
    (&["project_root"], || Ty::Str),
    (&["projectName"], || Ty::Str),
];

/// Values Windsor v0.9 derives from others before composing (see
/// `resolve.rs`).
const DERIVED: &[Set] = &[
    (&["dev"], || Ty::Bool),
    (&["platform"], || Ty::Str),
    (&["workstation", "runtime"], || Ty::Str),
    (&["workstation", "arch"], || Ty::Str),
    (&["workstation", "dns", "address"], || Ty::Str),
    (&["dns", "domain"], || Ty::Str),
    (&["cluster", "driver"], || Ty::Str),
    (&["cluster", "controlplanes", "nodes"], Ty::any_map),
    (&["cluster", "workers", "nodes"], Ty::any_map),
];

/// The paths of the values Windsor sets in every context, and with the
/// v0.9 rules (`v09`) those it derives from others, whatever the schema
/// says.
///
/// ```
/// let paths: Vec<_> = bpvm_windsor::check::set_by_windsor(true).collect();
/// assert!(paths.contains(&&["context"][..]) && paths.contains(&&["dns", "domain"][..]));
/// assert!(!bpvm_windsor::check::set_by_windsor(false).any(|p| p == ["dns", "domain"]));
/// ```
pub fn set_by_windsor(v09: bool) -> impl Iterator<Item = &'static [&'static str]> {
    let derived: &[Set] = if v09 { DERIVED } else { &[] };
    ADDED.iter().chain(derived).map(|(path, _)| *path)
}

/// Whether the value at `path` is one Windsor sets or derives (its values
/// are not the schema's alone).
pub fn is_set_by_windsor(path: &[&str], v09: bool) -> bool {
    let derived: &[Set] = if v09 { DERIVED } else { &[] };
    ADDED
        .iter()
        .chain(derived)
        .any(|(p, _)| path.starts_with(p) || p.starts_with(path))
}

/// The scope's type: `Any` when the template has no schema (nothing is
/// known of the values, so nothing is checked against them).
pub fn root(schema: Option<&Value>, facets: &[Facet], v09: bool) -> Ty {
    let Some(schema) = schema else {
        return Ty::Any;
    };
    let mut root = schema::ty(schema, schema);
    if !matches!(root, Ty::Map(_)) {
        return Ty::Any;
    }
    // `cluster` is always a map (a schema may say more of it).
    if root.field("cluster").is_none_or(|c| !matches!(c, Ty::Map(_))) {
        set_at(&mut root, &["cluster"], Ty::any_map());
    }
    for (path, ty) in ADDED {
        set_at(&mut root, path, ty());
    }
    if v09 {
        for (path, ty) in DERIVED {
            merge_at(&mut root, path, ty());
        }
    }
    for facet in facets {
        for block in &facet.config {
            let path: Vec<&str> = block.name.split('.').collect();
            merge_at(&mut root, &path, body(&block.body));
        }
    }
    root
}

/// The type of a config block's value.
fn body(t: &Tmpl) -> Ty {
    match t {
        Tmpl::Lit(v) => Ty::of(v, Keys::Exact),
        Tmpl::Text { .. } => Ty::Any,
        Tmpl::List(items) => Ty::List(Box::new(items.iter().map(body).reduce(Ty::or).unwrap_or(Ty::Any))),
        Tmpl::Map(entries) => Ty::map(Fields {
            known: entries.iter().map(|(k, t)| (k.to_string(), body(t))).collect(),
            rest: None,
        }),
    }
}

/// `t` at `path` replaced by `ty`.
fn set_at(t: &mut Ty, path: &[&str], ty: Ty) {
    place(t, path, ty, |_, new| new);
}

/// `ty` merged into what `t` has at `path`.
fn merge_at(t: &mut Ty, path: &[&str], ty: Ty) {
    place(t, path, ty, merge);
}

fn place(t: &mut Ty, path: &[&str], ty: Ty, how: fn(Ty, Ty) -> Ty) {
    let Some((first, rest)) = path.split_first() else {
        let old = std::mem::replace(t, Ty::Any);
        *t = how(old, ty);
        return;
    };
    if let Ty::Map(fields) = t {
        let slot = fields.known.entry(first.to_string()).or_insert_with(|| {
            if rest.is_empty() {
                Ty::Nil
            } else {
                Ty::map(Fields::default())
            }
        });
        if rest.is_empty() && *slot == Ty::Nil {
            *slot = ty;
        } else {
            place(slot, rest, ty, how);
        }
    }
}

/// Both types' fields: maps merge key by key (as config blocks and
/// values do), anything else is either.
fn merge(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Map(mut x), Ty::Map(y)) => {
            for (k, t) in y.known {
                let merged = match x.known.remove(&k) {
                    Some(old) => merge(old, t),
                    None => t,
                };
                x.known.insert(k, merged);
            }
            x.rest = match (x.rest, y.rest) {
                (None, None) => None,
                (Some(r), None) | (None, Some(r)) => Some(r),
                (Some(r), Some(s)) => Some(r.or(s)),
            };
            Ty::Map(x)
        }
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windsor_values_join_a_closed_schema() {
        let s = Value::from_yaml("type: object\nadditionalProperties: false\nproperties: {provider: {type: string}}\n")
            .unwrap();
        let t = root(Some(&s), &[], true);
        assert_eq!(t.field("context"), Some(Ty::Str));
        assert_eq!(t.field("provider"), Some(Ty::Str));
        assert_eq!(t.field("workstation").and_then(|w| w.field("runtime")), Some(Ty::Str));
        assert_eq!(t.field("cluster").and_then(|c| c.field("anything")), Some(Ty::Any));
        assert_eq!(t.field("nothing"), None);
        assert!(is_set_by_windsor(&["workstation", "runtime"], true));
        assert!(!is_set_by_windsor(&["workstation", "runtime"], false));
    }
}
