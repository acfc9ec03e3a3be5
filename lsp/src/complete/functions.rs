//! A dialect's functions as completions: each name with how many
//! arguments it takes, from the library the compiler resolves calls
//! against.

use super::item;
use bpvm::runtime::func::VARIADIC;
use bpvm::runtime::{Builtin, Library};
use lsp_types::{CompletionItem, CompletionItemKind};

/// Every function of `library`, in the library's order, each with its
/// signature (`split(2 arguments)`) as detail.
///
/// ```
/// use bpvm_lsp::complete::function_items;
/// let items = function_items(bpvm::Compiler::new(bpvm::Dialect::Windsor).functions());
/// let len = items.iter().find(|i| i.label == "len").unwrap();
/// assert_eq!(len.detail.as_deref(), Some("len(1 argument)"));
/// ```
pub fn function_items(library: &Library) -> Vec<CompletionItem> {
    library
        .names()
        .into_iter()
        .filter_map(|name| library.find(name))
        .map(|f| item(f.name, CompletionItemKind::FUNCTION, Some(signature(f)), None))
        .collect()
}

/// `f`'s name and how many arguments it takes: `len(1 argument)`,
/// `list(any number of arguments)`.
fn signature(f: &Builtin) -> String {
    let arguments = match (f.min, f.max) {
        (0, VARIADIC) => "any number of arguments".to_string(),
        _ => f.arguments(),
    };
    format!("{}({arguments})", f.name)
}
