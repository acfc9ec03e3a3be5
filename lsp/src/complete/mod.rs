//! Completion: in a `${…}` or a `when:` condition of a Windsor project,
//! the value paths its schema, config blocks and contexts declare, and
//! the dialect's functions with their signatures; in a Bluelink
//! substitution, the kinds of reference, the names the blueprint
//! declares and the core functions; at a key, the fields the loader of
//! that file kind accepts (facets, components, flux systems, test cases,
//! blueprints). The document's text is read as edited. Imports `text`
//! and `diagnose` (which template a file belongs to).

mod bluelink;
mod expression;
mod fields;
mod functions;
mod item;
mod key;
mod project;
mod schema;
mod values;

pub use bluelink::blueprint_items;
pub use expression::{Step, Typed, expression_before, path_before};
pub use fields::{Offered, fields_at};
pub use functions::{function_items, predicate_items};
pub use key::{KeyAt, Nest, key_at};
pub use project::{Block, Declared, declared, schema_of};
pub use schema::{default_of, description_of, properties_at, type_of};

use item::item;

use crate::diagnose::{Template, template_of};
use crate::text::Document;
use bpvm::runtime::shape::Ty;
use bpvm::windsor::format::Format;
use lsp_types::{CompletionItem, CompletionItemKind, Position};
use std::path::Path;

/// The completions at `position` of the open document `doc`, those that
/// match the name typed so far (its characters in order, any case); at a
/// key, the fields its mapping does not have yet. None where nothing is
/// completed (plain text, a value, a comment).
///
/// ```
/// use bpvm_lsp::text::Documents;
/// let dir = tempfile::tempdir().unwrap();
/// let file = dir.path().join("blueprint.yaml");
/// let text = "version: 2025-11-02\nresources:\n  queue: {type: aws/sqs/queue}\nexports:\n  q: {field: '${resources.'}\n";
/// std::fs::write(&file, text).unwrap();
/// let uri: lsp_types::Uri = format!("file://{}", file.display()).parse().unwrap();
/// let mut open = Documents::default();
/// let doc = open.open(&uri, 1, text.into()).unwrap();
/// let items = bpvm_lsp::complete::complete(doc, lsp_types::Position::new(4, 26));
/// assert_eq!(items.iter().map(|i| i.label.as_str()).collect::<Vec<_>>(), ["queue"]);
/// ```
pub fn complete(doc: &Document, position: Position) -> Vec<CompletionItem> {
    completions(doc, position).unwrap_or_default()
}

/// [`complete`], before the typed name filters it.
fn completions(doc: &Document, position: Position) -> Option<Vec<CompletionItem>> {
    let (text, lines) = (doc.text.as_str(), &doc.lines);
    let line_start = lines.offset(text, Position::new(position.line, 0))?;
    let at = lines.offset(text, position)? - line_start;
    let line = lines.line(text, position.line as usize);
    let template = template_of(&doc.path, text);
    if let Some(expression) = expression_before(line, at) {
        let typed = path_before(expression)?;
        let items = match template? {
            Template::Windsor(dir) => values::value_items(&declared(&dir), &typed),
            Template::Bluelink(_) => {
                let name = doc.path.file_name()?.to_str()?;
                blueprint_items(text, name, &typed)
            }
        };
        return Some(matching(items, &typed.partial));
    }
    let all: Vec<&str> = (0..lines.count()).map(|i| lines.line(text, i)).collect();
    let key = key_at(&all, position.line as usize, at)?;
    Some(field_items(&shapes_of(&doc.path, &template?), &key))
}

/// The fields documents shaped `shapes` accept at `key` that its mapping
/// does not have yet, each once, those matching the name typed.
fn field_items(shapes: &[Ty], key: &KeyAt) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = Vec::new();
    for shape in shapes {
        for field in fields_at(shape, &key.nest) {
            let written = key.written.iter().any(|k| k == field.name);
            if !written && !items.iter().any(|i| i.label == field.name) {
                let doc = (!field.doc.is_empty()).then_some(field.doc);
                items.push(item(field.name, CompletionItemKind::FIELD, Some(field.detail), doc));
            }
        }
    }
    matching(items, &key.partial)
}

/// The shapes of the file at `path` of `template`: a Windsor file's by
/// where it is and the facets' format (both formats' when they mix), a
/// blueprint's; none for other files.
fn shapes_of(path: &Path, template: &Template) -> Vec<Ty> {
    let dir = match template {
        Template::Windsor(dir) => dir,
        Template::Bluelink(_) if !bpvm::bluelink::lang::is_bp(&path.to_string_lossy()) => {
            return vec![bpvm::bluelink::SCHEMA.ty];
        }
        Template::Bluelink(_) => return Vec::new(),
    };
    let Ok(relative) = path.strip_prefix(dir) else {
        return Vec::new();
    };
    let relative = relative.to_string_lossy();
    let kind = match relative.as_ref() {
        r if r.starts_with("contexts/_template/facets/") || r.starts_with("contexts/_template/features/") => {
            "windsor-facet"
        }
        r if r.starts_with("contexts/_template/tests/") => "windsor-test",
        "contexts/_template/blueprint.yaml" => "windsor-blueprint",
        "windsor.yaml" | "windsor.yml" => return named(&["windsor-project"]),
        _ => return Vec::new(),
    };
    let seed = format!("{kind}-seed");
    match declared(dir).format {
        Some(Format::V09) => named(&[kind]),
        Some(Format::Seed) => named(&[&seed]),
        None => named(&[kind, &seed]),
    }
}

/// The shapes of the Windsor documents named `names`.
fn named(names: &[&str]) -> Vec<Ty> {
    bpvm::windsor::schemas::DOCUMENTS
        .iter()
        .filter(|d| names.contains(&d.name))
        .map(|d| d.ty)
        .collect()
}

/// The items whose label holds the characters of `typed` in order, in
/// any case (as editors filter the list further).
fn matching(items: Vec<CompletionItem>, typed: &str) -> Vec<CompletionItem> {
    let typed = typed.to_lowercase();
    items
        .into_iter()
        .filter(|i| {
            let mut label = i.label.to_lowercase().chars().collect::<Vec<_>>().into_iter();
            typed.chars().all(|c| label.any(|l| l == c))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_typed_name_filters_by_its_characters_in_order() {
        let items = ["workers", "cluster_workers", "network", "Wx"]
            .iter()
            .map(|l| item(l, CompletionItemKind::FIELD, None, None))
            .collect();
        let kept: Vec<String> = matching(items, "wrk").into_iter().map(|i| i.label).collect();
        assert_eq!(kept, ["workers", "cluster_workers", "network"]);
    }
}
