//! Lists and maps as Windsor's `string()` writes them: the YAML of
//! goccy/go-yaml v1.19.2 (`yaml.Marshal`, then trimmed). Block style,
//! two spaces a level, a list under a key not indented, map keys sorted,
//! floats always with a fraction or an exponent (`2.0`, `1e+06`), text
//! plain unless goccy's rules quote it (`quote`), text of several lines
//! as a literal block (`|-`, `|`, `|+`).

mod quote;

use crate::text::{push_float, push_text};
use crate::val::Val;

/// Values nested deeper than this are written as `null` rather than
/// walked (evaluation builds nothing this deep).
const MAX_DEPTH: usize = 10_000;

/// `v` as goccy's YAML, without the final line break.
pub fn to_yaml(v: Val<'_>) -> String {
    let mut out = String::new();
    node(&mut out, v, 0, 0);
    out.truncate(out.trim_end().len());
    out
}

/// Writes `v` where the cursor is; `col` is the indentation of the line
/// it starts on (its items and a literal block's lines go below that).
fn node(out: &mut String, v: Val<'_>, col: usize, depth: usize) {
    if depth > MAX_DEPTH {
        out.push_str("null");
        return;
    }
    if let Some(list) = v.list() {
        if list.is_empty() {
            return out.push_str("[]");
        }
        for (i, item) in list.iter().enumerate() {
            if i > 0 {
                line(out, col);
            }
            out.push_str("- ");
            if item.list().is_some() || item.map().is_some() {
                node(out, item, col + 2, depth + 1);
            } else {
                scalar(out, item, col);
            }
        }
    } else if let Some(map) = v.map() {
        if map.is_empty() {
            return out.push_str("{}");
        }
        let mut entries: Vec<(&str, Val<'_>)> = map.iter().collect();
        entries.sort_by(|x, y| x.0.cmp(y.0));
        for (i, (k, x)) in entries.into_iter().enumerate() {
            if i > 0 {
                line(out, col);
            }
            text(out, k, col);
            out.push(':');
            entry_value(out, x, col, depth + 1);
        }
    } else {
        scalar(out, v, col);
    }
}

/// A map entry's value after `key:`: a list on the next lines at the
/// key's indentation, a map two spaces in, anything else after a space.
fn entry_value(out: &mut String, v: Val<'_>, col: usize, depth: usize) {
    let (list, map) = (
        v.list().is_some_and(|l| !l.is_empty()),
        v.map().is_some_and(|m| !m.is_empty()),
    );
    if list {
        line(out, col);
        node(out, v, col, depth);
    } else if map {
        line(out, col + 2);
        node(out, v, col + 2, depth);
    } else {
        out.push(' ');
        node(out, v, col, depth);
    }
}

fn scalar(out: &mut String, v: Val<'_>, col: usize) {
    match v {
        Val::Nil => out.push_str("null"),
        Val::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Val::Int(i) => out.push_str(&i.to_string()),
        Val::Float(f) => {
            let start = out.len();
            push_float(out, f);
            // goccy keeps a float a float: `2.0`, not `2`.
            if !out[start..].contains(['.', 'e', 'I', 'N']) {
                out.push_str(".0");
            }
        }
        Val::Str(s) => text(out, s, col),
        Val::Bytes(b) => text(out, &String::from_utf8_lossy(b), col),
        other => {
            let mut s = String::new();
            push_text(&mut s, other);
            text(out, &s, col);
        }
    }
}

/// Text: quoted, a literal block when it has several lines, else plain.
fn text(out: &mut String, s: &str, col: usize) {
    if quote::needs_quotes(s) {
        crate::text::push_go_quoted(out, s);
    } else if s.contains('\n') {
        literal(out, s, col);
    } else {
        out.push_str(s);
    }
}

/// A literal block: its header says whether the text ends in no line
/// break (`|-`), one (`|`) or more (`|+`); each line two spaces in.
fn literal(out: &mut String, s: &str, col: usize) {
    out.push_str(if s.ends_with("\n\n") {
        "|+"
    } else if s.ends_with('\n') {
        "|"
    } else {
        "|-"
    });
    let body = s.strip_suffix('\n').unwrap_or(s);
    for l in body.split('\n') {
        if l.is_empty() {
            out.push('\n');
        } else {
            line(out, col + 2);
            out.push_str(l);
        }
    }
}

fn line(out: &mut String, col: usize) {
    out.push('\n');
    out.extend(std::iter::repeat_n(' ', col));
}
