//! Navigation in a Bluelink blueprint: a reference (`${variables.x}`,
//! `${values.x}`, `${datasources.x…}`, `${resources.x…}` or a bare
//! resource name, `${children.x.export}`, an export's `field`) to the
//! declaration it reads, in the blueprint or, for a child's export, in
//! the child's file.

use super::declared::span_at;
use super::names::{Name, names};
use super::source::Source;
use super::written::names_written;
use bpvm::bluelink::lang;
use bpvm::bluelink::node::{self, Node};
use bpvm::runtime::root::Root;
use lsp_types::Location;

/// The sections a reference's first segment names, and their keys.
const SECTIONS: [(&str, &str); 5] = [
    ("variables", "variables"),
    ("values", "values"),
    ("datasources", "datasources"),
    ("resources", "resources"),
    ("children", "include"),
];

/// The declaration the reference at byte `at` of the blueprint `source`
/// reads; `None` when there is no reference there, or it names nothing
/// declared.
pub fn definition(source: &Source, at: usize) -> Option<Location> {
    let tree = tree_of(source)?;
    let inside = |n: &Name| n.span().0 <= at && at <= n.span().1;
    let mut read = names_written(&source.text);
    read.extend(fields(source, &tree));
    let name = read.into_iter().find(inside)?;
    let segment = name.segment_at(at)?;
    let steps: Vec<&str> = name.path.split('.').collect();
    if steps[0] == "children" && segment >= 2 {
        return export_of_child(source, &tree, steps.get(1)?, steps.get(2)?);
    }
    let (section, declared) = match SECTIONS.iter().find(|(s, _)| *s == steps[0]) {
        Some(&(_, key)) => (key, *steps.get(1)?),
        // A bare name is a resource's.
        None => ("resources", steps[0]),
    };
    declaration(source, &tree, section, declared)
}

/// The tree of `source`, read as its file's name says (`.bp` or YAML/JSON).
fn tree_of(source: &Source) -> Option<Node> {
    let name = source.path.file_name()?.to_str()?;
    if lang::is_bp(name) {
        lang::read(&source.text).ok()
    } else {
        node::read(&source.text).ok()
    }
}

/// The names each export's `field` reads (written as a plain path).
fn fields(source: &Source, tree: &Node) -> Vec<Name> {
    let Some(exports) = tree.get("exports").and_then(Node::entries) else {
        return Vec::new();
    };
    exports
        .iter()
        .filter_map(|e| e.value.get("field"))
        .filter_map(|field| {
            let text = field.as_str()?;
            let span = span_at(&source.text, &source.lines, (field.at.line, field.at.col), text);
            (span.0 < span.1).then(|| names(text, span.0))
        })
        .flatten()
        .collect()
}

/// The location of the key `name` of the section `section` of `tree`.
fn declaration(source: &Source, tree: &Node, section: &str, name: &str) -> Option<Location> {
    let entry = tree.get(section)?.entries()?.iter().find(|e| e.key.as_str() == name)?;
    let span = span_at(&source.text, &source.lines, (entry.key_at.line, entry.key_at.col), name);
    source.location(span)
}

/// The export `export` of the child blueprint `child` includes, in the
/// child's file (read through the file layer, beneath the blueprint's
/// folder).
fn export_of_child(source: &Source, tree: &Node, child: &str, export: &str) -> Option<Location> {
    let file = tree.get("include")?.get(child)?.get("path")?.as_str()?;
    let root = Root::new(source.path.parent()?, "blueprint folder").ok()?;
    let included = Source::read(&root, file)?;
    let included_tree = tree_of(&included)?;
    declaration(&included, &included_tree, "exports", export)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text a definition's range covers, in `text`.
    fn defined(text: &str, needle: &str, skip: usize) -> Option<String> {
        let source = Source::new("/p/bp.json".into(), text.to_string());
        let at = text.find(needle)? + skip;
        let found = definition(&source, at)?;
        let from = source.lines.offset(text, found.range.start)?;
        let to = source.lines.offset(text, found.range.end)?;
        Some(text[from..to].to_string())
    }

    #[test]
    fn json_keys_bare_resource_names_and_unknown_names() {
        let text = r#"{"version": "2023-04-20", "variables": {"é": {"type": "string"}, "v": {"type": "string"}},
 "resources": {"q": {"type": "x", "spec": {"a": "${q.spec.b}", "b": "${variables.v}", "c": "${variables.w}"}}}}"#;
        assert_eq!(defined(text, "${q.spec", 2).as_deref(), Some("q"));
        assert_eq!(defined(text, "${variables.v}", 13).as_deref(), Some("v"));
        // Declared nowhere, or no reference there.
        assert_eq!(defined(text, "${variables.w}", 13), None);
        assert_eq!(defined(text, "\"version\"", 2), None);
        // A child the blueprint does not include.
        assert_eq!(
            defined(
                "version: 2023-04-20\nvalues:\n  x: {value: '${children.c.e}'}\n",
                "c.e",
                2
            ),
            None
        );
    }
}
