//! Reading a blueprint document into its tree. YAML and JSON are read by
//! one YAML 1.2 parser (JSON is YAML). Tags, anchors and aliases are
//! refused, as seed 002's Caveats say; so are duplicate keys and keys that
//! are not scalars.

use super::keys::Keys;
use super::tree::{Entry, KeyText, Kind, Node};
use crate::error::Pos;
use crate::key_table::KeyTable;
use bpvm_runtime::Value;
use bpvm_runtime::limits::VALUE_DEPTH;
use saphyr_parser_bw::{Event, ScalarStyle, Span};

/// Why a document could not be read.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadError {
    /// Where.
    pub at: Pos,
    /// What.
    pub message: String,
}

/// Reads one YAML or JSON document.
///
/// ```
/// use bpvm_bluelink::node::{read, Kind};
/// let doc = read("version: 2023-04-20\nresources:\n  fn: {type: aws/lambda/function}\n").unwrap();
/// let ty = doc.get("resources").unwrap().get("fn").unwrap().get("type").unwrap();
/// assert_eq!((ty.at.line, ty.at.col), (3, 14));
/// assert!(read("a: &x 1\nb: *x\n").unwrap_err().message.contains("anchors"));
/// ```
pub fn read(text: &str) -> Result<Node, ReadError> {
    read_keys(text, &mut KeyTable::default())
}

/// [`read`], the keys made by `keys` (which a loader goes on sharing).
pub(crate) fn read_keys(text: &str, keys: &mut KeyTable) -> Result<Node, ReadError> {
    let mut r = Reader {
        keys,
        stack: Vec::new(),
        items: Vec::new(),
        entries: Vec::new(),
        root: None,
        docs: 0,
    };
    for event in bpvm_runtime::yaml_events::events(text) {
        let (event, span) = event.map_err(|e| ReadError {
            at: Pos {
                line: e.marker().line() as u32,
                col: e.marker().col() as u32 + 1,
            },
            // The scanner reads ahead of the events, and stops flow
            // collections (`[[[…`) at 255 levels before they reach us.
            message: match e.info() {
                "recursion limit exceeded" => too_deep(),
                info => info.to_string(),
            },
        })?;
        r.event(event, span)?;
    }
    Ok(r.root.unwrap_or(Node {
        at: Pos { line: 1, col: 1 },
        kind: Kind::Scalar(Value::Null),
    }))
}

fn too_deep() -> String {
    format!("the document is nested too deeply (more than {VALUE_DEPTH} levels)")
}

/// A collection being read: where it starts, and where its items start
/// in the reader's shared stack of items (or entries).
enum Open {
    List(Pos, usize),
    Map(Pos, usize, Option<(KeyText, Pos)>, Keys),
}

struct Reader<'k> {
    keys: &'k mut KeyTable,
    stack: Vec<Open>,
    /// The items of every open sequence, innermost last: a sequence takes
    /// its own, exactly sized, when it ends (no spare room kept, no
    /// regrowing while it is read).
    items: Vec<Node>,
    /// The same for the entries of every open mapping.
    entries: Vec<Entry>,
    root: Option<Node>,
    docs: usize,
}

fn pos(span: &Span) -> Pos {
    Pos {
        line: span.start.line() as u32,
        col: span.start.col() as u32 + 1,
    }
}

impl Reader<'_> {
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), ReadError> {
        let at = pos(&span);
        let refuse = |what: &str| {
            Err(ReadError {
                at,
                message: format!(
                    "YAML {what} are not supported in blueprints (seed 002, Caveats){}",
                    if what == "tags" {
                        "; quote a value that starts with '!'"
                    } else {
                        ""
                    }
                ),
            })
        };
        match event {
            Event::DocumentStart(_) => {
                self.docs += 1;
                if self.docs > 1 {
                    return Err(ReadError {
                        at,
                        message: "a blueprint file holds one document; found a second".into(),
                    });
                }
            }
            Event::Alias(_) => return refuse("aliases"),
            Event::Scalar(_, _, anchor, _) | Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _)
                if anchor != 0 =>
            {
                return refuse("anchors");
            }
            Event::Scalar(_, _, _, Some(_)) | Event::SequenceStart(_, Some(_)) | Event::MappingStart(_, Some(_)) => {
                return refuse("tags");
            }
            Event::Scalar(text, style, _, None) if self.awaits_key() => {
                // A key is made a shared key straight from the text.
                let typed = if style == ScalarStyle::Plain {
                    typed(&text)
                } else {
                    None
                };
                let key = match typed {
                    None => self.keys.key(&text),
                    Some(Value::Null) => self.keys.key("null"),
                    Some(v) => self.keys.key(&v.to_json()),
                };
                self.push_key(KeyText(key), at)?;
            }
            Event::Scalar(text, style, _, None) => {
                let value = if style == ScalarStyle::Plain {
                    plain(&text)
                } else {
                    Value::Str(text.as_ref().into())
                };
                self.push(Node {
                    at,
                    kind: Kind::Scalar(value),
                })?;
            }
            Event::SequenceStart(..) | Event::MappingStart(..) if self.stack.len() >= VALUE_DEPTH => {
                // Loading and rendering a blueprint walk it recursively.
                return Err(ReadError {
                    at,
                    message: too_deep(),
                });
            }
            Event::SequenceStart(..) => self.stack.push(Open::List(at, self.items.len())),
            Event::MappingStart(..) => self
                .stack
                .push(Open::Map(at, self.entries.len(), None, Keys::default())),
            Event::SequenceEnd => {
                if let Some(Open::List(at, start)) = self.stack.pop() {
                    let items = self.items.drain(start..).collect();
                    self.push(Node {
                        at,
                        kind: Kind::List(items),
                    })?;
                }
            }
            Event::MappingEnd => {
                if let Some(Open::Map(at, start, ..)) = self.stack.pop() {
                    let entries = self.entries.drain(start..).collect();
                    self.push(Node {
                        at,
                        kind: Kind::Map(entries),
                    })?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// True when the next value read is a key of the innermost mapping.
    fn awaits_key(&self) -> bool {
        matches!(self.stack.last(), Some(Open::Map(_, _, None, _)))
    }

    /// Records the key of the innermost mapping's next entry.
    fn push_key(&mut self, key: KeyText, at: Pos) -> Result<(), ReadError> {
        if let Some(Open::Map(_, start, key_slot, keys)) = self.stack.last_mut() {
            if !keys.is_new(key.key(), &self.entries[*start..]) {
                return Err(ReadError {
                    at,
                    message: format!("duplicate key {:?}", key.as_str()),
                });
            }
            *key_slot = Some((key, at));
        }
        Ok(())
    }

    fn push(&mut self, node: Node) -> Result<(), ReadError> {
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Open::List(..)) => self.items.push(node),
            Some(Open::Map(_, _, key_slot, _)) => match key_slot.take() {
                Some((key, key_at)) => self.entries.push(Entry {
                    key,
                    key_at,
                    value: node,
                }),
                // Scalar keys are read by `push_key`: this is a collection.
                None => {
                    return Err(ReadError {
                        at: node.at,
                        message: format!("a mapping key must be a string, found {}", node.describe()),
                    });
                }
            },
        }
        Ok(())
    }
}

/// A plain scalar by the YAML 1.2 core schema.
fn plain(text: &str) -> Value {
    typed(text).unwrap_or_else(|| Value::Str(text.into()))
}

/// A plain scalar that the YAML 1.2 core schema types (`None`: a string).
fn typed(text: &str) -> Option<Value> {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => return Some(Value::Null),
        "true" | "True" | "TRUE" => return Some(Value::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Value::Bool(false)),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(Value::Float(f64::INFINITY)),
        "-.inf" | "-.Inf" | "-.INF" => return Some(Value::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return Some(Value::Float(f64::NAN)),
        _ => {}
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        if let Ok(i) = text.parse::<i64>() {
            return Some(Value::Int(i));
        }
    }
    if let Some(hex) = text.strip_prefix("0x")
        && let Ok(i) = i64::from_str_radix(hex, 16)
    {
        return Some(Value::Int(i));
    }
    if let Some(oct) = text.strip_prefix("0o")
        && let Ok(i) = i64::from_str_radix(oct, 8)
    {
        return Some(Value::Int(i));
    }
    let number_like = digits.bytes().any(|b| b.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'-' | b'+'));
    if number_like && let Ok(f) = text.parse::<f64>() {
        return Some(Value::Float(f));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_follow_the_core_schema() {
        let doc = read("a: 1\nb: '1'\nc: 2.5\nd: true\ne: ~\nf: 2023-04-20\ng: 0x10\nh: 1e3\ni: yes\n").unwrap();
        let v = doc.to_value();
        assert_eq!(
            v.to_json(),
            r#"{"a":1,"b":"1","c":2.5,"d":true,"e":null,"f":"2023-04-20","g":16,"h":1000.0,"i":"yes"}"#
        );
    }

    #[test]
    fn json_is_read_with_positions() {
        let doc = read("{\n  \"version\": \"2023-04-20\",\n  \"n\": [1, 2.0]\n}").unwrap();
        assert_eq!(doc.get("n").unwrap().at, Pos { line: 3, col: 8 });
        assert_eq!(doc.to_value().to_json(), r#"{"version":"2023-04-20","n":[1,2.0]}"#);
    }

    #[test]
    fn a_document_too_deep_is_refused_where_it_goes_too_deep() {
        let block: String = (0..100).map(|i| format!("{}- \n", " ".repeat(i))).collect();
        let e = read(&block).unwrap_err();
        let message = "the document is nested too deeply (more than 64 levels)";
        assert_eq!((e.message.as_str(), e.at), (message, Pos { line: 65, col: 65 }));
        let flow = format!("a:\n  {}", "[".repeat(100_000));
        let e = read(&flow).unwrap_err();
        assert_eq!((e.message.as_str(), e.at.line), (message, 2));
    }

    #[test]
    fn refuses_what_blueprints_do_not_support() {
        for (text, message, line) in [
            ("a: !!str 1\n", "YAML tags are not supported", 1),
            ("a: &x 1\n", "YAML anchors are not supported", 1),
            ("a: 1\na: 2\n", "duplicate key \"a\"", 2),
            ("? [1]\n: 2\n", "a mapping key must be a string, found an array", 1),
            ("a: 1\n---\nb: 2\n", "one document", 2),
            ("a: [1\n", "unclosed bracket", 1),
        ] {
            let e = read(text).unwrap_err();
            assert!(e.message.contains(message), "{text:?}: {e:?}");
            assert_eq!(e.at.line, line, "{text:?}: {e:?}");
        }
    }

    #[test]
    fn a_late_duplicate_in_a_large_mapping_is_refused_where_it_is() {
        let mut text: String = (0..50).map(|i| format!("k{i}: {i}\n")).collect();
        text.push_str("k7: again\n");
        let e = read(&text).unwrap_err();
        assert_eq!((e.at.line, e.message.as_str()), (51, "duplicate key \"k7\""));
    }
}
