//! What a program's paths held in a scope, for explaining a value after the
//! fact: each path it reads from the environment (the alternatives of
//! `a ?? b` each on its own), as written, with what was there.

use crate::program::{Program, Seg};
use bpvm_runtime::{Map, Value};

/// A path a program reads, and what a scope held there.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The path as written in the program's source.
    pub path: String,
    /// What was there.
    pub found: Found,
}

/// What a path held.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// A value.
    Set(Value),
    /// `""`, `[]`, `{}` or nil.
    Empty,
    /// Text still holding `${…}`: known only once deployed.
    Deferred(String),
    /// Nothing at that path.
    NotSet,
}

/// Each path `prog` reads from its environment, once, in the order it
/// reads them, with what `scope` holds there.
///
/// ```
/// use bpvm_vm::reads::{Found, reads};
/// use bpvm_runtime::Value;
/// let prog = bpvm_compiler::Compiler::new(bpvm_compiler::Dialect::Windsor)
///     .compile("(platform ?? provider) + '-' + region").unwrap();
/// let scope = Value::from_yaml("provider: aws\nregion: ''").unwrap();
/// let got: Vec<_> = reads(&prog, scope.as_map().unwrap()).into_iter().map(|r| (r.path, r.found)).collect();
/// assert_eq!(got, [
///     ("platform".to_string(), Found::NotSet),
///     ("provider".to_string(), Found::Set(Value::Str("aws".into()))),
///     ("region".to_string(), Found::Empty),
/// ]);
/// ```
pub fn reads(prog: &Program, scope: &Map) -> Vec<Read> {
    let mut out: Vec<Read> = Vec::new();
    for first in prog.loads() {
        let chain = std::iter::successors(Some(first), |p| p.otherwise.and_then(|o| prog.paths.get(o as usize)));
        for p in chain {
            let (from, to) = p.span;
            let text = prog.source.get(from as usize..to as usize).unwrap_or("");
            if text.is_empty() || out.iter().any(|r| r.path == text) {
                continue;
            }
            out.push(Read {
                path: text.to_string(),
                found: found(scope, &p.segs),
            });
        }
    }
    out
}

fn found(scope: &Map, segs: &[Seg]) -> Found {
    let mut at: Option<&Value> = None;
    for (i, seg) in segs.iter().enumerate() {
        let next = match (seg, at) {
            (Seg::Key(k, _), None) if i == 0 => scope.get(k.as_str()),
            (Seg::Key(k, _), Some(Value::Map(m))) => m.get(k.as_str()),
            (Seg::Index(n), Some(Value::List(items))) => {
                let len = items.len() as i64;
                usize::try_from(if *n < 0 { len + n } else { *n })
                    .ok()
                    .and_then(|i| items.get(i))
            }
            _ => None,
        };
        match next {
            Some(v) => at = Some(v),
            None => return Found::NotSet,
        }
    }
    match at {
        None | Some(Value::Null) => Found::Empty,
        Some(Value::Str(s)) if s.is_empty() => Found::Empty,
        Some(Value::List(l)) if l.is_empty() => Found::Empty,
        Some(Value::Map(m)) if m.is_empty() => Found::Empty,
        Some(Value::Str(s)) if s.contains("${") => Found::Deferred(s.to_string()),
        Some(v) => Found::Set(v.clone()),
    }
}
