//! Where a key is being written in a YAML document: the cursor on a line
//! holding only indentation, list dashes and part of a name, and the
//! mappings and list items that line is nested in, read from the
//! indentation of the lines above it. The text is being edited and need
//! not parse; only block style is followed (a flow `{…}` is not).

/// One step from the document's top to the mapping a key is written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Nest {
    /// The value of this key.
    Key(String),
    /// An item of a list.
    Item,
}

/// A key being written: the mappings it is nested in, outermost first,
/// and the part of its name typed so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAt {
    /// Where the key's mapping is.
    pub nest: Vec<Nest>,
    /// The name typed so far.
    pub partial: String,
    /// The keys its mapping has on other lines, above and below.
    pub written: Vec<String>,
}

/// One line's block structure: the columns of its list dashes, and its
/// key (column and name) when it has one.
#[derive(Debug, PartialEq)]
struct Shape<'t> {
    dashes: Vec<usize>,
    key: Option<(usize, &'t str)>,
    /// The column of the first thing after the dashes.
    content: usize,
}

/// The key being written at byte `at` of line `line` of `lines`; `None`
/// where the cursor is not at a key (in a value, a comment, a line with
/// more than a name on it).
///
/// ```
/// use bpvm_lsp::complete::{KeyAt, Nest, key_at};
/// let lines = ["terraform:", "  - name: vpc", "    pa"];
/// let at = key_at(&lines, 2, 6).unwrap();
/// assert_eq!(at.nest, [Nest::Key("terraform".into()), Nest::Item]);
/// assert_eq!(at.partial, "pa");
/// assert_eq!(key_at(&lines, 1, 13), None);
/// ```
pub fn key_at(lines: &[&str], line: usize, at: usize) -> Option<KeyAt> {
    let before = lines.get(line)?.get(..at)?;
    let (rest, dashes) = strip_dashes(before);
    let partial = rest.trim_start();
    if !partial
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '$'))
    {
        return None;
    }
    let content = before.len() - partial.len();
    let written = written(lines, line, content, !dashes.is_empty());
    let mut nest: Vec<Nest> = dashes.iter().map(|_| Nest::Item).collect();
    let mut limit = dashes.first().copied().unwrap_or(content);
    let mut in_item = !dashes.is_empty();
    for above in lines[..line].iter().rev() {
        if above.trim_end() == "---" {
            break;
        }
        let Some(shape) = shape(above) else { continue };
        if let Some((items, key, start)) = parent(&shape, limit, in_item) {
            nest.extend(std::iter::repeat_n(Nest::Item, items));
            if let Some(key) = key {
                nest.push(Nest::Key(key.to_string()));
            }
            limit = start;
            in_item = items > 0 && key.is_none();
            if limit == 0 && !in_item {
                break;
            }
        }
    }
    nest.reverse();
    Some(KeyAt {
        nest,
        partial: partial.to_string(),
        written,
    })
}

/// The keys written at column `column` in the mapping of line `line`
/// (which starts a list item when `starts_item`): the lines above it up
/// to the mapping's start, and below it up to its end.
fn written(lines: &[&str], line: usize, column: usize, starts_item: bool) -> Vec<String> {
    let mut found = Vec::new();
    let mut sibling = |above: &str| -> bool {
        let Some(shape) = shape(above) else { return true };
        let first = shape.dashes.first().copied().unwrap_or(shape.content);
        match shape.key {
            Some((c, name)) if c == column => {
                found.push(name.to_string());
                // A dash before it starts the mapping.
                shape.dashes.is_empty()
            }
            _ => first >= column && above.trim_end() != "---",
        }
    };
    if !starts_item {
        for above in lines[..line].iter().rev() {
            if !sibling(above) {
                break;
            }
        }
    }
    for below in &lines[line + 1..] {
        let starts_another = shape(below).is_some_and(|s| !s.dashes.is_empty());
        if starts_another && shape(below).is_some_and(|s| s.dashes[0] < column) || !sibling(below) {
            break;
        }
    }
    found
}

/// What line `shape` adds to the nesting of a node starting at column
/// `limit` (a list item when `in_item`): how many list items and which
/// key hold it, and where that holder starts; `None` when the line is
/// not one that holds it (a sibling, or something nested deeper).
fn parent<'t>(shape: &Shape<'t>, limit: usize, in_item: bool) -> Option<(usize, Option<&'t str>, usize)> {
    let first = shape.dashes.first().copied().unwrap_or(shape.content);
    match shape.key {
        // The node is a key of the mapping this line's list item starts.
        Some((column, _)) if column == limit && !in_item && !shape.dashes.is_empty() => {
            Some((shape.dashes.len(), None, first))
        }
        // A key above with a smaller indent (or a list's key written at
        // its items' own column) holds the node.
        Some((column, name)) if column < limit || (in_item && column == limit && shape.dashes.is_empty()) => {
            Some((shape.dashes.len(), Some(name), first))
        }
        // A bare dash above, its item's content on the lines below.
        None if !shape.dashes.is_empty() && first < limit => Some((shape.dashes.len(), None, first)),
        _ => None,
    }
}

/// The block structure of `line`; `None` for a blank or comment line.
fn shape(line: &str) -> Option<Shape<'_>> {
    let (rest, dashes) = strip_dashes(line);
    let body = rest.trim_start();
    if body.is_empty() && dashes.is_empty() || body.starts_with('#') {
        return None;
    }
    let content = line.len() - body.len();
    let key = key_of(body).map(|name| (content, name));
    Some(Shape { dashes, key, content })
}

/// The key a line's content starts with (`name:` then a space or the
/// end), quotes removed.
fn key_of(body: &str) -> Option<&str> {
    let end = body.find(": ").or_else(|| body.strip_suffix(':').map(str::len))?;
    let key = body[..end].trim();
    let key = ['"', '\'']
        .iter()
        .find_map(|q| key.strip_prefix(*q)?.strip_suffix(*q))
        .unwrap_or(key);
    (!key.is_empty() && !key.starts_with(['{', '[', '-'])).then_some(key)
}

/// `text` after its leading list dashes (`- - `), with each dash's column.
fn strip_dashes(text: &str) -> (&str, Vec<usize>) {
    let mut dashes = Vec::new();
    let mut rest = text;
    loop {
        let trimmed = rest.trim_start_matches(' ');
        let column = text.len() - trimmed.len();
        match trimmed.strip_prefix('-') {
            Some(after) if after.is_empty() || after.starts_with(' ') => {
                dashes.push(column);
                rest = after;
            }
            _ => return (rest, dashes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is expected: the steps, and the name typed.
    type Nesting = (Vec<Nest>, &'static str);

    fn key(k: &str) -> Nest {
        Nest::Key(k.to_string())
    }

    /// A document with `¶` where the cursor is, and the nesting found there.
    fn at(doc: &str) -> Option<(Vec<Nest>, String)> {
        let lines: Vec<&str> = doc.split('\n').collect();
        let line = lines.iter().position(|l| l.contains('¶')).unwrap();
        let column = lines[line].find('¶').unwrap();
        let text = doc.replace('¶', "");
        let lines: Vec<&str> = text.split('\n').collect();
        key_at(&lines, line, column).map(|k| (k.nest, k.partial))
    }

    #[test]
    fn the_keys_already_written_in_the_mapping_are_known() {
        let lines = [
            "cases:",
            "  - name: a",
            "    values: {}",
            "    inputs:",
            "      deep: 1",
            "    ",
            "    # note",
            "    expect: {}",
            "  - name: b",
        ];
        assert_eq!(
            key_at(&lines, 5, 4).unwrap().written,
            ["inputs", "values", "name", "expect"]
        );
        let new_item = ["cases:", "  - name: a", "  - ", "    env: {}", "other: 1"];
        assert_eq!(key_at(&new_item, 2, 4).unwrap().written, ["env"]);
    }

    #[test]
    fn keys_are_placed_by_the_indentation_above() {
        let cases: &[(&str, Option<Nesting>)] = &[
            ("¶", Some((vec![], ""))),
            ("kind: Facet\nter¶", Some((vec![], "ter"))),
            ("metadata:\n  name: x\n  de¶", Some((vec![key("metadata")], "de"))),
            ("terraform:\n  - ¶", Some((vec![key("terraform"), Nest::Item], ""))),
            (
                "terraform:\n- name: a\n  ¶",
                Some((vec![key("terraform"), Nest::Item], "")),
            ),
            (
                "terraform:\n  - name: a\n    inputs:\n      x: 1\n    pa¶",
                Some((vec![key("terraform"), Nest::Item], "pa")),
            ),
            (
                "terraform:\n  - name: a\n    inputs:\n      ¶",
                Some((vec![key("terraform"), Nest::Item, key("inputs")], "")),
            ),
            (
                "cases:\n  - name: a\n\n    # values\n    values:\n      x: 1\n  - name: b\n    exp¶",
                Some((vec![key("cases"), Nest::Item], "exp")),
            ),
            ("a:\n  -\n    ¶", Some((vec![key("a"), Nest::Item], ""))),
            ("a:\n  b: |\n    text\n  c¶", Some((vec![key("a")], "c"))),
            ("x: 1\n---\ny:\n  ¶", Some((vec![key("y")], ""))),
            ("name: va¶", None),
            ("# com¶", None),
        ];
        for (doc, want) in cases {
            let want = want.clone().map(|(n, p)| (n, p.to_string()));
            assert_eq!(at(doc), want, "{doc:?}");
        }
    }
}
