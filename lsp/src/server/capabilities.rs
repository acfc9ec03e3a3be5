//! What the server tells the client it does: only what is implemented.

use lsp_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, CompletionOptions, ExecuteCommandOptions,
    HoverProviderCapability, OneOf, SaveOptions, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions,
};

/// The command that sets the Windsor context hover evaluates in; its one
/// argument is the context's name.
pub const SELECT_CONTEXT: &str = "bpvm.selectContext";

/// The server's capabilities: documents synchronised whole, diagnostics
/// pushed, quick fixes, hover, completion (asked again after `.` and
/// `{`), document symbols, definitions, references and the context
/// command.
///
/// ```
/// let caps = bpvm_lsp::server::capabilities();
/// assert!(caps.hover_provider.is_some());
/// assert_eq!(caps.completion_provider.unwrap().trigger_characters.unwrap(), [".", "{"]);
/// assert!(caps.definition_provider.is_some());
/// assert!(caps.references_provider.is_some());
/// ```
pub fn capabilities() -> ServerCapabilities {
    let sync = TextDocumentSyncOptions {
        open_close: Some(true),
        change: Some(TextDocumentSyncKind::FULL),
        save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
            include_text: Some(false),
        })),
        ..TextDocumentSyncOptions::default()
    };
    let actions = CodeActionOptions {
        code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
        ..CodeActionOptions::default()
    };
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(sync)),
        code_action_provider: Some(CodeActionProviderCapability::Options(actions)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".to_string(), "{".to_string()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![SELECT_CONTEXT.to_string()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}
