//! The answers that read the open documents: hover, document symbols,
//! and the command that selects the Windsor context hover evaluates in.

use super::capabilities::SELECT_CONTEXT;
use super::state::State;
use crate::complete::schema_of;
use crate::diagnose::{Template, template_of};
use crate::hover::{evaluate, expression_at, key_shown, shown, substitution_shown, values_key_at};
use crate::symbols::symbols;
use lsp_types::{
    DocumentSymbolParams, DocumentSymbolResponse, ExecuteCommandParams, Hover, HoverContents, HoverParams,
    MarkupContent, MarkupKind, Range,
};

impl State {
    /// The hover at a place of an open document: `None` where there is
    /// nothing to explain, or in a document that is not open.
    pub fn hover(&mut self, p: HoverParams) -> Option<Hover> {
        let at = p.text_document_position_params;
        let doc = self.documents.get(&at.text_document.uri)?;
        let expression = expression_at(&doc.text, &doc.lines, at.position);
        let (dir, expression) = match (template_of(&doc.path, &doc.text)?, expression) {
            (Template::Bluelink(_), Some(e)) => {
                return Some(markdown(substitution_shown(&doc.path, &doc.text, &e)?, e.range));
            }
            (Template::Windsor(dir), Some(e)) => (dir, e),
            (Template::Windsor(dir), None) => {
                let relative = doc.path.strip_prefix(&dir).ok()?;
                let context = relative.strip_prefix("contexts").ok()?;
                let is_values = context.components().count() == 2
                    && context.file_name()? == "values.yaml"
                    && !context.starts_with("_template");
                let key = values_key_at(&doc.text, &doc.lines, at.position).filter(|_| is_values)?;
                let text = key_shown(&schema_of(&dir)?, &key)?;
                return Some(markdown(text, key.range));
            }
            (Template::Bluelink(_), None) => return None,
        };
        let relative = doc.path.strip_prefix(&dir).ok()?.to_string_lossy().into_owned();
        let facet = relative
            .starts_with("contexts/_template/facets/")
            .then_some(relative.as_str());
        let selected = self.context.as_deref();
        let evaluated = self
            .evaluated
            .entry(dir.clone())
            .or_insert_with(|| evaluate(&dir, selected));
        let text = match evaluated {
            Ok(evaluated) => shown(evaluated, &expression, facet),
            Err(e) => format!("The project cannot be evaluated:\n\n```\n{e}\n```\n"),
        };
        Some(markdown(text, expression.range))
    }

    /// The symbols of an open document; none for one that is not open.
    pub fn symbols(&self, p: DocumentSymbolParams) -> DocumentSymbolResponse {
        let found = self.documents.get(&p.text_document.uri).map_or_else(Vec::new, |doc| {
            let name = doc.path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
            symbols(&name, &doc.text)
        });
        DocumentSymbolResponse::Nested(found)
    }

    /// Runs a command: `bpvm.selectContext` with a context's name (hover
    /// evaluates in it from now on). An error says what was wrong.
    pub fn command(&mut self, p: ExecuteCommandParams) -> Result<(), String> {
        if p.command != SELECT_CONTEXT {
            return Err(format!("no command {}: the one command is {SELECT_CONTEXT}", p.command));
        }
        let name = match p.arguments.as_slice() {
            [serde_json::Value::String(name)] if !name.is_empty() => name.clone(),
            _ => return Err(format!("{SELECT_CONTEXT} takes one argument, the context's name")),
        };
        self.context = Some(name);
        self.evaluated.clear();
        Ok(())
    }
}

/// A hover of Markdown `text` over `range`.
fn markdown(text: String, range: Range) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(range),
    }
}
