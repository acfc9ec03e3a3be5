//! The materialised blueprint: the document's structure and key order,
//! each definition's resolved value added under `value` (or `exports`),
//! resources with `condition` and `each` applied.

use super::blueprint::Blueprint;
use super::node::{Entry, Node};
use super::render::{ChildOut, DataOut, Instance, ResourceOut, Results};
use super::resolved::Resolved;
use bpvm_runtime::{Map, Value};

/// Builds the output document.
pub(super) fn document(bp: &Blueprint, out: &Results, mask: bool) -> Value {
    let mut doc = Map::new();
    for e in bp.doc.entries().unwrap_or(&[]) {
        let v = match e.key.as_str() {
            "variables" => section(&e.value, |name, def| {
                let i = bp.variables.iter().position(|v| v.name == name)?;
                let mut m = literal_map(def);
                put(&mut m, "value", out.variables[i].as_ref(), mask);
                Some(m)
            }),
            "values" => section(&e.value, |name, def| {
                let i = bp.values.iter().position(|v| v.name == name)?;
                Some(fields(def, |key, node| match key {
                    "value" => out.values[i].as_ref().and_then(|r| r.output(mask)),
                    "description" => out.value_descriptions[i].as_ref().and_then(|r| r.output(mask)),
                    _ => Some(node.to_value()),
                }))
            }),
            "datasources" => section(&e.value, |name, def| {
                let i = bp.datasources.iter().position(|d| d.name == name)?;
                Some(datasource(def, out.datasources[i].as_ref()?, mask))
            }),
            "resources" => {
                let mut m = Map::new();
                for r in e.value.entries().unwrap_or(&[]) {
                    let Some(i) = bp.resources.iter().position(|x| x.name == r.key) else {
                        continue;
                    };
                    if let Some(ResourceOut::Present {
                        instances,
                        condition_deferred,
                    }) = &out.resources[i]
                    {
                        for inst in instances {
                            m.insert(
                                inst.name.as_str(),
                                Value::Map(resource(&r.value, inst, *condition_deferred, mask)),
                            );
                        }
                    }
                }
                Value::Map(m)
            }
            "include" => section(&e.value, |name, def| {
                let i = bp.includes.iter().position(|c| c.name == name)?;
                Some(include(def, out.children[i].as_ref()?, mask))
            }),
            "exports" => section(&e.value, |name, def| {
                let i = bp.exports.iter().position(|x| x.name == name)?;
                let mut m = fields(def, |key, node| match key {
                    "description" => out.export_descriptions[i].as_ref().and_then(|r| r.output(mask)),
                    _ => Some(node.to_value()),
                });
                put(&mut m, "value", out.exports[i].as_ref(), mask);
                Some(m)
            }),
            "metadata" => match out.metadata.as_ref().and_then(|r| r.output(mask)) {
                Some(v) => v,
                None => continue,
            },
            _ => e.value.to_value(),
        };
        doc.insert(e.key.as_str(), v);
    }
    Value::Map(doc)
}

/// A section of named definitions, each rendered by `f` (`None` leaves
/// it out).
fn section(node: &Node, mut f: impl FnMut(&str, &Node) -> Option<Map>) -> Value {
    let mut m = Map::new();
    for e in node.entries().unwrap_or(&[]) {
        if let Some(def) = f(&e.key, &e.value) {
            m.insert(e.key.as_str(), Value::Map(def));
        }
    }
    Value::Map(m)
}

/// A definition's fields in document order, each as `f` gives it.
fn fields(def: &Node, mut f: impl FnMut(&str, &Node) -> Option<Value>) -> Map {
    let mut m = Map::new();
    for Entry { key, value, .. } in def.entries().unwrap_or(&[]) {
        if let Some(v) = f(key, value) {
            m.insert(key.as_str(), v);
        }
    }
    m
}

fn literal_map(def: &Node) -> Map {
    fields(def, |_, node| Some(node.to_value()))
}

fn put(m: &mut Map, key: &str, r: Option<&Resolved>, mask: bool) {
    if let Some(v) = r.and_then(|r| r.output(mask)) {
        m.insert(key, v);
    }
}

fn datasource(def: &Node, d: &DataOut, mask: bool) -> Map {
    fields(def, |key, node| match key {
        "metadata" => d.metadata.as_ref().and_then(|r| r.output(mask)),
        "description" => d.description.as_ref().and_then(|r| r.output(mask)),
        "filter" => Some(Value::Map(fields(node, |k, n| match k {
            "search" => d.search.output(mask),
            _ => Some(n.to_value()),
        }))),
        "exports" => Some(Value::Map(fields(node, |name, x| {
            let mut m = literal_map(x);
            if let Some((_, v)) = d.fields.iter().find(|(n, _)| n == name) {
                m.insert("value", v.clone());
            }
            Some(Value::Map(m))
        }))),
        _ => Some(node.to_value()),
    })
}

fn resource(def: &Node, inst: &Instance, condition_deferred: bool, mask: bool) -> Map {
    let out = |r: &Option<Resolved>| r.as_ref().and_then(|r| r.output(mask));
    let mut m = fields(def, |key, node| match key {
        "spec" => inst.spec.output(mask),
        "description" => out(&inst.description),
        "each" => None,
        "condition" => condition_deferred.then(|| node.to_value()),
        "metadata" => Some(Value::Map(fields(node, |k, n| match k {
            "displayName" => out(&inst.display_name),
            "annotations" => out(&inst.annotations),
            "custom" => out(&inst.custom),
            _ => Some(n.to_value()),
        }))),
        _ => Some(node.to_value()),
    });
    if def.get("linkSelector").is_some() {
        let links = inst.links.iter().map(|n| Value::Str(n.as_str().into())).collect();
        m.insert("links", Value::List(links));
    }
    m
}

fn include(def: &Node, c: &ChildOut, mask: bool) -> Map {
    let mut m = fields(def, |key, node| match key {
        "path" => c.path.output(mask),
        "variables" => c.variables.as_ref().and_then(|r| r.output(mask)),
        "metadata" => c.metadata.as_ref().and_then(|r| r.output(mask)),
        "description" => c.description.as_ref().and_then(|r| r.output(mask)),
        _ => Some(node.to_value()),
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
