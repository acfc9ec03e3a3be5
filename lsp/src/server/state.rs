//! What the server holds between messages: the open documents, the
//! diagnostics published, the checks waiting.

use super::pending::Pending;
use crate::diagnose::{Kept, Published, Template, diagnose, template_of};
use crate::hover::Evaluated;
use crate::text::{Documents, open::uri_of};
use lsp_server::{Connection, Message, Notification};
use lsp_types::{PublishDiagnosticsParams, Uri};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

/// The server's state.
#[derive(Default)]
pub struct State {
    /// The documents the editor has open.
    pub documents: Documents,
    /// The files each template has diagnostics published for.
    pub published: Published,
    /// Templates edited and not checked since.
    pub pending: Pending,
    /// What each Windsor project's last check keeps for the next.
    pub kept: Kept,
    /// The Windsor context the editor selected for hover; `None`: the
    /// one `bpvm render` would choose.
    pub context: Option<String>,
    /// Each Windsor project evaluated for hover (or why it cannot be),
    /// until it is edited.
    pub evaluated: BTreeMap<PathBuf, Result<Evaluated, String>>,
}

impl State {
    /// The document at `uri` changed (opened, edited, saved, closed):
    /// the template it belongs to is checked once edits pause.
    pub fn settle(&mut self, uri: &Uri) {
        let template = self.documents.get(uri).and_then(|d| template_of(&d.path, &d.text));
        if let Some(template) = template {
            self.evaluated.remove(template.path());
            self.pending.edited(template, Instant::now());
        }
    }

    /// Checks the templates that are due and publishes their diagnostics.
    pub fn check_due(&mut self, connection: &Connection) {
        for template in self.pending.due(Instant::now()) {
            self.check(connection, &template);
        }
    }

    /// Checks `template` now and publishes each of its files' diagnostics
    /// (none for a file whose findings are gone).
    pub fn check(&mut self, connection: &Connection, template: &Template) {
        let mut found = diagnose(template, &mut self.kept);
        // An open document of the template with no findings is told so
        // too: each check answers the edit that caused it.
        for doc in self.documents.all() {
            if template_of(&doc.path, &doc.text).as_ref() == Some(template) {
                found.entry(doc.path.clone()).or_default();
            }
        }
        for (path, diagnostics) in self.published.update(template, found) {
            let Some(uri) = uri_of(&path) else { continue };
            let version = self.documents.by_path(&path).map(|d| d.version);
            let params = PublishDiagnosticsParams::new(uri, diagnostics, version);
            let note = Notification::new("textDocument/publishDiagnostics".to_string(), params);
            // A closed connection ends the loop at its next receive.
            let _ = connection.sender.send(Message::Notification(note));
        }
    }
}
