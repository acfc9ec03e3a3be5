//! Where a value of a YAML document is: the line and column of the key
//! (or list item) a path such as `flux[csi].install.components` names,
//! for messages. Read only when a message needs it, so reading documents
//! stays as cheap as it is.
//!
//! A path is keys separated by dots; `[x]` after a key is the item of
//! that list whose `name` (else `path`) is `x`, or item number `x`.

use saphyr_parser_bw::{Event, Parser, Span};

/// A value as written, with where it starts and where its key does.
struct Node {
    line: usize,
    col: usize,
    kind: Kind,
}

enum Kind {
    Scalar(String),
    List(Vec<Node>),
    /// Entries: the key's text, the key's line and column, the value.
    Map(Vec<(String, usize, usize, Node)>),
}

enum Open {
    List(usize, usize, Vec<Node>),
    Map(
        usize,
        usize,
        Vec<(String, usize, usize, Node)>,
        Option<(String, usize, usize)>,
    ),
}

/// Documents nest no deeper than this for the locator (deeper values are
/// not located).
const DEPTH: usize = 128;

fn tree(text: &str) -> Option<Node> {
    let mut stack: Vec<Open> = Vec::new();
    let mut root = None;
    for next in Parser::new_from_str(text) {
        let (event, span): (Event, Span) = next.ok()?;
        let (line, col) = (span.start.line(), span.start.col() + 1);
        let node = match event {
            Event::Scalar(t, ..) => Node {
                line,
                col,
                kind: Kind::Scalar(t.to_string()),
            },
            Event::Alias(_) => Node {
                line,
                col,
                kind: Kind::Scalar(String::new()),
            },
            Event::SequenceStart(..) | Event::MappingStart(..) if stack.len() >= DEPTH => return None,
            Event::SequenceStart(..) => {
                stack.push(Open::List(line, col, Vec::new()));
                continue;
            }
            Event::MappingStart(..) => {
                stack.push(Open::Map(line, col, Vec::new(), None));
                continue;
            }
            Event::SequenceEnd => match stack.pop()? {
                Open::List(line, col, items) => Node {
                    line,
                    col,
                    kind: Kind::List(items),
                },
                Open::Map(..) => return None,
            },
            Event::MappingEnd => match stack.pop()? {
                Open::Map(line, col, entries, _) => Node {
                    line,
                    col,
                    kind: Kind::Map(entries),
                },
                Open::List(..) => return None,
            },
            _ => continue,
        };
        match stack.last_mut() {
            None => root = Some(node),
            Some(Open::List(.., items)) => items.push(node),
            Some(Open::Map(.., entries, key)) => match key.take() {
                Some((k, kl, kc)) => entries.push((k, kl, kc, node)),
                None => {
                    let text = match node.kind {
                        Kind::Scalar(t) => t,
                        _ => String::new(),
                    };
                    *key = Some((text, node.line, node.col));
                }
            },
        }
    }
    root
}

/// The steps of a path: each key (a `"quoted"` one may hold dots and
/// brackets) and the `[item]`s after it.
fn steps(path: &str) -> Vec<(String, Option<&str>)> {
    let mut out = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        rest = rest.strip_prefix('.').unwrap_or(rest);
        let (key, after) = match rest.strip_prefix('"') {
            Some(quoted) => {
                let mut key = String::new();
                let mut chars = quoted.char_indices();
                let mut end = quoted.len();
                while let Some((i, ch)) = chars.next() {
                    match ch {
                        '\\' => {
                            if let Some((_, next)) = chars.next() {
                                key.push(next);
                            }
                        }
                        '"' => {
                            end = i + 1;
                            break;
                        }
                        c => key.push(c),
                    }
                }
                (key, &quoted[end..])
            }
            None => {
                let end = rest.find(['.', '[']).unwrap_or(rest.len());
                (rest[..end].to_string(), &rest[end..])
            }
        };
        let items_end = after.find('.').unwrap_or(after.len());
        let items = (items_end > 0).then(|| &after[..items_end]);
        out.push((key, items));
        rest = &after[items_end..];
    }
    out
}

/// The line and column (from 1) of what `path` names in the YAML
/// document `text`: a key where the path ends at a mapping entry, an item
/// where it ends at a list item; as far as the path can be followed.
///
/// ```
/// use bpvm_runtime::locate::locate;
/// let doc = "kind: Facet\nflux:\n  - name: csi\n    instal: {}\n";
/// assert_eq!(locate(doc, "flux[csi].instal"), Some((4, 5)));
/// assert_eq!(locate(doc, "flux[csi]"), Some((3, 5)));
/// assert_eq!(locate(doc, "flux[9]"), Some((2, 1)));
/// ```
pub fn locate(text: &str, path: &str) -> Option<(usize, usize)> {
    Located::new(text)?.find(path)
}

/// A document read once for finding many paths in it (each [`locate`]
/// reads the whole text again).
///
/// ```
/// use bpvm_runtime::locate::Located;
/// let doc = Located::new("a:\n  b: 1\nc: [x, y]\n").unwrap();
/// assert_eq!(doc.find("a.b"), Some((2, 3)));
/// assert_eq!(doc.find("c[1]"), Some((3, 8)));
/// ```
pub struct Located {
    root: Node,
}

impl Located {
    /// The document `text`; `None` when it is not YAML the locator reads.
    pub fn new(text: &str) -> Option<Located> {
        tree(text).map(|root| Located { root })
    }

    /// [`locate`] in this document.
    pub fn find(&self, path: &str) -> Option<(usize, usize)> {
        find(&self.root, path)
    }

    /// Where the value `path` names starts (its first character: a
    /// quote, or the text; a block's first line of text), and its text as
    /// read, when the path leads to a string, number or other scalar.
    ///
    /// ```
    /// use bpvm_runtime::locate::Located;
    /// let doc = Located::new("a:\n  b: \"x\"\n  c: |\n    y\n").unwrap();
    /// assert_eq!(doc.value("a.b"), Some(((2, 6), "x")));
    /// assert_eq!(doc.value("a.c"), Some(((4, 5), "y\n")));
    /// assert_eq!(doc.value("a.d"), None);
    /// ```
    pub fn value(&self, path: &str) -> Option<((usize, usize), &str)> {
        match walk(&self.root, path).1? {
            Node {
                line,
                col,
                kind: Kind::Scalar(text),
            } => Some(((*line, *col), text.as_str())),
            _ => None,
        }
    }
}

fn find(root: &Node, path: &str) -> Option<(usize, usize)> {
    walk(root, path).0
}

/// The key (or item) `path` leads to, as far as it can be followed, and
/// the value there when it can be followed to its end.
fn walk<'n>(root: &'n Node, path: &str) -> (Option<(usize, usize)>, Option<&'n Node>) {
    let mut at = root;
    let mut found = None;
    for (key, items) in steps(path) {
        if !key.is_empty() {
            let Kind::Map(entries) = &at.kind else {
                return (found, None);
            };
            let Some((_, l, c, v)) = entries.iter().find(|(k, ..)| *k == key) else {
                return (found, None);
            };
            found = Some((*l, *c));
            at = v;
        }
        for item in items.into_iter().flat_map(|s| s.split(']')).filter(|s| !s.is_empty()) {
            let id = item.trim_start_matches('[');
            let Kind::List(list) = &at.kind else {
                return (found, None);
            };
            let field = |n: &Node, f: &str| match &n.kind {
                Kind::Map(e) => e.iter().find_map(|(k, .., v)| match &v.kind {
                    Kind::Scalar(t) if k == f => Some(t.clone()),
                    _ => None,
                }),
                _ => None,
            };
            let hit = list
                .iter()
                .find(|n| field(n, "name").as_deref() == Some(id) || field(n, "path").as_deref() == Some(id))
                .or_else(|| id.parse::<usize>().ok().and_then(|i| list.get(i)));
            let Some(n) = hit else { return (found, None) };
            found = Some((n.line, n.col));
            at = n;
        }
    }
    (found, Some(at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_lead_to_keys_and_items() {
        let doc = "kind: Facet\nconfig:\n  - name: talos\n    value:\n      disks: [a, b]\nterraform:\n  - path: cluster/talos\n    inputs: {endpoint: x}\n";
        assert_eq!(locate(doc, "config[talos].value.disks"), Some((5, 7)));
        assert_eq!(locate(doc, "terraform[cluster/talos].inputs.endpoint"), Some((8, 14)));
        assert_eq!(locate(doc, "config[0].value"), Some((4, 5)));
        // As far as the path goes.
        assert_eq!(locate(doc, "config[talos].nothing"), Some((3, 5)));
        assert_eq!(locate(doc, "nothing"), None);
        assert_eq!(locate("a: [", "a"), None);
        // A quoted key holds dots.
        let doc = "config:\n  user.hostname: x\n  a: {\"b.c\": [1, 2]}\n";
        assert_eq!(locate(doc, "config.\"user.hostname\""), Some((2, 3)));
        assert_eq!(locate(doc, "config.a.\"b.c\"[1]"), Some((3, 18)));
    }
}
