//! The field names a loader accepts where a key is being written: the
//! file kind's shape (the tables `bpvm schema` prints and the loaders
//! check keys against) followed down the keys and list items above the
//! cursor.

use super::key::Nest;
use bpvm::runtime::shape::{Field, Obj, Ty};

/// A field that may be written at a place: its name, a short type and
/// what it is for.
#[derive(Debug, Clone, PartialEq)]
pub struct Offered {
    /// The key.
    pub name: &'static str,
    /// Its type, in a few words (`string`, `list of mappings`), and
    /// whether it is required.
    pub detail: String,
    /// What it is for; empty for a name a loader builds (a rule id).
    pub doc: &'static str,
}

/// The fields of the mapping at `nest` in a document shaped `top`, in
/// table order, each name once; none where the shape says nothing of
/// the keys (free-form values).
///
/// ```
/// use bpvm_lsp::complete::{Nest, fields_at};
/// let facet = bpvm::windsor::schemas::DOCUMENTS[0].ty;
/// let nest = [Nest::Key("terraform".into()), Nest::Item];
/// let names: Vec<&str> = fields_at(&facet, &nest).iter().map(|f| f.name).collect();
/// assert!(names.contains(&"path") && names.contains(&"dependsOn"));
/// ```
pub fn fields_at(top: &Ty, nest: &[Nest]) -> Vec<Offered> {
    let mut here = vec![*top];
    for step in nest {
        here = here.iter().flat_map(|t| inside(t, step)).collect();
    }
    let mut out: Vec<Offered> = Vec::new();
    for t in &here {
        for offered in offered(t) {
            if !out.iter().any(|o| o.name == offered.name) {
                out.push(offered);
            }
        }
    }
    out
}

/// What a value of type `t` holds at `step`.
fn inside(t: &Ty, step: &Nest) -> Vec<Ty> {
    match (t, step) {
        (Ty::Either(options), _) => options.iter().flat_map(|o| inside(o, step)).collect(),
        (Ty::List(item), Nest::Item) => vec![**item],
        (Ty::Names(item) | Ty::Keys(_, item), Nest::Key(_)) => vec![**item],
        (Ty::Obj(obj), Nest::Key(name)) => fields(obj).filter(|f| f.name == name).map(|f| f.ty).collect(),
        _ => Vec::new(),
    }
}

/// The fields a value of type `t` may have.
fn offered(t: &Ty) -> Vec<Offered> {
    match t {
        Ty::Either(options) => options.iter().flat_map(offered).collect(),
        Ty::Obj(obj) => fields(obj)
            .map(|f| Offered {
                name: f.name,
                detail: detail(f),
                doc: f.doc,
            })
            .collect(),
        Ty::Keys(names, item) => names()
            .into_iter()
            .map(|name| Offered {
                name,
                detail: described(item),
                doc: "",
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Every field of `obj`, its tables joined.
fn fields(obj: &'static Obj) -> impl Iterator<Item = &'static Field> {
    obj.fields.iter().copied().flatten()
}

/// A field's type, and `required` when it is.
fn detail(f: &Field) -> String {
    let ty = described(&f.ty);
    if f.required { format!("{ty}, required") } else { ty }
}

/// A type in a few words.
fn described(t: &Ty) -> String {
    match t {
        Ty::Any => "any value".into(),
        Ty::Str => "string".into(),
        Ty::Int => "integer".into(),
        Ty::Num => "number".into(),
        Ty::Bool => "boolean".into(),
        Ty::OneOf(words) => words.join(" | "),
        Ty::List(item) => format!("list of {}", plural(item)),
        Ty::Names(item) | Ty::Keys(_, item) => format!("mapping of names to {}", plural(item)),
        Ty::Obj(_) => "mapping".into(),
        Ty::Either(options) => options.iter().map(described).collect::<Vec<_>>().join(" or "),
    }
}

/// What a list or mapping holds, as a plural.
fn plural(t: &Ty) -> String {
    match t {
        Ty::Obj(_) => "mappings".into(),
        Ty::Str => "strings".into(),
        Ty::Any => "values".into(),
        other => described(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm::windsor::schemas::DOCUMENTS;

    fn names(document: &str, nest: &[Nest]) -> Vec<&'static str> {
        let doc = DOCUMENTS.iter().find(|d| d.name == document).unwrap();
        fields_at(&doc.ty, nest).iter().map(|f| f.name).collect()
    }

    #[test]
    fn fields_follow_keys_and_items_down_the_tables() {
        let flux = [Nest::Key("flux".into()), Nest::Item];
        assert!(names("windsor-facet", &flux).contains(&"name"));
        assert!(names("windsor-facet-seed", &flux).is_empty());
        let top = names("windsor-test", &[]);
        assert!(top.contains(&"cases"), "{top:?}");
        // Free-form values have no fields.
        let inputs = [Nest::Key("terraform".into()), Nest::Item, Nest::Key("inputs".into())];
        assert!(names("windsor-facet", &inputs).is_empty());
        assert!(names("windsor-facet", &[Nest::Key("nothing".into())]).is_empty());
    }

    #[test]
    fn a_required_field_says_so() {
        let doc = DOCUMENTS.iter().find(|d| d.name == "windsor-facet").unwrap();
        let metadata = fields_at(&doc.ty, &[Nest::Key("metadata".into())]);
        let name = metadata.iter().find(|f| f.name == "name").unwrap();
        assert_eq!(name.detail, "string, required");
    }
}
