//! A `.bp` blueprint's tree as YAML, in bpvm's style (two spaces a
//! level, strings quoted when YAML would read them as something else),
//! its comments carried over: each before the entry that follows it, or
//! at the end of its entry's first line when it ended that line.

use crate::node::{Kind, Node};
use bpvm_runtime::Value;
use std::collections::VecDeque;

/// A comment of the source: its line, its text after `#`, and whether
/// it ended a line of code.
pub(super) struct Comment {
    pub line: u32,
    pub text: String,
    pub trailing: bool,
}

struct Writer {
    out: String,
    comments: VecDeque<Comment>,
    /// For each entry and item in the order written: whether it is the
    /// last to start on its line (the one a trailing comment goes after).
    last: Vec<bool>,
    seen: usize,
}

/// `doc` as YAML, with `comments` (in source order) placed by line.
pub(super) fn write(doc: &Node, comments: Vec<Comment>) -> String {
    let mut lines = Vec::new();
    starts(doc, &mut lines);
    let last = (0..lines.len())
        .map(|k| lines.get(k + 1).is_none_or(|next| *next != lines[k]))
        .collect();
    let mut w = Writer {
        out: String::new(),
        comments: comments.into(),
        last,
        seen: 0,
    };
    w.node(doc, 0, false);
    w.before(u32::MAX, 0);
    w.out
}

/// The line of each entry and item under `node`, in the order written.
fn starts(node: &Node, lines: &mut Vec<u32>) {
    match &node.kind {
        Kind::Map(entries) => {
            for e in entries {
                lines.push(e.key_at.line);
                starts(&e.value, lines);
            }
        }
        Kind::List(items) => {
            for item in items {
                lines.push(item.at.line);
                starts(item, lines);
            }
        }
        Kind::Scalar(_) => {}
    }
}

impl Writer {
    /// Comments before `line`, each on a line of its own at `indent`.
    fn before(&mut self, line: u32, indent: usize) {
        while self.comments.front().is_some_and(|c| c.line < line) {
            let c = self.comments.pop_front().unwrap_or_else(|| unreachable!());
            self.out.push_str(&"  ".repeat(indent));
            self.out.push('#');
            self.out.push_str(&c.text);
            self.out.push('\n');
        }
    }

    /// Ends the line begun for an entry on `line`, with its comment.
    fn end_line(&mut self, line: u32) {
        let last = self.last.get(self.seen).copied().unwrap_or(true);
        self.seen += 1;
        if let Some(c) = self.comments.front().filter(|c| last && c.line == line && c.trailing) {
            self.out.push_str(" #");
            self.out.push_str(&c.text);
            self.comments.pop_front();
        }
        self.out.push('\n');
    }

    /// A mapping or list's entries at `indent` (the root at 0); `inline`:
    /// the first goes on the line begun (after a list's `- `).
    fn node(&mut self, node: &Node, indent: usize, inline: bool) {
        match &node.kind {
            Kind::Map(entries) => {
                for (k, e) in entries.iter().enumerate() {
                    if !(inline && k == 0) {
                        self.before(e.key_at.line, indent);
                        self.out.push_str(&"  ".repeat(indent));
                    }
                    self.out.push_str(&scalar(&Value::Str(e.key.as_str().into())));
                    self.out.push(':');
                    self.value(&e.value, indent, e.key_at.line);
                }
            }
            Kind::List(items) => {
                for item in items {
                    self.before(item.at.line, indent);
                    self.out.push_str(&"  ".repeat(indent));
                    self.out.push('-');
                    if matches!(&item.kind, Kind::Map(e) if !e.is_empty()) {
                        // `- key: value`, the mapping's other keys under it.
                        self.seen += 1;
                        self.out.push(' ');
                        self.node(item, indent + 1, true);
                    } else {
                        self.value(item, indent, item.at.line);
                    }
                }
            }
            Kind::Scalar(v) => {
                self.out.push_str(&scalar(v));
                self.out.push('\n');
            }
        }
    }

    /// What follows `key:` or `-` on a line begun at `indent`.
    fn value(&mut self, v: &Node, indent: usize, line: u32) {
        match &v.kind {
            Kind::Map(e) if e.is_empty() => self.out.push_str(" {}"),
            Kind::List(i) if i.is_empty() => self.out.push_str(" []"),
            Kind::Scalar(x) => {
                self.out.push(' ');
                self.out.push_str(&scalar(x));
            }
            _ => {
                self.end_line(line);
                self.node(v, indent + 1, false);
                return;
            }
        }
        self.end_line(line);
    }
}

/// A scalar as YAML reads it back: the same value, of the same type.
fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) if f.is_nan() => ".nan".into(),
        Value::Float(f) if f.is_infinite() => (if *f > 0.0 { ".inf" } else { "-.inf" }).into(),
        Value::Float(f) => format!("{f:?}"),
        Value::Str(s) if s.contains(['\n', '\r', '\t']) || s.chars().any(char::is_control) => double_quoted(s),
        Value::Str(_) => bpvm_runtime::text::to_yaml(v).trim_end().to_string(),
        other => bpvm_runtime::text::to_yaml(other).trim_end().to_string(),
    }
}

/// `s` in YAML's double quotes, escaped.
fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::read;

    #[test]
    fn scalars_read_back_as_the_same_values() {
        for v in [
            Value::Str("true".into()),
            Value::Str("${x}".into()),
            Value::Str("a: b".into()),
            Value::Str("- x".into()),
            Value::Str("x #y".into()),
            Value::Str("".into()),
            Value::Str("1.5".into()),
            Value::Str("null".into()),
            Value::Str("a\nb\t\"c\"\\".into()),
            Value::Float(2.0),
            Value::Float(1e21),
            Value::Int(-3),
            Value::Null,
        ] {
            let text = format!("k: {}\n", scalar(&v));
            let doc = read(&text).unwrap();
            assert_eq!(doc.get("k").unwrap().to_value(), v, "{text}");
        }
    }
}
