//! The requests the client sends, each answered: code actions, hover,
//! completion, document symbols and commands; anything else with MethodNotFound. Parameters that do not parse are
//! InvalidParams; a request about a document that is not open, or a
//! place outside it, has an empty answer.
//!
//! Definitions and references are answered by `navigate`.

use super::state::State;
use crate::complete::complete;
use crate::diagnose::fixes;
use crate::navigate::{definition, references};
use lsp_server::{Connection, ErrorCode, Message, Request, RequestId, Response};
use lsp_types::{CodeActionParams, CompletionParams};
use serde::de::DeserializeOwned;

impl State {
    /// Answers request `req` on `connection`.
    pub fn request(&mut self, connection: &Connection, req: Request) {
        let id = req.id.clone();
        let response = match req.method.as_str() {
            "textDocument/codeAction" => answer(req, |p: CodeActionParams| {
                fixes(&p.text_document.uri, &p.context.diagnostics)
            }),
            "textDocument/hover" => answer(req, |p| self.hover(p)),
            "textDocument/completion" => answer(req, |p: CompletionParams| {
                let at = p.text_document_position;
                let doc = self.documents.get(&at.text_document.uri);
                doc.map_or_else(Vec::new, |doc| complete(doc, at.position))
            }),
            "textDocument/documentSymbol" => answer(req, |p| self.symbols(p)),
            "textDocument/definition" => answer(req, |p| {
                definition(&self.documents, &mut self.evaluated, self.context.as_deref(), p)
            }),
            "textDocument/references" => answer(req, |p| references(&self.documents, p)),
            "workspace/executeCommand" => match serde_json::from_value(req.params.clone()).map(|p| self.command(p)) {
                Ok(Ok(())) => Response::new_ok(id, serde_json::Value::Null),
                Ok(Err(e)) => Response::new_err(id, ErrorCode::InvalidParams as i32, e),
                Err(e) => invalid(req.id, &req.method, e),
            },
            method => Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("bpvm lsp does not handle {method}"),
            ),
        };
        let _ = connection.sender.send(Message::Response(response));
    }
}

/// The answer to `req`: `f` of its parameters, or InvalidParams when they
/// do not parse as `P`.
fn answer<P: DeserializeOwned, R: serde::Serialize>(req: Request, f: impl FnOnce(P) -> R) -> Response {
    match serde_json::from_value::<P>(req.params) {
        Ok(p) => Response::new_ok(req.id, f(p)),
        Err(e) => invalid(req.id, &req.method, e),
    }
}

/// The InvalidParams error of request `id`, `method`, whose parameters
/// did not parse.
fn invalid(id: RequestId, method: &str, e: serde_json::Error) -> Response {
    Response::new_err(
        id,
        ErrorCode::InvalidParams as i32,
        format!("{method}: the parameters do not parse: {e}"),
    )
}
