//! Resources and data sources in `.bp`: `foreach`, `select by label`,
//! conditions, metadata, filters and data source exports.

use super::expr::{scalar, value};
use super::fields::{block, declaration, lines, plain_of, text_field, type_of, unknown};
use super::refusal::{Refused, refused};
use super::words::pad;
use super::words::{decl_name, key};
use crate::node::{Entry, Kind, Node};

pub(super) fn resource(decl: &Entry) -> Result<String, Refused> {
    let ty = type_of(decl, &[], true)?;
    if decl.value.get("spec").is_none() {
        return Err(refused(
            decl.key_at,
            format!("the resource {:?} has no spec, which .bp requires", decl.key.as_str()),
        ));
    }
    let lines = lines(decl, &["type"], "resource", |e| {
        let v = &e.value;
        Ok(Some(match e.key.as_str() {
            "description" => format!("description = {}", text_field(v, 1)?),
            "condition" => format!("condition = {}", condition(v, 1)?),
            "dependsOn" => format!("dependsOn = {}", names(v)?),
            "each" => format!("foreach {}", sub(v)?),
            "linkSelector" => select(e)?,
            "removalPolicy" => format!("removalPolicy = {}", plain_of(v, "removalPolicy")?),
            "metadata" => format!("metadata {}", metadata(e, true)?),
            "spec" => format!("spec {}", block(v, 1)?),
            _ => return Ok(None),
        }))
    })?;
    let header = format!("resource {}: {ty}", decl_name(&decl.key, decl.key_at)?);
    Ok(declaration(&header, lines))
}

/// A scalar where `.bp` reads a string or an expression.
fn sub(v: &Node) -> Result<String, Refused> {
    match &v.kind {
        Kind::Scalar(x) => scalar(x, v.at, 1),
        _ => Err(refused(
            v.at,
            format!("this field is a string or a substitution in .bp, not {}", v.describe()),
        )),
    }
}

/// `{ and = […] }`, `{ or = […] }`, `{ not = c }`, or an expression.
fn condition(v: &Node, level: usize) -> Result<String, Refused> {
    let Kind::Map(entries) = &v.kind else {
        return sub(v);
    };
    let [e] = entries.as_slice() else {
        return Err(refused(v.at, "a condition mapping has exactly one of and, or, not"));
    };
    let inner = match (e.key.as_str(), &e.value.kind) {
        ("and" | "or", Kind::List(items)) => {
            let mut out = String::from("[\n");
            for (k, item) in items.iter().enumerate() {
                out.push_str(&pad(level + 2));
                out.push_str(&condition(item, level + 2)?);
                out.push_str(if k + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&pad(level + 1));
            out.push(']');
            out
        }
        ("not", _) => condition(&e.value, level + 1)?,
        _ => return Err(unknown(e, "a condition takes one of and (a list), or (a list), not")),
    };
    Ok(format!(
        "{{\n{}{} = {inner}\n{}}}",
        pad(level + 1),
        e.key.as_str(),
        pad(level)
    ))
}

/// Resource names (`dependsOn`, `exclude`): `"a"` or `["a", "b"]`.
fn names(v: &Node) -> Result<String, Refused> {
    match &v.kind {
        Kind::List(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|i| plain_of(i, "a resource name"))
                .collect::<Result<_, _>>()?;
            Ok(format!("[{}]", items.join(", ")))
        }
        _ => plain_of(v, "a resource name"),
    }
}

/// `select by label { k = "v" … exclude = […] }`.
fn select(e: &Entry) -> Result<String, Refused> {
    let mut lines = Vec::new();
    for f in e
        .value
        .entries()
        .ok_or_else(|| refused(e.value.at, "linkSelector is a mapping"))?
    {
        match f.key.as_str() {
            "byLabel" => {
                for l in f
                    .value
                    .entries()
                    .ok_or_else(|| refused(f.value.at, "byLabel is a mapping"))?
                {
                    if l.key.as_str() == "exclude" {
                        return Err(unknown(
                            l,
                            "the label \"exclude\" (a word 'select by label' keeps for its exclusions)",
                        ));
                    }
                    lines.push(format!(
                        "{} = {}",
                        key(&l.key, l.key_at)?,
                        plain_of(&l.value, "a label's value")?
                    ));
                }
            }
            "exclude" => lines.push(format!("exclude = {}", names(&f.value)?)),
            _ => {
                return Err(unknown(
                    f,
                    &format!("{:?} is not a field of linkSelector", f.key.as_str()),
                ));
            }
        }
    }
    Ok(nested("select by label", lines))
}

/// `{ … }` at level 1, its lines at level 2.
fn nested(head: &str, lines: Vec<String>) -> String {
    if lines.is_empty() {
        return format!("{head} {{}}");
    }
    let mut out = format!("{head} {{\n");
    for line in lines {
        out.push_str(&pad(2));
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&pad(1));
    out.push('}');
    out
}

/// A resource's (`labels`) or a data source's metadata, as its block.
fn metadata(e: &Entry, labels: bool) -> Result<String, Refused> {
    let place = if labels {
        "resource's metadata"
    } else {
        "data source's metadata"
    };
    let entries = e
        .value
        .entries()
        .ok_or_else(|| refused(e.value.at, "metadata is a mapping"))?;
    let mut lines = Vec::new();
    for f in entries {
        let v = &f.value;
        lines.push(match f.key.as_str() {
            "displayName" => format!("displayName = {}", text_field(v, 2)?),
            "labels" if labels => format!("labels = {}", object(v, |l| plain_of(l, "a label's value"))?),
            "annotations" => format!("annotations = {}", object(v, sub)?),
            "custom" => format!("custom = {}", value(v, 2)?),
            _ => return Err(unknown(f, &format!("{:?} is not a field of a {place}", f.key.as_str()))),
        });
    }
    Ok(nested("", lines).trim_start().to_string())
}

/// `{ k = v, … }` at level 2, each value printed by `item`.
fn object(v: &Node, item: fn(&Node) -> Result<String, Refused>) -> Result<String, Refused> {
    let entries = v.entries().ok_or_else(|| refused(v.at, "this field is a mapping"))?;
    if entries.is_empty() {
        return Ok("{}".into());
    }
    let mut out = String::from("{\n");
    for (k, f) in entries.iter().enumerate() {
        out.push_str(&format!("{}{} = {}", pad(3), key(&f.key, f.key_at)?, item(&f.value)?));
        out.push_str(if k + 1 < entries.len() { ",\n" } else { "\n" });
    }
    out.push_str(&pad(2));
    out.push('}');
    Ok(out)
}

pub(super) fn data(decl: &Entry) -> Result<String, Refused> {
    let ty = type_of(decl, &[], true)?;
    let mut out = Vec::new();
    for line in lines(decl, &["type"], "data source", |e| {
        let v = &e.value;
        Ok(Some(match e.key.as_str() {
            "description" => format!("description = {}", text_field(v, 1)?),
            "metadata" => format!("metadata {}", metadata(e, false)?),
            "filter" => filters(v)?,
            "exports" => exports(v)?,
            _ => return Ok(None),
        }))
    })? {
        out.push(line);
    }
    let header = format!("data {}: {ty}", decl_name(&decl.key, decl.key_at)?);
    Ok(declaration(&header, out))
}

/// One `filter "field" op search` line per filter.
fn filters(v: &Node) -> Result<String, Refused> {
    let one = std::slice::from_ref(v);
    let items = match &v.kind {
        Kind::List(items) => items.as_slice(),
        _ => one,
    };
    let mut lines = Vec::new();
    for f in items {
        let part = |k: &str| {
            f.get(k)
                .ok_or_else(|| refused(f.at, format!("a filter without {k} cannot be written in .bp")))
        };
        let field = plain_of(part("field")?, "a filter's field")?;
        let op_node = part("operator")?;
        let op = match op_node.as_str() {
            Some("=") => "==".to_string(),
            Some(o @ ("!=" | ">" | "<" | ">=" | "<=")) => o.to_string(),
            Some(o) if OPERATORS.contains(&o.strip_prefix("not ").unwrap_or(o)) => o.to_string(),
            _ => return Err(refused(op_node.at, "this filter operator cannot be written in .bp")),
        };
        let search = part("search")?;
        let search = match &search.kind {
            Kind::List(items) => {
                let items: Vec<String> = items.iter().map(sub).collect::<Result<_, _>>()?;
                format!("[{}]", items.join(", "))
            }
            _ => sub(search)?,
        };
        lines.push(format!("filter {field} {op} {search}"));
    }
    Ok(lines.join("\n    "))
}

const OPERATORS: &[&str] = &["in", "has key", "contains", "starts with", "ends with"];

/// `export *`, or one `export [source as] name: type [{ … }]` per export.
fn exports(v: &Node) -> Result<String, Refused> {
    if v.as_str() == Some("*") {
        return Ok("export *".into());
    }
    let entries = v
        .entries()
        .ok_or_else(|| refused(v.at, "a data source's exports are \"*\" or a mapping"))?;
    let mut lines = Vec::new();
    for e in entries {
        let ty = type_of(e, &["string", "integer", "float", "boolean", "array"], false)?;
        let mut head = format!("export {}: {ty}", decl_name(&e.key, e.key_at)?);
        let mut inner = Vec::new();
        for f in e.value.entries().unwrap_or_default() {
            match f.key.as_str() {
                "type" => {}
                "aliasFor" => {
                    let source = f
                        .value
                        .as_str()
                        .ok_or_else(|| refused(f.value.at, "aliasFor is a string"))?;
                    head = format!(
                        "export {} as {}: {ty}",
                        decl_name(source, f.value.at)?,
                        decl_name(&e.key, e.key_at)?
                    );
                }
                "description" => inner.push(format!("description = {}", text_field(&f.value, 2)?)),
                _ => {
                    return Err(unknown(
                        f,
                        &format!("{:?} is not a field of a data source export", f.key.as_str()),
                    ));
                }
            }
        }
        lines.push(if inner.is_empty() { head } else { nested(&head, inner) });
    }
    Ok(lines.join("\n    "))
}
