//! The hover of a `${…}` in a Bluelink blueprint: the value the render
//! gives the string it is written in, and each reference it reads with
//! its value, or what it refers to and why it has no value before the
//! blueprint is deployed. The render and what each reference read are
//! the blueprint crate's own (`bpvm render`, `bpvm explain`).

use super::expression::Expression;
use super::rendered::rendered;
use bpvm::bluelink::explain::{Found, Read, explain};
use bpvm::bluelink::sub::Sub;
use std::fmt::Write;
use std::path::Path;

/// The hover of `expression` in the blueprint at `path` whose text (as
/// the editor holds it) is `text`; `None` when the blueprint renders and
/// has no substitution there (a `${…}` in a comment).
pub fn substitution_shown(path: &Path, text: &str, expression: &Expression) -> Option<String> {
    let mut out = format!("```\n{}\n```\n\n", expression.source);
    let render = rendered(path, text);
    let (Some(bp), Ok(doc)) = (&render.blueprint, &render.rendered) else {
        let why = render.rendered.err().unwrap_or_default();
        let _ = writeln!(out, "The blueprint does not render:\n\n```\n{}\n```", why.trim_end());
        return Some(out);
    };
    let with = match render.given.as_slice() {
        [] => "the variables' defaults (no variables file beside the blueprint)".to_string(),
        given => given.join(", "),
    };
    let line = expression.range.start.line + 1;
    let sub = written_at(&bp.subs(), line, &expression.source)?;
    let (asked, item) = explained_path(&sub.path, &doc.document);
    let explanation = match explain(bp, doc, &asked) {
        Ok(e) => e,
        Err(e) => {
            let _ = writeln!(out, "{e}");
            return Some(out);
        }
    };
    let whole = sub
        .text()
        .trim()
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .is_some_and(|t| t.trim() == expression.source);
    let place = format!("`{asked}`{item}");
    match &explanation.value {
        Some(v) if v.as_str().is_some_and(|s| s.contains("${")) => {
            let _ = writeln!(
                out,
                "No value yet at {place}: it is only known once the blueprint is deployed.\n"
            );
        }
        Some(v) if whole => {
            let _ = writeln!(out, "**{}** at {place}\n", v.to_json());
        }
        Some(v) => {
            let _ = writeln!(out, "At {place}, the string renders as **{}**\n", v.to_json());
        }
        None => {
            let _ = writeln!(
                out,
                "The rendered blueprint has nothing at {place}: the render uses it without keeping it \
                 (`each`, `condition`), or leaves out the resource it is in.\n"
            );
        }
    }
    let reads = explanation
        .written
        .iter()
        .find(|w| w.path == sub.path && w.at == sub.at)
        .map(|w| w.reads.as_slice())
        .unwrap_or_default();
    for read in reads.iter().filter(|r| expression.source.contains(&r.path)) {
        let _ = writeln!(out, "- {}", read_shown(read));
    }
    let _ = writeln!(out, "\nRendered with {with}.");
    Some(out)
}

/// The substitution written at `line` (from 1) holding `source`, the last
/// one that starts there or above it (a string over several lines starts
/// above the line its `${…}` is on).
fn written_at<'b>(subs: &[&'b Sub], line: u32, source: &str) -> Option<&'b Sub> {
    subs.iter()
        .filter(|s| s.at.line <= line && s.text().contains(source))
        .max_by_key(|s| (s.at.line, s.at.col))
        .copied()
}

/// The path `bpvm explain` is asked about for a substitution written at
/// `path`: in a resource with `each`, its first item's, which the note
/// returned says.
fn explained_path(path: &str, document: &bpvm::Value) -> (String, &'static str) {
    let mut parts = path.splitn(3, '.');
    let (Some("resources"), Some(name)) = (parts.next(), parts.next()) else {
        return (path.to_string(), "");
    };
    let rest = parts.next();
    // `each` and `condition` are the resource's, not an item's.
    if rest.is_some_and(|r| r == "each" || r == "condition") {
        return (path.to_string(), "");
    }
    let first = format!("{name}[0]");
    let resources = document.as_map().and_then(|m| m.get("resources")?.as_map());
    if resources.is_none_or(|r| r.get(first.as_str()).is_none()) {
        return (path.to_string(), "");
    }
    let asked = match rest {
        Some(rest) => format!("resources.{first}.{rest}"),
        None => format!("resources.{first}"),
    };
    (asked, " (the first item of the resource's `each`)")
}

/// One reference and what it held in the render, or why it holds
/// nothing yet.
fn read_shown(read: &Read) -> String {
    let path = &read.path;
    match &read.found {
        Found::Set(v) => format!("`{path}` = `{}`", v.to_json()),
        Found::Empty => format!("`{path}` is empty"),
        Found::NotSet => format!("`{path}` is not set"),
        Found::Deferred(text) => format!("`{path}` = `{text}`: {}", deferred_why(path)),
    }
}

/// Why the reference `path` has no value before the blueprint is
/// deployed, by what it refers to.
fn deferred_why(path: &str) -> String {
    let mut steps = path.split(['.', '[']);
    match (steps.next(), steps.next()) {
        (Some("datasources"), Some(name)) => format!(
            "data source `{name}` is read when the blueprint is deployed; a data sources file beside the blueprint gives it a value here"
        ),
        (Some("children"), Some(name)) => {
            format!("an export of child blueprint `{name}` that is only known once that blueprint is deployed")
        }
        (Some("resources"), Some(name)) => {
            format!("a field of resource `{name}` that is only known once the resource is deployed")
        }
        (Some("variables" | "values"), _) => "computed from a value only known once deployed".to_string(),
        (Some(name), _) => format!("a field of resource `{name}` that is only known once the resource is deployed"),
        (None, _) => "only known once deployed".to_string(),
    }
}
