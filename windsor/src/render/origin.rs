//! Which file wrote a component's `dependsOn`. Dependency errors (a
//! cycle, a name nothing defines) are found in the composed blueprint,
//! where the files its components came from are forgotten; this finds
//! the file again, so that the message has its file:line:column.

use crate::error::Error;
use crate::load::facet::Facet;
use crate::load::project::{Project, TEMPLATE, read_yaml};
use crate::template::tmpl::Tmpl;
use bpvm_runtime::{Map, Value};

/// Gives each error about a `dependsOn` (`terraform[id].dependsOn`,
/// `kustomize[id].dependsOn`) that has no file the file that wrote that
/// `dependsOn`: the first of the `facets` included, else the context's
/// own blueprint, else the template's.
pub(crate) fn place(errors: &mut [Error], facets: &[&Facet], project: &Project, context: &str) {
    for e in errors.iter_mut().filter(|e| e.file.is_none()) {
        let Some((list, id)) = depends_on(&e.at) else { continue };
        let in_facet = facets.iter().find(|f| {
            f.parts
                .iter()
                .any(|p| p.kind.key() == list && p.id == id && has_key(&p.body, "dependsOn"))
        });
        e.file = match in_facet {
            Some(f) => Some(f.file.clone()),
            None => in_blueprint(project, context, list, id),
        };
    }
}

/// `(list, id)` of a path `list[id].dependsOn`.
fn depends_on(at: &str) -> Option<(&str, &str)> {
    let (list, rest) = at.split_once('[')?;
    let id = rest.strip_suffix("].dependsOn")?;
    matches!(list, "terraform" | "kustomize").then_some((list, id))
}

/// Whether the template of a mapping has `key`.
fn has_key(t: &Tmpl, key: &str) -> bool {
    match t {
        Tmpl::Map(entries) => entries.iter().any(|(k, _)| &**k == key),
        Tmpl::Lit(Value::Map(m)) => m.contains_key(key),
        _ => false,
    }
}

/// The blueprint file (the context's, then the template's) whose `list`
/// has a component `id` with a `dependsOn`.
fn in_blueprint(project: &Project, context: &str, list: &str, id: &str) -> Option<String> {
    let own = format!("contexts/{context}/blueprint.yaml");
    let template = format!("{TEMPLATE}/blueprint.yaml");
    [own, template].into_iter().find(|file| {
        read_yaml(&project.root, file)
            .ok()
            .flatten()
            .and_then(|doc| doc.as_map().and_then(|m| m.get(list)).cloned())
            .is_some_and(|items| names_depends_on(&items, id))
    })
}

/// Whether a component list has component `id` with a `dependsOn`.
fn names_depends_on(items: &Value, id: &str) -> bool {
    let Value::List(items) = items else { return false };
    items.iter().filter_map(Value::as_map).any(|c: &Map| {
        let named = ["name", "path"]
            .iter()
            .any(|k| c.get(k).and_then(Value::as_str) == Some(id));
        named && c.contains_key("dependsOn")
    })
}
