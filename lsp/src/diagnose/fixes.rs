//! Quick fixes: a finding with a did-you-mean replaces the misspelt name
//! with the one meant.

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Diagnostic, Range, TextEdit, Uri, WorkspaceEdit};
use std::collections::HashMap;

/// A quick fix for each of `diagnostics` (those the editor sent with a
/// code action request for `uri`) that carries a replacement: the
/// misspelt name (`range` in its data) replaced by the one meant.
///
/// ```
/// use bpvm_lsp::diagnose::fixes;
/// use lsp_types::{Diagnostic, Position, Range};
/// let uri: lsp_types::Uri = "file:///p/facets/a.yaml".parse().unwrap();
/// let d = Diagnostic {
///     range: Range::new(Position::new(2, 8), Position::new(2, 22)),
///     message: "cluster.wokers: no such property; did you mean cluster.workers?".into(),
///     data: Some(serde_json::json!({ "replacement": "cluster.workers", "range": Range::new(Position::new(2, 8), Position::new(2, 22)) })),
///     ..Diagnostic::default()
/// };
/// let actions = fixes(&uri, &[d.clone(), Diagnostic { data: None, ..d }]);
/// assert_eq!(actions.len(), 1);
/// ```
// lsp-types keys a workspace edit by `Uri`, whose cached parts clippy
// takes for mutable state; its hash never changes.
#[allow(clippy::mutable_key_type)]
pub fn fixes(uri: &Uri, diagnostics: &[Diagnostic]) -> Vec<CodeActionOrCommand> {
    diagnostics
        .iter()
        .filter_map(|d| {
            let data = d.data.as_ref()?;
            let meant = data.get("replacement")?.as_str()?;
            let range: Range = serde_json::from_value(data.get("range")?.clone()).ok()?;
            let edit = TextEdit::new(range, meant.to_string());
            let changes = HashMap::from([(uri.clone(), vec![edit])]);
            Some(CodeActionOrCommand::CodeAction(CodeAction {
                title: format!("Replace with {meant}"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(WorkspaceEdit::new(changes)),
                is_preferred: Some(true),
                ..CodeAction::default()
            }))
        })
        .collect()
}
