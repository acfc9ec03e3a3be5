//! What the declarations' blocks share in `.bp`: the block itself, its
//! field lines, the header's type, plain strings, descriptions.

use super::expr::{string, value};
use super::refusal::{Refused, refused};
use super::words::pad;
use super::words::{self, plain};
use crate::node::{Entry, Kind, Node};
use bpvm_runtime::Value;

/// The refusal for the entry `e` that `.bp` has no place for.
pub(super) fn unknown(e: &Entry, why: &str) -> Refused {
    refused(e.key_at, format!("{why}: it cannot be written in .bp"))
}

/// A string scalar that must be a plain string.
pub(super) fn plain_of(node: &Node, what: &str) -> Result<String, Refused> {
    match node.as_str() {
        Some(s) => plain(s, node.at, what),
        None => Err(refused(node.at, format!("{what} is a string"))),
    }
}

/// `{ key = value … }` at `level`: a spec, metadata, an include's
/// variables.
pub(super) fn block(node: &Node, level: usize) -> Result<String, Refused> {
    let entries = node
        .entries()
        .ok_or_else(|| refused(node.at, "this field is a mapping in .bp"))?;
    if entries.is_empty() {
        return Ok("{}".into());
    }
    let mut out = String::from("{\n");
    for e in entries {
        out.push_str(&pad(level + 1));
        out.push_str(&super::notes::above(e.key_at, level + 1));
        out.push_str(&words::key(&e.key, e.key_at)?);
        out.push_str(" = ");
        out.push_str(&value(&e.value, level + 1)?);
        out.push('\n');
    }
    out.push_str(&pad(level));
    out.push('}');
    Ok(out)
}

/// A declaration: `header {`, its field lines, `}`.
pub(super) fn declaration(header: &str, lines: Vec<String>) -> String {
    if lines.is_empty() {
        return format!("{header} {{}}\n");
    }
    let mut out = format!("{header} {{\n");
    for line in lines {
        out.push_str("    ");
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("}\n");
    out
}

/// A declaration's `type`: one of `simple`, or (when `element`) an
/// element type `a/b/c`.
pub(super) fn type_of(decl: &Entry, simple: &[&str], element: bool) -> Result<String, Refused> {
    let Some(node) = decl.value.get("type") else {
        return Err(refused(
            decl.key_at,
            format!("{:?} has no type, which .bp writes in its header", decl.key.as_str()),
        ));
    };
    let Some(t) = node.as_str() else {
        return Err(refused(node.at, "a type is a string"));
    };
    if simple.contains(&t) {
        return Ok(t.to_string());
    }
    let segment =
        |s: &str| s.starts_with(|c: char| c.is_ascii_alphabetic()) && s.chars().all(|c| c.is_ascii_alphanumeric());
    if element && t.split('/').count() >= 2 && t.split('/').all(segment) {
        return Ok(t.to_string());
    }
    let why = if element {
        "each part of a .bp type is a letter followed by letters or digits, two parts or more".to_string()
    } else {
        format!("it is not one of {}", simple.join(", "))
    };
    Err(refused(
        node.at,
        format!("the type {t:?} cannot be written in .bp: {why}"),
    ))
}

/// The fields of a declaration, each printed by `field` (`None`: not a
/// field `.bp` has there), `skip` left out (they are in the header).
pub(super) fn lines(
    decl: &Entry,
    skip: &[&str],
    place: &str,
    mut field: impl FnMut(&Entry) -> Result<Option<String>, Refused>,
) -> Result<Vec<String>, Refused> {
    let entries = decl
        .value
        .entries()
        .ok_or_else(|| refused(decl.value.at, format!("a {place} is a mapping")))?;
    let mut out = Vec::new();
    for e in entries {
        if skip.contains(&e.key.as_str()) {
            continue;
        }
        let above = super::notes::above(e.key_at, 1);
        match field(e)? {
            Some(line) => out.push(above + &line),
            None => return Err(unknown(e, &format!("{:?} is not a field of a {place}", e.key.as_str()))),
        }
    }
    Ok(out)
}

pub(super) fn boolean(v: &Node) -> Result<String, Refused> {
    match v.kind {
        Kind::Scalar(Value::Bool(b)) => Ok(b.to_string()),
        _ => Err(refused(
            v.at,
            format!("this field is true or false in .bp, not {}", v.describe()),
        )),
    }
}

/// A string field that may interpolate (a description), at `level`.
pub(super) fn text_field(v: &Node, level: usize) -> Result<String, Refused> {
    match v.as_str() {
        Some(s) => string(s, v.at, level, false),
        None => Err(refused(
            v.at,
            format!("this field is a string in .bp, not {}", v.describe()),
        )),
    }
}
