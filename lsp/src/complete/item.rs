//! A completion item as every kind of completion makes it. A leaf.

use lsp_types::{CompletionItem, CompletionItemKind, Documentation, MarkupContent, MarkupKind};

/// A completion item.
pub(super) fn item(label: &str, kind: CompletionItemKind, detail: Option<String>, doc: Option<&str>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail,
        documentation: doc.map(|d| {
            Documentation::MarkupContent(MarkupContent {
                kind: MarkupKind::Markdown,
                value: d.to_string(),
            })
        }),
        ..CompletionItem::default()
    }
}
