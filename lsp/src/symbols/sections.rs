//! The sections of each template language whose entries are symbols.

use lsp_types::SymbolKind;

/// A top-level section and the kind of symbol each of its entries is.
pub struct Section {
    /// The section's key.
    pub key: &'static str,
    /// What its entries are.
    pub kind: SymbolKind,
    /// What the section is called, as its symbol's detail.
    pub detail: &'static str,
}

/// A Windsor facet's (and `blueprint.yaml`'s) sections: lists of
/// entries named by `name`.
pub const WINDSOR: &[Section] = &[
    Section {
        key: "config",
        kind: SymbolKind::OBJECT,
        detail: "config block",
    },
    Section {
        key: "terraform",
        kind: SymbolKind::MODULE,
        detail: "terraform component",
    },
    Section {
        key: "kustomize",
        kind: SymbolKind::PACKAGE,
        detail: "kustomization",
    },
    Section {
        key: "flux",
        kind: SymbolKind::NAMESPACE,
        detail: "flux system",
    },
];

/// A Bluelink blueprint's sections: mappings keyed by name.
pub const BLUELINK: &[Section] = &[
    Section {
        key: "variables",
        kind: SymbolKind::VARIABLE,
        detail: "variable",
    },
    Section {
        key: "values",
        kind: SymbolKind::CONSTANT,
        detail: "value",
    },
    Section {
        key: "datasources",
        kind: SymbolKind::INTERFACE,
        detail: "data source",
    },
    Section {
        key: "resources",
        kind: SymbolKind::CLASS,
        detail: "resource",
    },
    Section {
        key: "exports",
        kind: SymbolKind::PROPERTY,
        detail: "export",
    },
];
