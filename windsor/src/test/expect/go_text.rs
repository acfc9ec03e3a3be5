//! Values printed the way Go's `%v` and `%q` print them, for Windsor's
//! diff texts.

use bpvm_runtime::{Value, text};
use std::fmt::Write;

/// `s` the way Go's `%q` prints a string.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    text::push_go_quoted(&mut out, s);
    out
}

/// `v` the way Go's `%v` prints a decoded document value: nil as
/// `<nil>`, strings bare, floats shortest (`5.0` → `5`), lists as
/// `[a b]`, maps as `map[k:v]` with sorted keys.
pub(crate) fn go_value(v: &Value) -> String {
    let mut s = String::new();
    push_go(&mut s, v);
    s
}

fn push_go(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Float(f) => text::push_float(out, *f),
        Value::Str(s) => out.push_str(s),
        Value::Bytes(b) => {
            out.push('[');
            for (i, byte) in b.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                let _ = write!(out, "{byte}");
            }
            out.push(']');
        }
        Value::List(l) => {
            out.push('[');
            for (i, item) in l.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                push_go(out, item);
            }
            out.push(']');
        }
        Value::Map(m) => {
            let mut entries: Vec<_> = m.iter().collect();
            entries.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
            out.push_str("map[");
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k.as_str());
                out.push(':');
                push_go(out, v);
            }
            out.push(']');
        }
    }
}
