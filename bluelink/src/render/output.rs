//! The materialised blueprint: the document's structure and key order,
//! each definition's resolved value added under `value` (or `exports`),
//! resources with `condition` and `each` applied.

use super::results::{ChildOut, DataOut, Instance, ResourceOut, Results};
use crate::blueprint::Blueprint;
use crate::resolved::Resolved;
use bpvm_runtime::{Map, Value};

/// Builds the output document. Each resource's results are dropped once
/// written into it, so a render does not hold both whole.
pub(super) fn document(bp: &Blueprint, out: &mut Results, mask: bool) -> Value {
    let empty = Map::new();
    let top = bp.value.as_map().unwrap_or(&empty);
    let mut doc = Map::with_capacity(top.len());
    for (key, value) in top.iter() {
        let v = match key.as_str() {
            "variables" => section(value, |i, def| {
                let mut m = literal_map(def);
                put(&mut m, "value", out.variables[i].as_ref(), mask);
                Some(m)
            }),
            "values" => section(value, |i, def| {
                Some(fields(def, |key, node| match key {
                    "value" => out.values[i].as_ref().and_then(|r| r.output(mask)),
                    "description" => out.value_descriptions[i].as_ref().and_then(|r| r.output(mask)),
                    _ => Some(node.clone()),
                }))
            }),
            "datasources" => section(value, |i, def| {
                Some(datasource(def, out.datasources[i].as_ref()?, mask))
            }),
            "resources" => {
                let defs = value.as_map().unwrap_or(&empty);
                let mut m = Map::with_capacity(defs.len());
                for (i, (_, def)) in defs.iter().enumerate() {
                    if let Some(ResourceOut::Present {
                        instances,
                        condition_deferred,
                    }) = out.resources[i].take()
                    {
                        for inst in instances {
                            m.insert(
                                inst.name.as_str(),
                                Value::Map(resource(def, &inst, condition_deferred, mask)),
                            );
                        }
                    }
                }
                Value::Map(m)
            }
            "include" => section(value, |i, def| Some(include(def, out.children[i].as_ref()?, mask))),
            "exports" => section(value, |i, def| {
                let mut m = fields(def, |key, node| match key {
                    "description" => out.export_descriptions[i].as_ref().and_then(|r| r.output(mask)),
                    _ => Some(node.clone()),
                });
                put(&mut m, "value", out.exports[i].as_ref(), mask);
                Some(m)
            }),
            "metadata" => match out.metadata.as_ref().and_then(|r| r.output(mask)) {
                Some(v) => v,
                None => continue,
            },
            _ => value.clone(),
        };
        doc.insert(key.clone(), v);
    }
    Value::Map(doc)
}

/// A section of named definitions, each rendered by `f` from its position
/// (a rendered blueprint is valid, so its definitions are the section's
/// entries in order); `None` leaves it out.
fn section(node: &Value, mut f: impl FnMut(usize, &Value) -> Option<Map>) -> Value {
    let Some(defs) = node.as_map() else {
        return node.clone();
    };
    let mut m = Map::with_capacity(defs.len());
    for (i, (key, def)) in defs.iter().enumerate() {
        if let Some(def) = f(i, def) {
            m.insert(key.clone(), Value::Map(def));
        }
    }
    Value::Map(m)
}

/// A definition's fields in document order, each as `f` gives it.
fn fields(def: &Value, mut f: impl FnMut(&str, &Value) -> Option<Value>) -> Map {
    let Some(entries) = def.as_map() else {
        return Map::new();
    };
    let mut out = Vec::with_capacity(entries.len() + 1);
    for (key, value) in entries.iter() {
        if let Some(v) = f(key.as_str(), value) {
            out.push((key.clone(), v));
        }
    }
    Map::from_distinct(out)
}

fn literal_map(def: &Value) -> Map {
    def.as_map().cloned().unwrap_or_default()
}

fn put(m: &mut Map, key: &str, r: Option<&Resolved>, mask: bool) {
    if let Some(v) = r.and_then(|r| r.output(mask)) {
        m.insert(key, v);
    }
}

fn datasource(def: &Value, d: &DataOut, mask: bool) -> Map {
    let filter = |node: &Value, k: usize| {
        Value::Map(fields(node, |key, n| match key {
            "search" => d.searches.get(k).and_then(|r| r.output(mask)),
            _ => Some(n.clone()),
        }))
    };
    fields(def, |key, node| match key {
        "metadata" => d.metadata.as_ref().and_then(|r| r.output(mask)),
        "description" => d.description.as_ref().and_then(|r| r.output(mask)),
        "filter" => Some(match node {
            Value::List(items) => Value::List(items.iter().enumerate().map(|(k, f)| filter(f, k)).collect()),
            one => filter(one, 0),
        }),
        // `exports: "*"`: every field of the data, each with its value
        // (as written while the data is not known).
        "exports" if node.as_str().is_some() => match &d.fields {
            Some(found) => {
                let mut m = Map::with_capacity(found.len());
                for (name, v) in found {
                    let mut x = Map::with_capacity(1);
                    x.insert("value", v.clone());
                    m.insert(name.as_str(), Value::Map(x));
                }
                Some(Value::Map(m))
            }
            None => Some(node.clone()),
        },
        "exports" => Some(Value::Map(fields(node, |name, x| {
            let mut m = literal_map(x);
            if let Some((_, v)) = d.fields.iter().flatten().find(|(n, _)| n == name) {
                m.insert("value", v.clone());
            }
            Some(Value::Map(m))
        }))),
        _ => Some(node.clone()),
    })
}

fn resource(def: &Value, inst: &Instance, condition_deferred: bool, mask: bool) -> Map {
    let out = |r: &Option<Resolved>| r.as_ref().and_then(|r| r.output(mask));
    let mut m = fields(def, |key, node| match key {
        "spec" => inst.spec.output(mask),
        "description" => out(&inst.description),
        "each" => None,
        "condition" => condition_deferred.then(|| node.clone()),
        "metadata" => Some(Value::Map(fields(node, |k, n| match k {
            "displayName" => out(&inst.display_name),
            "annotations" => out(&inst.annotations),
            "custom" => out(&inst.custom),
            _ => Some(n.clone()),
        }))),
        _ => Some(node.clone()),
    });
    if def.as_map().is_some_and(|m| m.contains_key("linkSelector")) {
        let links = inst.links.iter().map(|n| Value::Str(n.as_str().into())).collect();
        m.insert("links", Value::List(links));
    }
    m
}

fn include(def: &Value, c: &ChildOut, mask: bool) -> Map {
    let mut m = fields(def, |key, node| match key {
        "path" => c.path.output(mask),
        "variables" => c.variables.as_ref().and_then(|r| r.output(mask)),
        "metadata" => c.metadata.as_ref().and_then(|r| r.output(mask)),
        "description" => c.description.as_ref().and_then(|r| r.output(mask)),
        _ => Some(node.clone()),
    });
    let mut exports = Map::new();
    for (name, r) in &c.exports {
        if let Some(v) = r.output(mask) {
            exports.insert(name.as_str(), v);
        }
    }
    m.insert("exports", Value::Map(exports));
    m
}
