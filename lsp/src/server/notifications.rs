//! The notifications the client sends: documents opened, changed, saved
//! and closed. One the server does not know, or whose parameters do not
//! parse, is passed over (a notification has no answer to carry an
//! error).

use super::state::State;
use lsp_server::Notification;
use lsp_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, DidSaveTextDocumentParams,
};
use serde::de::DeserializeOwned;

impl State {
    /// Handles notification `n`.
    pub fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Some(p) = params::<DidOpenTextDocumentParams>(n) else {
                    return;
                };
                let doc = p.text_document;
                self.changed(&doc.uri, doc.version, doc.text);
            }
            "textDocument/didChange" => {
                let Some(p) = params::<DidChangeTextDocumentParams>(n) else {
                    return;
                };
                // Full synchronisation: the last change holds the whole text.
                let Some(change) = p.content_changes.into_iter().last() else {
                    return;
                };
                self.changed(&p.text_document.uri, p.text_document.version, change.text);
            }
            "textDocument/didSave" => {
                let Some(p) = params::<DidSaveTextDocumentParams>(n) else {
                    return;
                };
                self.settle(&p.text_document.uri);
            }
            "textDocument/didClose" => {
                let Some(p) = params::<DidCloseTextDocumentParams>(n) else {
                    return;
                };
                // Closed unsaved: the project is as on disk again.
                self.settle(&p.text_document.uri);
                self.documents.close(&p.text_document.uri);
            }
            _ => {}
        }
    }

    /// The document at `uri` now holds `text`, at `version`.
    fn changed(&mut self, uri: &lsp_types::Uri, version: i32, text: String) {
        self.documents.change(uri, version, text);
        self.settle(uri);
    }
}

/// The parameters of `n` as `P`; `None` when they do not parse.
fn params<P: DeserializeOwned>(n: Notification) -> Option<P> {
    serde_json::from_value(n.params).ok()
}
