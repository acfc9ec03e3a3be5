//! The names a Windsor expression can read after a path: the schema's
//! properties there, the config blocks' names and keys, the keys the
//! contexts' values set and the values Windsor sets itself; at the start of a path, the top-level names and
//! the functions of the template's format.

use super::expression::{Step, Typed};
use super::functions::{function_items, predicate_items};
use super::item::item;
use super::project::Declared;
use super::schema::{description_of, properties_at, type_of};
use bpvm::Value;
use bpvm::windsor::check::set_by_windsor;
use bpvm::windsor::compiler_for;
use bpvm::windsor::format::Format;
use lsp_types::{CompletionItem, CompletionItemKind};

/// The completions of the path `typed` in a project declaring
/// `declared`.
pub fn value_items(declared: &Declared, typed: &Typed) -> Vec<CompletionItem> {
    let steps = &typed.steps;
    let kind = if steps.is_empty() {
        CompletionItemKind::VARIABLE
    } else {
        CompletionItemKind::FIELD
    };
    let mut out: Vec<CompletionItem> = Vec::new();
    let mut add = |found: CompletionItem| {
        if !out.iter().any(|o| o.label == found.label) {
            out.push(found);
        }
    };
    if let Some(schema) = &declared.schema {
        for (name, property) in properties_at(schema, steps) {
            let detail = type_of(schema, property).unwrap_or_else(|| "schema property".into());
            add(item(name, kind, Some(detail), description_of(schema, property)));
        }
    }
    for block in &declared.blocks {
        for name in block_keys(&block.name, &block.body, steps) {
            add(item(&name, kind, Some(format!("config block, {}", block.file)), None));
        }
    }
    for (context, values) in &declared.contexts {
        for name in keys_at(values, steps) {
            add(item(name, kind, Some(format!("value of context {context}")), None));
        }
    }
    let v09 = declared.format != Some(Format::Seed);
    for path in set_by_windsor(v09) {
        let under = path.len() > steps.len() && steps.iter().zip(path).all(|(s, p)| *s == Step::Key(p.to_string()));
        if under {
            add(item(path[steps.len()], kind, Some("set by Windsor".into()), None));
        }
    }
    if steps.is_empty() {
        // The v0.9 library when the facets mix both formats: it has every
        // function the seed's has.
        function_items(compiler_for(v09).functions())
            .into_iter()
            .chain(predicate_items())
            .for_each(&mut add);
    }
    out
}

/// The names a config block named `name` (a dotted path) with value
/// `body` puts after `steps`: the next part of its name, or the keys of
/// its value.
fn block_keys(name: &str, body: &Value, steps: &[Step]) -> Vec<String> {
    let parts: Vec<&str> = name.split('.').collect();
    let on_the_name = steps.iter().zip(&parts).all(|(s, p)| *s == Step::Key(p.to_string()));
    if !on_the_name {
        return Vec::new();
    }
    match parts.get(steps.len()) {
        Some(next) => vec![next.to_string()],
        None => keys_at(body, &steps[parts.len()..])
            .into_iter()
            .map(str::to_string)
            .collect(),
    }
}

/// The keys of the mappings `value` holds at `steps` (a list's items
/// each).
fn keys_at<'v>(value: &'v Value, steps: &[Step]) -> Vec<&'v str> {
    let Some((step, rest)) = steps.split_first() else {
        return match value {
            Value::Map(m) => m.keys().map(|k| k.as_str()).collect(),
            _ => Vec::new(),
        };
    };
    match (value, step) {
        (Value::Map(m), Step::Key(k)) => m.get(k).map_or_else(Vec::new, |v| keys_at(v, rest)),
        (Value::List(items), Step::Item) => items.iter().flat_map(|v| keys_at(v, rest)).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(k: &str) -> Step {
        Step::Key(k.to_string())
    }

    #[test]
    fn a_dotted_block_name_gives_its_parts_then_its_keys() {
        let body = Value::from_yaml("endpoint: x\nsettings: {a: 1}\n").unwrap();
        assert_eq!(block_keys("cluster.talos", &body, &[]), ["cluster"]);
        assert_eq!(block_keys("cluster.talos", &body, &[key("cluster")]), ["talos"]);
        let inside = block_keys("cluster.talos", &body, &[key("cluster"), key("talos")]);
        assert_eq!(inside, ["endpoint", "settings"]);
        assert_eq!(
            block_keys("cluster.talos", &body, &[key("cluster"), key("talos"), key("settings")]),
            ["a"]
        );
        assert!(block_keys("cluster.talos", &body, &[key("network")]).is_empty());
    }

    #[test]
    fn values_are_followed_through_maps_and_lists() {
        let v = Value::from_yaml("nodes: [{host: a}, {ip: b}]\nx: 1\n").unwrap();
        assert_eq!(keys_at(&v, &[]), ["nodes", "x"]);
        assert_eq!(keys_at(&v, &[key("nodes"), Step::Item]), ["host", "ip"]);
        assert!(keys_at(&v, &[key("x")]).is_empty());
    }
}
