//! `BPVM_BLESS=1`: a failed case's file is made to expect what the case
//! gave. Only the text of the values that differ changes — inside an
//! expected value, only the keys and items that differ, where the old and
//! the new value have the same keys (or as many items) — and a missing
//! expectation is added at the end of its case; comments, quoting and the
//! layout of everything else stay as written. What is written must read
//! back as exactly the document wanted, or nothing is written.

use crate::case::{Case, Fix};
use crate::spans::{self, Kind, Node};
use crate::yaml_text;
use bpvm_runtime::Value;
use std::ops::Range;
use std::path::Path;
use std::sync::{Mutex, PoisonError};

/// The cases of one file run on several threads: one writes at a time,
/// each reading the file as the last one left it.
static WRITING: Mutex<()> = Mutex::new(());

/// A change to a text: the bytes of `range` become the string.
type Edit = (Range<usize>, String);

/// Applies `fixes` to the files of `case`.
pub fn bless(case: &Case, fixes: &[Fix]) -> Result<(), String> {
    let _alone = WRITING.lock().unwrap_or_else(PoisonError::into_inner);
    for fix in fixes {
        match fix {
            Fix::File(path, text) => std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?,
            Fix::Field(key, value) => set_field(&case.file.path, &case.list, case.index, key, value)?,
        }
    }
    Ok(())
}

/// Makes item `index` of the list `list` in the file at `path` have
/// `key: value`.
fn set_field(path: &Path, list: &str, index: usize, key: &str, value: &Value) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut wanted = Value::from_yaml(&text)?;
    let Some(Value::Map(case)) = item_mut(&mut wanted, list, index) else {
        return Err(format!("{}: no case {list}[{index}]", path.display()));
    };
    let old = case.insert(key, value.clone());
    let root = spans::read(&text)?;
    let node = root
        .entry(list)
        .and_then(|(_, items)| items.item(index))
        .ok_or_else(|| format!("{}: no case {list}[{index}]", path.display()))?;
    let ways = match (node.entry(key), old) {
        (Some((key_node, old_node)), Some(old)) => {
            let slot = Slot::after(&text, key_node, old_node);
            let mut edits = Vec::new();
            changes(&text, &slot, old_node, node.flow, &old, value, &mut edits);
            let mut ways = vec![edited(&text, edits)];
            for new in writings(&text, &slot, old_node, node.flow, value) {
                ways.push(edited(&text, vec![(slot.range.clone(), new)]));
            }
            ways
        }
        _ => added(&text, node, key, value),
    };
    let written = ways
        .into_iter()
        .find(|t| Value::from_yaml(t).is_ok_and(|v| v.to_json() == wanted.to_json()))
        .ok_or_else(|| {
            format!(
                "{}: {key} cannot be written to read back as {}",
                path.display(),
                value.to_json()
            )
        })?;
    std::fs::write(path, written).map_err(|e| format!("{}: {e}", path.display()))
}

fn item_mut<'v>(doc: &'v mut Value, list: &str, index: usize) -> Option<&'v mut Value> {
    let Value::Map(root) = doc else { return None };
    let Some(Value::List(items)) = root.get_mut(list) else {
        return None;
    };
    items.get_mut(index)
}

/// `text` with `edits` (which do not overlap) made.
fn edited(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut out = text.to_string();
    for (range, new) in edits {
        out.replace_range(range, &new);
    }
    out
}

/// Where a value's text goes: after a key's `:` (the text written there
/// starts with its space or newline), or in a list item's place.
struct Slot {
    range: Range<usize>,
    /// The key's column, for a value after a key.
    key_column: Option<usize>,
}

impl Slot {
    /// From just after the `:` of `key` to the end of its value `value`.
    fn after(text: &str, key: &Node, value: &Node) -> Slot {
        let colon = text[key.end..].find(':').map_or(key.end, |i| key.end + i + 1);
        Slot {
            range: colon..value.end.max(colon),
            key_column: Some(key.column),
        }
    }

    fn item(item: &Node) -> Slot {
        Slot {
            range: item.start..item.end,
            key_column: None,
        }
    }
}

/// The edits that turn `old`, written at `node` in `slot`, into `new`:
/// where both are mappings with the same keys, or lists as long, only the
/// values that differ; otherwise the whole value, written anew.
fn changes(text: &str, slot: &Slot, node: &Node, in_flow: bool, old: &Value, new: &Value, edits: &mut Vec<Edit>) {
    if old.to_json() == new.to_json() {
        return;
    }
    match (&node.kind, old, new) {
        (Kind::Map(entries), Value::Map(a), Value::Map(b))
            if entries.len() == a.len()
                && a.len() == b.len()
                && entries
                    .iter()
                    .zip(a.keys().zip(b.keys()))
                    .all(|(e, (ka, kb))| e.0 == ka.as_str() && ka == kb) =>
        {
            for ((_, key_node, value_node), (va, vb)) in entries.iter().zip(a.values().zip(b.values())) {
                let inner = Slot::after(text, key_node, value_node);
                changes(text, &inner, value_node, node.flow, va, vb, edits);
            }
        }
        (Kind::List(items), Value::List(a), Value::List(b)) if items.len() == a.len() && a.len() == b.len() => {
            for (item, (va, vb)) in items.iter().zip(a.iter().zip(b)) {
                changes(text, &Slot::item(item), item, node.flow, va, vb, edits);
            }
        }
        _ => {
            if let Some(new_text) = writings(text, slot, node, in_flow, new).into_iter().next() {
                edits.push((slot.range.clone(), new_text));
            }
        }
    }
}

/// The texts `new` may be written as in `slot`, where `old` was, the most
/// fitting first: flow inside a flow collection, where the old value was
/// on one line, and for a scalar — quoted as JSON where the old value
/// was; else block lines.
fn writings(text: &str, slot: &Slot, old: &Node, in_flow: bool, new: &Value) -> Vec<String> {
    let lead = if slot.key_column.is_some() { " " } else { "" };
    let as_json = ["\"", "{\"", "[\""].iter().any(|p| text[old.start..].starts_with(p));
    let flow = match as_json {
        true => format!("{lead}{}", yaml_text::json(new)),
        false => format!("{lead}{}", yaml_text::flow(new)),
    };
    if in_flow {
        return vec![flow];
    }
    // Block lines start on their own line after a key; in a list item,
    // on the item's line at the item's column.
    let block = match slot.key_column {
        Some(column) if collection(new) => format!("\n{}", yaml_text::block(new, column + 2)),
        Some(column) => format!(" {}", yaml_text::block(new, column + 2).trim_start()),
        None => yaml_text::block(new, old.column).trim_start().to_string(),
    };
    let on_one_line = (old.flow || matches!(old.kind, Kind::Scalar) || !collection(new)) && !multi_line(new);
    if on_one_line {
        vec![flow, block]
    } else {
        vec![block, flow]
    }
}

/// The file's text with `key: value` added at the end of `case`.
fn added(text: &str, case: &Node, key: &str, value: &Value) -> Vec<String> {
    let key = yaml_text::flow(&Value::Str(key.into()));
    let flow = yaml_text::flow(value);
    if case.flow {
        let at = case.end.saturating_sub(1);
        return vec![format!("{}, {key}: {flow}{}", &text[..at], &text[at..])];
    }
    let pad = " ".repeat(case.column);
    let insert = |new: String| format!("{}\n{pad}{key}:{new}{}", &text[..case.end], &text[case.end..]);
    let mut ways = Vec::new();
    if collection(value) {
        ways.push(insert(format!("\n{}", yaml_text::block(value, case.column + 2))));
    } else if multi_line(value) {
        ways.push(insert(format!(
            " {}",
            yaml_text::block(value, case.column + 2).trim_start()
        )));
    }
    ways.push(insert(format!(" {flow}")));
    ways
}

/// A list or mapping with something in it (an empty one is written `[]`
/// or `{}`).
fn collection(v: &Value) -> bool {
    matches!(v, Value::List(l) if !l.is_empty()) || matches!(v, Value::Map(m) if !m.is_empty())
}

fn multi_line(v: &Value) -> bool {
    matches!(v, Value::Str(s) if s.contains('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` after item `index` of its `cases` is given `key: value`.
    fn bless_text(text: &str, index: usize, key: &str, value: &str) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cases.yaml");
        std::fs::write(&path, text).unwrap();
        set_field(&path, "cases", index, key, &Value::from_yaml(value).unwrap()).unwrap();
        std::fs::read_to_string(&path).unwrap()
    }

    const CASES: &str = "\
# Ranges.
cases:
  - {expr: \"1..3\", result: [1, 2]}  # the closed range
  - {expr: \"s\", result: {\"a\": \"x\"}}
  - name: a block
    result:
      a: 1  # one
      b: [x, y]
    note: kept
  - name: no findings yet
    files: {}
";

    #[test]
    fn a_flow_value_is_rewritten_in_flow_and_the_comments_stay() {
        let out = bless_text(CASES, 0, "result", "[1, 2, 3]");
        assert_eq!(out, CASES.replace("result: [1, 2]}", "result: [1, 2, 3]}"));
    }

    #[test]
    fn a_value_written_as_json_is_rewritten_as_json() {
        let out = bless_text(CASES, 1, "result", "{a: y}");
        assert_eq!(out, CASES.replace(r#"{"a": "x"}"#, r#"{"a": "y"}"#));
    }

    #[test]
    fn only_the_parts_of_a_value_that_differ_are_rewritten() {
        let out = bless_text(CASES, 2, "result", "{a: 1, b: [x, z]}");
        assert_eq!(out, CASES.replace("b: [x, y]", "b: [x, z]"));
    }

    #[test]
    fn a_value_of_another_shape_is_rewritten_whole() {
        let out = bless_text(CASES, 2, "result", "{c: [1, 2]}");
        assert!(
            out.contains("    result:\n      c:\n      - 1\n      - 2\n    note: kept\n"),
            "{out}"
        );
    }

    #[test]
    fn a_missing_field_is_added_at_the_end_of_its_case() {
        let out = bless_text(CASES, 3, "findings", "['f.yaml:1:1: error[x]: y']");
        assert!(
            out.ends_with("    files: {}\n    findings:\n      - \"f.yaml:1:1: error[x]: y\"\n"),
            "{out}"
        );
    }
}
