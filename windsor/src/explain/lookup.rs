//! Finding things in a render: a value of the scope by its steps, a
//! component or flux system of the blueprint by its identity.

use crate::kind::Kind;
use bpvm_runtime::{Map, Value};

/// The value at `steps` in `m`.
pub(super) fn lookup<'m>(m: &'m Map, steps: &[&str]) -> Option<&'m Value> {
    let (first, rest) = steps.split_first()?;
    rest.iter().try_fold(m.get(first)?, |v, k| v.as_map()?.get(k))
}

/// The component `id` of `kind` in the rendered blueprint.
pub(super) fn component<'b>(blueprint: &'b Value, kind: Kind, id: &str) -> Option<&'b Map> {
    listed(blueprint, kind.key(), id)
}

/// The entry of the blueprint's `list` whose identity is `id`: its `name`,
/// else (terraform) its `path`.
pub(super) fn listed<'b>(blueprint: &'b Value, list: &str, id: &str) -> Option<&'b Map> {
    let Some(Value::List(items)) = blueprint.as_map()?.get(list) else {
        return None;
    };
    items.iter().filter_map(Value::as_map).find(|c| {
        let name = c.get("name").and_then(Value::as_str);
        let path = c.get("path").and_then(Value::as_str).filter(|_| list == "terraform");
        name.or(path) == Some(id)
    })
}
