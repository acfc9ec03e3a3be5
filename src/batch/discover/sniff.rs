//! Telling a Bluelink blueprint from other YAML and JSON (or other
//! `.bp` files) by its version, and from output bpvm rendered by its
//! first line, and reading what it includes, without loading it.

use crate::batch::rendered::is_rendered;
use bpvm_bluelink::load::VERSIONS;
use bpvm_bluelink::{lang, node};

/// The include paths of `text`, the file `name`, when it is a Bluelink
/// blueprint (its top-level `version` is a Bluelink version); `None` when
/// it is not. A `.bp` or `.blueprint` file is read in the `.bp` language.
/// Output bpvm wrote says so on its first line, and is never a blueprint.
///
/// A file that declares a Bluelink version but cannot be parsed is a
/// blueprint still, so that its render reports why rather than the batch
/// missing it. Include paths made with substitutions cannot be known
/// before rendering and are left out.
pub(super) fn sniff(name: &str, text: &str) -> Option<Vec<String>> {
    let all = every_include(name, text)?;
    Some(all.into_iter().filter(|p| !p.contains("${")).collect())
}

/// The include paths of `text`, the file `name`, when it is a Bluelink
/// blueprint, as written: paths made with substitutions (`${..}`) too.
pub(crate) fn every_include(name: &str, text: &str) -> Option<Vec<String>> {
    if is_rendered(text) {
        return None;
    }
    if !VERSIONS.iter().any(|v| text.contains(v)) {
        return None;
    }
    if lang::is_bp(name) {
        // Other tools name files `.bp` too: a version tells.
        return match lang::read(text) {
            Ok(doc) => versioned_includes(&doc),
            Err(_) => declares_bp_version(text).then(Vec::new),
        };
    }
    // Most blueprints include nothing: a top-level `version:` line (a
    // key at column 0 of a block mapping) then tells without parsing the
    // whole file, which the render parses again anyway.
    if !text.contains("include") && text.lines().any(|l| l.starts_with("version:")) {
        let yes = text.lines().filter_map(|l| l.strip_prefix("version:")).any(is_version);
        return yes.then(Vec::new);
    }
    let Ok(doc) = node::read(text) else {
        return declares_version(text).then(Vec::new);
    };
    versioned_includes(&doc)
}

/// The include paths of the document `doc` when its `version` is a
/// Bluelink version.
fn versioned_includes(doc: &node::Node) -> Option<Vec<String>> {
    let version = doc.get("version").and_then(node::Node::as_str)?;
    if !VERSIONS.contains(&version) {
        return None;
    }
    let includes = doc
        .get("include")
        .and_then(node::Node::entries)
        .unwrap_or(&[])
        .iter()
        .filter_map(|e| e.value.get("path").and_then(node::Node::as_str))
        .map(str::to_string)
        .collect();
    Some(includes)
}

/// `true` when a line of `text` sets `version` to a Bluelink version at
/// the top level of a YAML document, or anywhere in a JSON one.
fn declares_version(text: &str) -> bool {
    text.lines().any(|line| {
        let json = line.trim_start();
        let yaml = line
            .strip_prefix("version:")
            .or_else(|| line.strip_prefix("\"version\":"))
            .or_else(|| line.strip_prefix("'version':"));
        let value = match (yaml, json.strip_prefix("\"version\"")) {
            (Some(rest), _) => rest,
            (None, Some(rest)) => match rest.trim_start().strip_prefix(':') {
                Some(rest) => rest,
                None => return false,
            },
            (None, None) => return false,
        };
        is_version(value)
    })
}

/// `true` when a line of the `.bp` text `text` starts with a `version`
/// directive naming a Bluelink version.
fn declares_bp_version(text: &str) -> bool {
    text.lines().any(|line| {
        let Some(rest) = line.trim_start().strip_prefix("version") else {
            return false;
        };
        let value = rest.trim_start_matches([' ', '\t']);
        value.len() < rest.len() && VERSIONS.iter().any(|v| value.starts_with(&format!("\"{v}\"")))
    })
}

/// `true` when `value`, the text after `version:` on its line, is a
/// Bluelink version (quoted or not, with a comment or a JSON comma after).
fn is_version(value: &str) -> bool {
    let value = value
        .split(" #")
        .next()
        .unwrap_or("")
        .trim()
        .trim_end_matches(',')
        .trim();
    let value = value.trim_matches(|c| c == '"' || c == '\'');
    VERSIONS.contains(&value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blueprints_are_told_by_their_version() {
        assert_eq!(sniff("a.yaml", "version: 2023-04-20\nresources: {}\n"), Some(vec![]));
        assert_eq!(
            sniff("a.yaml", "{\"version\": \"2025-11-02\", \"resources\": {}}"),
            Some(vec![])
        );
        assert_eq!(sniff("a.yaml", "version: 2024-01-01\nresources: {}\n"), None);
        assert_eq!(sniff("a.yaml", "released: 2023-04-20\n"), None);
        assert_eq!(sniff("a.yaml", "meta:\n  version: 2023-04-20\n"), None);
        let text = "version: 2023-04-20\ninclude:\n  a: {path: child.yaml}\n  b: {path: '${variables.p}'}\n";
        assert_eq!(sniff("a.yaml", text), Some(vec!["child.yaml".to_string()]));
        // Broken, but declaring a version: its render reports why.
        assert_eq!(sniff("a.yaml", "version: 2023-04-20\nresources: [\n"), Some(vec![]));
        assert_eq!(
            sniff("a.yaml", "{\n  \"version\" : \"2025-11-02\",\n  \"resources\": {\n"),
            Some(vec![])
        );
        assert_eq!(sniff("a.yaml", "a: [\n  version: 2023-04-20\n"), None);
    }

    #[test]
    fn rendered_output_is_never_a_blueprint() {
        let header = crate::batch::rendered_header("api.yaml");
        assert_eq!(
            sniff("api.yaml", &format!("{header}version: 2023-04-20\nresources: {{}}\n")),
            None
        );
        // Only as the first line.
        let text = format!("version: 2023-04-20\n{header}resources: {{}}\n");
        assert_eq!(sniff("api.yaml", &text), Some(vec![]));
    }

    #[test]
    fn bp_blueprints_are_told_by_their_version_directive() {
        let text = "version \"2025-11-02\"\ninclude core \"core.bp\" {}\ninclude x \"${variables.p}.bp\" {}\n";
        assert_eq!(sniff("app.bp", text), Some(vec!["core.bp".to_string()]));
        assert_eq!(sniff("app.blueprint", "version \"2023-04-20\"\n"), Some(vec![]));
        assert_eq!(sniff("app.bp", "version \"2024-01-01\"\n# 2023-04-20\n"), None);
        // An Android.bp names no Bluelink version.
        assert_eq!(sniff("Android.bp", "cc_library { name: \"libx\" }\n"), None);
        // Broken, but declaring a version: its render reports why.
        assert_eq!(sniff("app.bp", "version \"2025-11-02\"\nresource {\n"), Some(vec![]));
        assert_eq!(sniff("app.bp", "# version \"2025-11-02\"\nresource {\n"), None);
        // YAML that names a `.bp` is still YAML.
        assert_eq!(sniff("app.blueprint.yaml", "version: 2023-04-20\n"), Some(vec![]));
    }
}
