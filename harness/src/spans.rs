//! Where each value of a YAML text is written, as byte ranges, so that
//! blessing can replace one value's text and leave every other byte of
//! the file (comments, quoting, layout) as it was.

use saphyr_parser_bw::{Event, Parser, ScalarStyle, Span};

/// A value as written: `start..end` covers its text, from the first
/// character to the last that belongs to it (a block scalar's trailing
/// blank lines and a flow collection's trailing comment do not).
#[derive(Debug)]
pub struct Node {
    pub start: usize,
    pub end: usize,
    /// The column (from 0) where the value starts.
    pub column: usize,
    /// Written in flow style (`{…}`, `[…]`), or inside such a collection.
    pub flow: bool,
    pub kind: Kind,
}

#[derive(Debug)]
pub enum Kind {
    Scalar,
    List(Vec<Node>),
    /// Entries: the key's text, the key as written, the value.
    Map(Vec<(String, Node, Node)>),
}

impl Node {
    /// The value of `key`, if this is a mapping that has it.
    pub fn entry(&self, key: &str) -> Option<(&Node, &Node)> {
        match &self.kind {
            Kind::Map(entries) => entries.iter().find(|(k, ..)| k == key).map(|(_, k, v)| (k, v)),
            _ => None,
        }
    }

    /// Item `index` (from 0), if this is a list that long.
    pub fn item(&self, index: usize) -> Option<&Node> {
        match &self.kind {
            Kind::List(items) => items.get(index),
            _ => None,
        }
    }
}

/// A collection still being read: where it starts, whether it is flow,
/// its items, and (for a mapping) the key read last.
struct Open {
    start: usize,
    column: usize,
    flow: bool,
    items: Vec<Node>,
    map: Option<Vec<(String, Node, Node)>>,
    key: Option<(String, Node)>,
}

/// The values of the YAML document `text`; an error when it does not parse.
pub fn read(text: &str) -> Result<Node, String> {
    let mut stack: Vec<Open> = Vec::new();
    let mut root = None;
    for next in Parser::new_from_str(text) {
        let (event, span) = next.map_err(|e| e.to_string())?;
        let range = span.byte_range().ok_or("the parser gave no byte offsets")?;
        let in_flow = stack.last().is_some_and(|o| o.flow);
        let node = match event {
            Event::Scalar(_, style, ..) => {
                let end = match style {
                    // A block scalar's span runs on to the next token.
                    ScalarStyle::Literal | ScalarStyle::Folded => range.start + text[range.clone()].trim_end().len(),
                    _ => range.end,
                };
                Node {
                    start: range.start,
                    end,
                    column: span.start.col(),
                    flow: in_flow,
                    kind: Kind::Scalar,
                }
            }
            Event::Alias(_) => Node {
                start: range.start,
                end: range.end,
                column: span.start.col(),
                flow: in_flow,
                kind: Kind::Scalar,
            },
            Event::SequenceStart(..) | Event::MappingStart(..) => {
                let is_map = matches!(event, Event::MappingStart(..));
                stack.push(Open {
                    start: range.start,
                    column: span.start.col(),
                    // A block collection's start has an empty span; a
                    // flow one's covers its `[` or `{`.
                    flow: in_flow || !range.is_empty(),
                    items: Vec::new(),
                    map: is_map.then(Vec::new),
                    key: None,
                });
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let open = stack.pop().ok_or("a collection ends that never started")?;
                closed(open, &span)
            }
            _ => continue,
        };
        match stack.last_mut() {
            None => root = Some(node),
            Some(open) => match (&mut open.map, open.key.take()) {
                (None, _) => open.items.push(node),
                (Some(entries), Some((key, key_node))) => entries.push((key, key_node, node)),
                (Some(_), None) => open.key = Some((text[node.start..node.end].to_string(), node)),
            },
        }
    }
    let mut root = root.ok_or("the document is empty")?;
    unquote_keys(&mut root);
    Ok(root)
}

/// The node of a collection that has just ended at `span`.
fn closed(open: Open, span: &Span) -> Node {
    let last_end = |n: Option<&Node>| n.map_or(open.start, |n| n.end);
    let end = if open.flow && !span.is_empty() {
        // The closing bracket only: the span may run on over a comment.
        span.byte_range().map_or(open.start, |r| r.start + 1)
    } else {
        match &open.map {
            Some(entries) => last_end(entries.last().map(|(_, _, v)| v)),
            None => last_end(open.items.last()),
        }
    };
    let kind = match open.map {
        Some(entries) => Kind::Map(entries),
        None => Kind::List(open.items),
    };
    Node {
        start: open.start,
        end,
        column: open.column,
        flow: open.flow,
        kind,
    }
}

/// Keys were recorded as written; a quoted key is compared by its text.
fn unquote_keys(node: &mut Node) {
    match &mut node.kind {
        Kind::Scalar => {}
        Kind::List(items) => items.iter_mut().for_each(unquote_keys),
        Kind::Map(entries) => {
            for (key, _, value) in entries.iter_mut() {
                if key.starts_with(['"', '\'']) {
                    if let Ok(bpvm_runtime::Value::Str(s)) = bpvm_runtime::Value::from_yaml(key) {
                        *key = s.to_string();
                    }
                }
                unquote_keys(value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "\
# a comment
cases:
  - {expr: \"1..3\", result: [1, 2, 3]}  # trailing
  - name: block
    result:
      a: 1
      b: [x, 'y']
    text: |
      line one

    empty:
\"quoted key\": x
";

    fn text_of<'t>(node: &Node, text: &'t str) -> &'t str {
        &text[node.start..node.end]
    }

    #[test]
    fn a_flow_value_ends_at_its_bracket() {
        let root = read(DOC).unwrap();
        let first = root.entry("cases").unwrap().1.item(0).unwrap();
        assert_eq!(text_of(first, DOC), "{expr: \"1..3\", result: [1, 2, 3]}");
        assert_eq!(text_of(first.entry("result").unwrap().1, DOC), "[1, 2, 3]");
        assert!(first.flow);
    }

    #[test]
    fn a_block_value_ends_with_its_last_value() {
        let root = read(DOC).unwrap();
        let second = root.entry("cases").unwrap().1.item(1).unwrap();
        let (key, result) = second.entry("result").unwrap();
        assert_eq!(text_of(key, DOC), "result");
        assert_eq!(text_of(result, DOC), "a: 1\n      b: [x, 'y']");
        assert_eq!((result.column, result.flow), (6, false));
    }

    #[test]
    fn a_block_scalar_ends_at_its_last_character() {
        let root = read(DOC).unwrap();
        let second = root.entry("cases").unwrap().1.item(1).unwrap();
        assert_eq!(text_of(second.entry("text").unwrap().1, DOC), "line one");
    }

    #[test]
    fn an_empty_value_is_empty_and_a_quoted_key_is_found_by_its_text() {
        let root = read(DOC).unwrap();
        let second = root.entry("cases").unwrap().1.item(1).unwrap();
        assert_eq!(text_of(second.entry("empty").unwrap().1, DOC), "");
        assert_eq!(text_of(root.entry("quoted key").unwrap().1, DOC), "x");
    }
}
