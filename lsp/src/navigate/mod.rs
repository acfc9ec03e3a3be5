//! Go to definition and find references. In a Windsor project: a path
//! an expression reads to where the context sets it (its values file,
//! `windsor.yaml`, or the schema's default — the provenance hover shows),
//! a config block's use to the block, a `dependsOn` entry to its
//! component; and a block's or component's uses. In a Bluelink
//! blueprint: a reference to the variable, value, data source, resource,
//! child or child's export it reads. Imports `text`, `diagnose` (which
//! template a file is of) and `hover` (the evaluated context).

mod bluelink;
mod declared;
mod names;
mod origin;
mod source;
mod windsor;
mod written;

pub use declared::{Mark, Section, marks, system_of};
pub use names::{Name, names};
pub use source::Source;
pub use windsor::{Scanned, Target};
pub use written::names_written;

use crate::diagnose::{Template, template_of};
use crate::hover::{Evaluated, evaluate};
use crate::text::{Document, Documents};
use bpvm::windsor::Project;
use lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Location, Position, ReferenceParams, Uri};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Each Windsor project's context, evaluated once until it is edited (or
/// why it cannot be), shared with hover.
pub type Evaluations = BTreeMap<PathBuf, Result<Evaluated, String>>;

/// Where what is at a place of an open document is defined; `None` where
/// nothing is named, where what is named is set nowhere (a value a rule
/// derives), or in a document that is not open. A value is evaluated in
/// the context `selected` (else the one `bpvm render` chooses).
///
/// ```
/// use bpvm_lsp::navigate::{Evaluations, definition};
/// use bpvm_lsp::text::{Documents, open::uri_of};
/// use lsp_types::{GotoDefinitionParams, GotoDefinitionResponse, Position, TextDocumentIdentifier, TextDocumentPositionParams};
/// let dir = tempfile::tempdir().unwrap();
/// let bp = dir.path().canonicalize().unwrap().join("bp.yaml");
/// let text = "version: 2025-11-02\nvariables:\n  region: {type: string}\nvalues:\n  r: {type: string, value: '${variables.region}'}\n";
/// std::fs::write(&bp, text).unwrap();
/// let uri = uri_of(&bp).unwrap();
/// let mut open = Documents::default();
/// open.open(&uri, 1, text.to_string());
/// let at = |line, character| GotoDefinitionParams {
///     text_document_position_params: TextDocumentPositionParams::new(
///         TextDocumentIdentifier::new(uri.clone()),
///         Position::new(line, character),
///     ),
///     work_done_progress_params: Default::default(),
///     partial_result_params: Default::default(),
/// };
/// let Some(GotoDefinitionResponse::Array(found)) = definition(&open, &mut Evaluations::new(), None, at(4, 42)) else {
///     panic!("no definition");
/// };
/// assert_eq!((found[0].range.start, found[0].range.end), (Position::new(2, 2), Position::new(2, 8)));
/// assert!(definition(&open, &mut Evaluations::new(), None, at(0, 1)).is_none());
/// ```
pub fn definition(
    documents: &Documents,
    evaluations: &mut Evaluations,
    selected: Option<&str>,
    p: GotoDefinitionParams,
) -> Option<GotoDefinitionResponse> {
    let at = p.text_document_position_params;
    let (doc, source, offset) = opened(documents, &at.text_document.uri, at.position)?;
    let found = match template_of(&doc.path, &doc.text)? {
        Template::Windsor(dir) => {
            let project = Project::load(&dir).ok()?;
            let files = windsor::files(&project);
            let target = windsor::target_at(&project, &files, &source, offset)?;
            let origins = match target.path_read() {
                Some(_) => {
                    let evaluated = evaluations
                        .entry(dir.clone())
                        .or_insert_with(|| evaluate(&dir, selected));
                    evaluated.as_ref().ok().map(|e| &e.origins)
                }
                None => None,
            };
            windsor::definitions(&target, &files, origins, &project)
        }
        Template::Bluelink(_) => bluelink::definition(&source, offset).into_iter().collect(),
    };
    (!found.is_empty()).then_some(GotoDefinitionResponse::Array(found))
}

/// The places that use the config block or component at a place of an
/// open document (its declarations too when the client asks for them);
/// empty for anything else, and for a document that is not open.
///
/// ```
/// use bpvm_lsp::navigate::references;
/// use bpvm_lsp::text::{Documents, open::uri_of};
/// use lsp_types::{Position, ReferenceContext, ReferenceParams, TextDocumentIdentifier, TextDocumentPositionParams};
/// let dir = tempfile::tempdir().unwrap();
/// let p = dir.path().canonicalize().unwrap();
/// std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
/// std::fs::write(p.join("windsor.yaml"), "").unwrap();
/// let facet = p.join("contexts/_template/facets/base.yaml");
/// let text = "kind: Facet\nmetadata: {name: base}\nterraform:\n  - path: vpc\n  - {path: eks, dependsOn: [vpc]}\n";
/// std::fs::write(&facet, text).unwrap();
/// let uri = uri_of(&facet).unwrap();
/// let mut open = Documents::default();
/// open.open(&uri, 1, text.to_string());
/// let params = ReferenceParams {
///     text_document_position: TextDocumentPositionParams::new(TextDocumentIdentifier::new(uri), Position::new(3, 10)),
///     context: ReferenceContext { include_declaration: false },
///     work_done_progress_params: Default::default(),
///     partial_result_params: Default::default(),
/// };
/// let found = references(&open, params);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].range.start, Position::new(4, 28));
/// ```
pub fn references(documents: &Documents, p: ReferenceParams) -> Vec<Location> {
    let at = p.text_document_position;
    let Some((doc, source, offset)) = opened(documents, &at.text_document.uri, at.position) else {
        return Vec::new();
    };
    let Some(Template::Windsor(dir)) = template_of(&doc.path, &doc.text) else {
        return Vec::new();
    };
    let Ok(project) = Project::load(&dir) else {
        return Vec::new();
    };
    let files = windsor::files(&project);
    let Some(target) = windsor::target_at(&project, &files, &source, offset) else {
        return Vec::new();
    };
    windsor::references(&target, &files, &project, p.context.include_declaration)
}

/// The open document at `uri`, as a source, and the byte `position` is at.
fn opened<'d>(documents: &'d Documents, uri: &Uri, position: Position) -> Option<(&'d Document, Source, usize)> {
    let doc = documents.get(uri)?;
    let offset = doc.lines.offset(&doc.text, position)?;
    let source = Source::new(doc.path.clone(), doc.text.clone());
    Some((doc, source, offset))
}
