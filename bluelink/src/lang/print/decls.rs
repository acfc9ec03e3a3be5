//! The canonical `.bp` text of a document tree: the directives and
//! declarations in the tree's order, one blank line between them; in each
//! block the fields in the tree's order (`type`, and an include's `path`,
//! go in the header), one per line, indented by four spaces.

use super::expr::{scalar, string, value};
use super::fields::{block, boolean, declaration, lines, plain_of, text_field, type_of, unknown};
use super::refusal::{Refused, refused};
use super::words::decl_name;
use crate::node::{Entry, Kind, Node};
use bpvm_runtime::Value;

/// The document's `.bp` text.
pub(super) fn document(doc: &Node) -> Result<String, Refused> {
    let entries = doc
        .entries()
        .ok_or_else(|| refused(doc.at, "a blueprint is a mapping"))?;
    let mut items = Vec::new();
    for e in entries {
        let above = super::notes::above(e.key_at, 0);
        let first = items.len();
        match e.key.as_str() {
            "version" => items.push(format!("version {}\n", plain_of(&e.value, "the version")?)),
            "transform" => items.push(transform(&e.value)?),
            "metadata" => items.push(format!("metadata {}\n", block(&e.value, 0)?)),
            "variables" => each(&e.value, &mut items, variable)?,
            "values" => each(&e.value, &mut items, value_decl)?,
            "include" => each(&e.value, &mut items, include)?,
            "resources" => each(&e.value, &mut items, super::resource::resource)?,
            "datasources" => each(&e.value, &mut items, super::resource::data)?,
            "exports" => each(&e.value, &mut items, export)?,
            other => return Err(unknown(e, &format!("{other:?} is not a section of a blueprint"))),
        }
        // Above a section's key: above its first declaration.
        if let Some(item) = items.get_mut(first) {
            item.insert_str(0, &above);
        }
    }
    Ok(items.join("\n"))
}

/// Each declaration of a section, printed by `print`.
fn each(section: &Node, items: &mut Vec<String>, print: fn(&Entry) -> Result<String, Refused>) -> Result<(), Refused> {
    let entries = section
        .entries()
        .ok_or_else(|| refused(section.at, "a section of a blueprint is a mapping of names"))?;
    for e in entries {
        let above = super::notes::above(e.key_at, 0);
        items.push(above + &print(e)?);
    }
    Ok(())
}

fn transform(node: &Node) -> Result<String, Refused> {
    match &node.kind {
        Kind::List(items) => {
            let items: Vec<String> = items
                .iter()
                .map(|i| plain_of(i, "a transform"))
                .collect::<Result<_, _>>()?;
            Ok(format!("transform [{}]\n", items.join(", ")))
        }
        _ => Ok(format!("transform {}\n", plain_of(node, "the transform")?)),
    }
}

const VALUE_TYPES: &[&str] = &["string", "integer", "float", "boolean", "array", "object"];

fn variable(decl: &Entry) -> Result<String, Refused> {
    let ty = type_of(decl, &VALUE_TYPES[..4], true)?;
    let lines = lines(decl, &["type"], "variable", |e| {
        let v = &e.value;
        Ok(Some(match e.key.as_str() {
            "default" => format!("default = {}", literal(v)?),
            "description" => format!("description = {}", static_string(v)?),
            "secret" => format!("secret = {}", boolean(v)?),
            "allowedValues" => {
                let Kind::List(items) = &v.kind else {
                    return Err(refused(v.at, "allowedValues is a list"));
                };
                let items: Vec<String> = items.iter().map(literal).collect::<Result<_, _>>()?;
                format!("allowedValues = [{}]", items.join(", "))
            }
            _ => return Ok(None),
        }))
    })?;
    let header = format!("variable {}: {ty}", decl_name(&decl.key, decl.key_at)?);
    Ok(declaration(&header, lines))
}

/// A literal: a string without `${`, a number or a boolean.
fn literal(v: &Node) -> Result<String, Refused> {
    match &v.kind {
        Kind::Scalar(Value::Str(_)) => static_string(v),
        Kind::Scalar(x @ (Value::Int(_) | Value::Float(_) | Value::Bool(_))) => scalar(x, v.at, 1),
        _ => Err(refused(
            v.at,
            format!("a variable's values are literals in .bp, not {}", v.describe()),
        )),
    }
}

/// A string without `${…}`, single- or multi-line.
fn static_string(v: &Node) -> Result<String, Refused> {
    match v.as_str() {
        Some(s) if !s.contains("${") => string(s, v.at, 1, false),
        Some(_) => Err(refused(v.at, "this field takes a string without substitutions in .bp")),
        None => Err(refused(v.at, format!("this field is a string, not {}", v.describe()))),
    }
}

fn value_decl(decl: &Entry) -> Result<String, Refused> {
    let ty = type_of(decl, VALUE_TYPES, false)?;
    let lines = lines(decl, &["type"], "value", |e| {
        let v = &e.value;
        Ok(Some(match e.key.as_str() {
            "value" => format!("value = {}", value(v, 1)?),
            "description" => format!("description = {}", text_field(v, 1)?),
            "secret" => format!("secret = {}", boolean(v)?),
            _ => return Ok(None),
        }))
    })?;
    let header = format!("value {}: {ty}", decl_name(&decl.key, decl.key_at)?);
    Ok(declaration(&header, lines))
}

fn include(decl: &Entry) -> Result<String, Refused> {
    let Some(path) = decl.value.get("path") else {
        return Err(refused(
            decl.key_at,
            format!(
                "the include {:?} has no path, which .bp writes in its header",
                decl.key.as_str()
            ),
        ));
    };
    let path = text_field(path, 0)?;
    let lines = lines(decl, &["path"], "include", |e| {
        let v = &e.value;
        Ok(Some(match e.key.as_str() {
            "description" => format!("description = {}", text_field(v, 1)?),
            "variables" => format!("variables {}", block(v, 1)?),
            "metadata" => format!("metadata {}", block(v, 1)?),
            _ => return Ok(None),
        }))
    })?;
    let header = format!("include {} {path}", decl_name(&decl.key, decl.key_at)?);
    Ok(declaration(&header, lines))
}

fn export(decl: &Entry) -> Result<String, Refused> {
    let ty = type_of(decl, VALUE_TYPES, false)?;
    let lines = lines(decl, &["type"], "export", |e| {
        let v = &e.value;
        Ok(Some(match e.key.as_str() {
            "field" => format!("field = {}", plain_of(v, "an export's field")?),
            "description" => format!("description = {}", text_field(v, 1)?),
            _ => return Ok(None),
        }))
    })?;
    let header = format!("export {}: {ty}", decl_name(&decl.key, decl.key_at)?);
    Ok(declaration(&header, lines))
}
