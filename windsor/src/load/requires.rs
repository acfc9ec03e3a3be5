//! `requires:` (Windsor v0.9): values a facet, config block, terraform
//! component or kustomization cannot do without. A facet with an unmet
//! requirement contributes no components; when the inclusion rounds end
//! with one still unmet, the render fails with one error listing every
//! missing path, with the notes the template gives for it.

use crate::fields::{Sink, Unknown};
use crate::template::condition::{Cond, condition};
use bpvm_runtime::{Map, Value};

/// One requirement block.
#[derive(Debug, Clone)]
pub struct Requirement {
    /// Dotted scope paths that must be set.
    pub paths: Vec<String>,
    /// Only checked when this holds.
    pub when: Option<Cond>,
    /// Printed under the path when it is missing (never evaluated).
    pub message: String,
}

use crate::fields::REQUIREMENT as FIELDS;

/// Parses a `requires:` list; problems go to `sink.fail(at, message)`,
/// a field of a newer Windsor to `sink.warn` (and is ignored: a
/// requirement is not part of the output).
pub fn parse(v: Option<&Value>, at: &str, sink: &mut Sink) -> Vec<Requirement> {
    let fail = &mut *sink.fail;
    let items = match v {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::List(items)) => items,
        Some(other) => {
            fail(
                at.to_string(),
                format!("must be a list, got {}", other.type_name()).into(),
            );
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("{at}[{i}]");
        let Some(m) = item.as_map() else {
            fail(
                at,
                format!("a requirement must be a mapping, got {}", item.type_name()).into(),
            );
            continue;
        };
        crate::fields::check_fields(
            m,
            FIELDS,
            &at,
            Unknown::Ignored,
            &mut Sink {
                fail: &mut *fail,
                warn: &mut *sink.warn,
            },
        );
        let paths: Vec<String> = match m.get("paths") {
            Some(Value::List(ps)) => ps.iter().filter_map(Value::as_str).map(str::to_string).collect(),
            _ => Vec::new(),
        };
        if paths.is_empty() {
            fail(
                format!("{at}.paths"),
                "a requirement needs paths: a list of at least one dotted path".into(),
            );
            continue;
        }
        let when = match m.get("when") {
            Some(Value::Str(s)) if !s.trim().is_empty() => match condition(s, true) {
                Ok(c) => Some(c),
                Err(d) => {
                    fail(format!("{at}.when"), d.into());
                    None
                }
            },
            _ => None,
        };
        let message = m.get("message").and_then(Value::as_str).unwrap_or("").to_string();
        out.push(Requirement { paths, when, message });
    }
    out
}

/// True when `path` (dotted) leads to a value that is set: not nil, not
/// an empty string, list or map (`false` and `0` are set).
pub fn is_set(scope: &Map, path: &str) -> bool {
    let mut steps = path.split('.');
    let Some(mut v) = steps.next().and_then(|first| scope.get(first)) else {
        return false;
    };
    for step in steps {
        match v.as_map().and_then(|m| m.get(step)) {
            Some(next) => v = next,
            None => return false,
        }
    }
    match v {
        Value::Null => false,
        Value::Str(s) => !s.is_empty(),
        Value::List(l) => !l.is_empty(),
        Value::Map(m) => !m.is_empty(),
        _ => true,
    }
}

/// The error for `missing` (path, message) pairs, as Windsor words it:
/// the paths sorted and listed once, then the notes of those that have
/// any, each distinct note once.
pub fn report(missing: &[(String, String)]) -> String {
    let mut paths: Vec<&str> = missing.iter().map(|(p, _)| p.as_str()).collect();
    paths.sort_unstable();
    paths.dedup();
    let mut out = String::from("the following required values are not set in values.yaml:\n\n");
    for p in &paths {
        out.push_str(&format!("  - {p}\n"));
    }
    let mut notes = String::new();
    for p in &paths {
        let mut seen: Vec<&str> = Vec::new();
        for (q, m) in missing {
            let m = m.trim_end_matches('\n');
            if q == p && !m.is_empty() && !seen.contains(&m) {
                seen.push(m);
            }
        }
        if seen.is_empty() {
            continue;
        }
        notes.push_str(&format!("  {p}:\n"));
        for m in seen {
            for line in m.split('\n') {
                notes.push_str(&format!("    {line}\n"));
            }
        }
        notes.push('\n');
    }
    if !notes.is_empty() {
        out.push_str("\nNotes:\n\n");
        out.push_str(&notes);
    }
    out.trim_end_matches('\n').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_means_present_and_not_empty() {
        let scope = Value::from_yaml("{a: {b: 0, c: '', d: [], e: {}, f: false, g: null}}").unwrap();
        let scope = scope.as_map().unwrap();
        assert!(is_set(scope, "a.b"));
        assert!(is_set(scope, "a.f"));
        for p in ["a.c", "a.d", "a.e", "a.g", "a.x", "a.b.c", "z"] {
            assert!(!is_set(scope, p), "{p}");
        }
    }

    #[test]
    fn the_report_lists_paths_then_notes() {
        let missing = vec![
            ("b.y".to_string(), String::new()),
            ("a.x".to_string(), "Set it.\nReally.\n".to_string()),
            ("a.x".to_string(), "Set it.\nReally.".to_string()),
        ];
        assert_eq!(
            report(&missing),
            "the following required values are not set in values.yaml:\n\n  - a.x\n  - b.y\n\nNotes:\n\n  a.x:\n    Set it.\n    Really."
        );
    }
}
