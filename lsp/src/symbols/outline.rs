//! A file's symbols from its tree: each section's entries, each symbol's
//! range running to where the next one starts.

use super::sections::{BLUELINK, Section, WINDSOR};
use crate::text::Lines;
use bpvm::bluelink::lang;
use bpvm::bluelink::load::VERSIONS;
use bpvm::bluelink::node::{self, Kind, Node};
use lsp_types::{DocumentSymbol, Position, Range, SymbolKind};

/// A symbol found: its name, kind, detail, and where its name is.
struct Found {
    name: String,
    kind: SymbolKind,
    detail: &'static str,
    at: Position,
}

/// The symbols of the file `name` holding `text`: none when it does not
/// parse (its diagnostics say why).
///
/// ```
/// use bpvm_lsp::symbols::symbols;
/// let text = "kind: Facet\nterraform:\n  - name: network\n    path: vpc\nconfig:\n  - name: cluster\n";
/// let found = symbols("facet.yaml", text);
/// let names: Vec<&str> = found.iter().map(|s| s.name.as_str()).collect();
/// assert_eq!(names, ["network", "cluster"]);
/// assert_eq!(found[0].detail.as_deref(), Some("terraform component"));
/// ```
#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be given
pub fn symbols(name: &str, text: &str) -> Vec<DocumentSymbol> {
    let tree = if lang::is_bp(name) {
        lang::read(text).ok()
    } else {
        node::read(text).ok()
    };
    let Some(entries) = tree.as_ref().and_then(Node::entries) else {
        return Vec::new();
    };
    let lines = Lines::new(text);
    let at = |line: u32, col: u32| lines.at_column(text, line as usize, col as usize);
    let bluelink = tree
        .as_ref()
        .and_then(|t| t.get("version"))
        .and_then(Node::as_str)
        .is_some_and(|v| VERSIONS.contains(&v));
    let sections = if bluelink { BLUELINK } else { WINDSOR };
    let mut found: Vec<Found> = Vec::new();
    for entry in entries {
        if let Some(section) = sections.iter().find(|s| s.key == entry.key.as_str()) {
            found.extend(section_entries(section, &entry.value, &at));
        }
    }
    if found.is_empty() {
        found = entries
            .iter()
            .map(|e| Found {
                name: e.key.as_str().to_string(),
                kind: SymbolKind::FIELD,
                detail: "key",
                at: at(e.key_at.line, e.key_at.col),
            })
            .collect();
    }
    let end = lines.position(text, text.len());
    let starts: Vec<Position> = found.iter().map(|f| f.at).collect();
    let text_lines: Vec<&str> = text.split('\n').collect();
    found
        .into_iter()
        .enumerate()
        .map(|(i, f)| {
            let next = starts.get(i + 1).copied().filter(|n| *n > f.at).unwrap_or(end);
            let next = last_content_before(&text_lines, f.at, next);
            let name_end = Position::new(f.at.line, f.at.character + f.name.encode_utf16().count() as u32);
            DocumentSymbol {
                name: f.name,
                detail: Some(f.detail.to_string()),
                kind: f.kind,
                tags: None,
                deprecated: None,
                range: Range::new(f.at, next.max(name_end)),
                selection_range: Range::new(f.at, name_end),
                children: None,
            }
        })
        .collect()
}

/// Where the entry starting at `from` ends, when the next starts at
/// `next`: the end of its last line before `next` that is indented
/// deeper than its first (blank lines and comments aside: a comment above
/// the next entry is about that one, and a shallower line starts
/// something else).
fn last_content_before(lines: &[&str], from: Position, next: Position) -> Position {
    if next.line == from.line {
        return next;
    }
    let text = |line: u32| lines.get(line as usize).map_or("", |l| l.trim_end_matches('\r'));
    let indent = |l: &str| l.len() - l.trim_start().len();
    let own = indent(text(from.line));
    let mut last = from.line;
    for line in from.line + 1..next.line {
        let content = text(line).trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        if indent(text(line)) <= own {
            break;
        }
        last = line;
    }
    Position::new(last, text(last).encode_utf16().count() as u32)
}

/// The entries of `section`, whose value is `value`: a mapping's keys, or
/// a list's items by their `name`.
fn section_entries(section: &Section, value: &Node, at: &impl Fn(u32, u32) -> Position) -> Vec<Found> {
    let found = |name: &str, line: u32, col: u32| Found {
        name: name.to_string(),
        kind: section.kind,
        detail: section.detail,
        at: at(line, col),
    };
    match &value.kind {
        Kind::Map(entries) => entries
            .iter()
            .map(|e| found(e.key.as_str(), e.key_at.line, e.key_at.col))
            .collect(),
        Kind::List(items) => items
            .iter()
            .filter_map(|item| {
                let name = item.get("name")?;
                Some(found(name.as_str()?, name.at.line, name.at.col))
            })
            .collect(),
        Kind::Scalar(_) => Vec::new(),
    }
}
