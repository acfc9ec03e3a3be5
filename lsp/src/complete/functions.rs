//! A dialect's functions as completions: each name with how many
//! arguments it takes, from the library the compiler resolves calls
//! against and, for expr-lang, the builtins the compiler turns into loops
//! (`filter`, `map`, …).

use super::item::item;
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

/// The expr-lang builtins that take a predicate, each with how many
/// arguments it takes.
///
/// ```
/// let items = bpvm_lsp::complete::predicate_items();
/// let reduce = items.iter().find(|i| i.label == "reduce").unwrap();
/// assert_eq!(reduce.detail.as_deref(), Some("reduce(2 to 3 arguments)"));
/// ```
pub fn predicate_items() -> Vec<CompletionItem> {
    let doc = "Runs its predicate (its second argument) for each item of the list: `#` is the item.";
    bpvm::compiler::ast::PREDICATES
        .iter()
        .map(|&(name, min, max)| {
            let arguments = if min == max {
                format!("{min} argument{}", if min == 1 { "" } else { "s" })
            } else {
                format!("{min} to {max} arguments")
            };
            let signature = format!("{name}({arguments})");
            item(name, CompletionItemKind::FUNCTION, Some(signature), Some(doc))
        })
        .collect()
}
