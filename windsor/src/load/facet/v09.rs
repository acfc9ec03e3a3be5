//! What only a Windsor v0.9 facet has: requirements, flux systems, CRD
//! layers, substitutions, messages and the state backend.

use super::loaded::{Facet, Message};
use super::reader::Reader;
use bpvm_runtime::{Map, Value};

/// Reads the v0.9 fields of `root` into `facet`.
pub(super) fn read(r: &mut Reader, root: &Map, facet: &mut Facet) {
    facet.requires = r.requires(root.get("requires"), "requires");
    if let Some(list) = r.list_at(root, "flux") {
        facet.flux = crate::flux::parse(list, r.file, &mut r.errors, &mut r.warnings);
    }
    if let Some(list) = r.list_at(root, "crds") {
        facet.crds = Some(r.tmpl(&Value::List(list.to_vec()), "crds"));
    }
    match root.get("substitutions") {
        None | Some(Value::Null) => {}
        Some(v @ Value::Map(_)) => facet.substitutions = Some(r.tmpl(v, "substitutions")),
        Some(other) => r.fail("substitutions", format!("must be a mapping, got {}", other.type_name())),
    }
    if let Some(list) = r.list_at(root, "messages") {
        facet.messages = messages(r, list);
    }
    match root.get("backend") {
        None | Some(Value::Null) => {}
        Some(Value::Str(b)) => facet.backend = Some(b.to_string()).filter(|b| !b.is_empty()),
        Some(other) => r.fail(
            "backend",
            format!("must be a component name, got {}", other.type_name()),
        ),
    }
}

/// The `messages:` list; a message without text is left out.
fn messages(r: &mut Reader, list: &[Value]) -> Vec<Message> {
    let mut out = Vec::new();
    for (i, m) in list.iter().enumerate() {
        let at = format!("messages[{i}]");
        let Some(m) = m.as_map() else {
            r.fail(&at, format!("a message must be a mapping, got {}", m.type_name()));
            continue;
        };
        r.fields(m, crate::fields::MESSAGE, &at, crate::fields::Unknown::Ignored);
        let Some(text) = m.get("text").filter(|t| t.as_str().is_some_and(|t| !t.is_empty())) else {
            continue;
        };
        let when = r.when(m.get("when"), &at);
        let text = r.tmpl(text, &format!("{at}.text"));
        out.push(Message { when, text });
    }
    out
}
