//! A facet's config blocks: by the seed rules every key but `name` and
//! `when` is the body; by Windsor v0.9's, `value` is, beside a strategy,
//! an ordinal and requirements.

use super::loaded::Block;
use super::reader::Reader;
use super::shape::BLOCK_FIELDS;
use crate::kind::Strategy;
use bpvm_runtime::{Map, Value};

/// The config blocks of a facet's `config:` list.
pub(super) fn blocks(r: &mut Reader, root: &Map) -> Vec<Block> {
    let Some(list) = r.list_at(root, "config") else {
        return Vec::new();
    };
    list.iter()
        .enumerate()
        .filter_map(|(i, item)| block(r, i, item))
        .collect()
}

/// Item `i` of the `config:` list.
fn block(r: &mut Reader, i: usize, item: &Value) -> Option<Block> {
    let at = format!("config[{i}]");
    let Some(m) = item.as_map() else {
        r.fail(
            &at,
            format!("a config block must be a mapping, got {}", item.type_name()),
        );
        return None;
    };
    let Some(name) = m.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) else {
        r.fail(&at, "a config block needs a name");
        return None;
    };
    let at = format!("config[{name}]");
    let when = r.when(m.get("when"), &at);
    let mut block = if r.v09 {
        v09(r, m, &at)
    } else {
        let mut body = Map::new();
        for (k, v) in m.iter().filter(|(k, _)| !matches!(k.as_str(), "name" | "when")) {
            body.insert(k.clone(), v.clone());
        }
        Block {
            name: String::new(),
            when: None,
            body: r.tmpl(&Value::Map(body), &at),
            strategy: Strategy::Merge,
            ordinal: None,
            requires: Vec::new(),
        }
    };
    block.name = name.to_string();
    block.when = when;
    Some(block)
}

/// A v0.9 block's value, strategy, ordinal and requirements.
fn v09(r: &mut Reader, m: &Map, at: &str) -> Block {
    // A block's value is scope, never output: its other fields have
    // nowhere to go, and Windsor ignores them.
    r.fields(m, BLOCK_FIELDS, at, crate::fields::Unknown::Ignored);
    let value = match m.get("value") {
        Some(Value::Null) => Value::Map(Map::new()),
        Some(v) => v.clone(),
        None => {
            r.fail(at, "a config block needs a value (a scalar, list or mapping)");
            Value::Null
        }
    };
    Block {
        name: String::new(),
        when: None,
        body: r.tmpl(&value, &format!("{at}.value")),
        strategy: r.strategy(m.get("strategy"), at),
        ordinal: r.ordinal(m.get("ordinal"), at),
        requires: r.requires(m.get("requires"), &format!("{at}.requires")),
    }
}
