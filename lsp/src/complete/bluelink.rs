//! The names a Bluelink substitution can read: the kinds of reference
//! (`variables.`, `resources.`, …), the names the blueprint declares for
//! each, a data source's exported fields, and the core functions.

use super::expression::{Step, Typed};
use super::functions::function_items;
use super::item::item;
use bpvm::Value;
use bpvm::bluelink::lang::is_bp;
use lsp_types::{CompletionItem, CompletionItemKind};

/// A kind of reference: how a substitution starts it, the blueprint
/// section declaring its names, and what one is.
struct Reference {
    prefix: &'static str,
    section: &'static str,
    what: &'static str,
}

/// The references whose names a blueprint declares.
const REFERENCES: &[Reference] = &[
    Reference {
        prefix: "variables",
        section: "variables",
        what: "variable",
    },
    Reference {
        prefix: "values",
        section: "values",
        what: "value",
    },
    Reference {
        prefix: "datasources",
        section: "datasources",
        what: "data source",
    },
    Reference {
        prefix: "resources",
        section: "resources",
        what: "resource",
    },
    Reference {
        prefix: "children",
        section: "include",
        what: "child blueprint",
    },
];

/// The completions of the path `typed` in the blueprint `text` (file
/// `name`): at a path's start the kinds of reference and the core
/// functions; after one, the names declared; after a data source's name,
/// its exports. A blueprint being edited that does not parse declares no
/// names.
///
/// ```
/// use bpvm_lsp::complete::{Step, Typed, blueprint_items};
/// let text = "version: 2025-11-02\nresources:\n  queue: {type: aws/sqs/queue}\n";
/// let typed = Typed { steps: vec![Step::Key("resources".into())], partial: String::new() };
/// let items = blueprint_items(text, "blueprint.yaml", &typed);
/// assert_eq!(items[0].label, "queue");
/// assert_eq!(items[0].detail.as_deref(), Some("resource, aws/sqs/queue"));
/// ```
pub fn blueprint_items(text: &str, name: &str, typed: &Typed) -> Vec<CompletionItem> {
    let doc = document(text, name);
    let section = |r: &Reference| doc.as_ref().and_then(|d| d.as_map()?.get(r.section)?.as_map().cloned());
    match typed.steps.as_slice() {
        [] => {
            let mut out: Vec<CompletionItem> = REFERENCES
                .iter()
                .map(|r| item(r.prefix, CompletionItemKind::MODULE, Some(format!("{}s", r.what)), None))
                .collect();
            out.extend(function_items(bpvm::Compiler::new(bpvm::Dialect::Bluelink).functions()));
            out
        }
        [Step::Key(first)] => {
            let Some(reference) = REFERENCES.iter().find(|r| r.prefix == first) else {
                return Vec::new();
            };
            let declared = section(reference).unwrap_or_default();
            declared
                .iter()
                .map(|(name, def)| {
                    let ty = def.as_map().and_then(|d| d.get("type")?.as_str());
                    let detail = ty.map_or_else(|| reference.what.to_string(), |t| format!("{}, {t}", reference.what));
                    let doc = def.as_map().and_then(|d| d.get("description")?.as_str());
                    item(name.as_str(), CompletionItemKind::VARIABLE, Some(detail), doc)
                })
                .collect()
        }
        [Step::Key(first), Step::Key(source)] if first == "datasources" => {
            let sources = REFERENCES.iter().find(|r| r.prefix == "datasources").and_then(section);
            let exports = sources.and_then(|s| s.get(source)?.as_map()?.get("exports")?.as_map().cloned());
            exports
                .unwrap_or_default()
                .iter()
                .map(|(field, export)| {
                    let ty = export
                        .as_map()
                        .and_then(|e| e.get("type")?.as_str())
                        .unwrap_or("export");
                    let doc = export.as_map().and_then(|e| e.get("description")?.as_str());
                    item(field.as_str(), CompletionItemKind::FIELD, Some(ty.to_string()), doc)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The blueprint `text` as a value: YAML and JSON, or the `.bp` language
/// when `name` is a `.bp` file; `None` when it does not parse.
fn document(text: &str, name: &str) -> Option<Value> {
    let node = if is_bp(name) {
        bpvm::bluelink::lang::read(text).ok()?
    } else {
        bpvm::bluelink::node::read(text).ok()?
    };
    Some(node.to_value())
}
