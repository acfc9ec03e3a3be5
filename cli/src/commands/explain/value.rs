//! How an explanation writes a value and what an expression read.

use bpvm::Value;
use bpvm::windsor::explain::{Found, Read};
use std::fmt::Write;

/// The first line: the value at `path`, or that nothing is set there.
pub fn heading(path: &str, value: Option<&Value>) -> String {
    match value {
        Some(v) => format!("{path} = {}\n", shown(v)),
        None => format!("{path} (not set)\n"),
    }
}

/// A value on one line, cut at 80 characters; text still holding `${…}`
/// is marked deferred, nothing at all empty.
pub fn shown(v: &Value) -> String {
    match v {
        Value::Str(s) if s.contains("${") => return format!("(deferred) {}", cut(v.to_json())),
        Value::Null => return "(empty)".to_string(),
        Value::Str(s) if s.is_empty() => return "(empty) \"\"".to_string(),
        _ => {}
    }
    cut(v.to_json())
}

fn cut(json: String) -> String {
    match json.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &json[..i]),
        None => json,
    }
}

/// What an expression read, a line each; a value set is followed by
/// where it came from, when `origin` knows.
pub fn reads(out: &mut String, reads: &[Read], origin: &dyn Fn(&str) -> Option<String>) {
    for r in reads {
        let what = match &r.found {
            Found::Set(v) => match origin(&r.path) {
                Some(o) => format!("= {}  ({o})", shown(v)),
                None => format!("= {}", shown(v)),
            },
            Found::Empty => "(empty)".to_string(),
            Found::Deferred(t) => format!("(deferred: {t})"),
            Found::NotSet => "(not set)".to_string(),
        };
        let _ = writeln!(out, "        reads {} {what}", r.path);
    }
}
