//! A did-you-mean for the loader's refusal of a reference to a name the
//! blueprint does not define (`variables.regoin is not defined`): the
//! closest name its section does define, read from the document as
//! written (a blueprint the loader refuses has no index of its names).

use crate::node::{Node, read};

/// The loader's messages about undefined names, as `(prefix, section,
/// suffix)`: the name follows the prefix (`variables.`), and the message
/// ends with the suffix.
const UNDEFINED: &[(&str, &str, &str)] = &[
    ("variables.", "variables", " is not defined"),
    ("values.", "values", " is not defined"),
    ("datasources.", "datasources", " is not defined"),
    ("resources.", "resources", " is not defined"),
    ("children.", "include", " is not defined (no include of that name)"),
];

/// The names a blueprint's `text` defines, by section.
pub(super) struct Names(Option<Node>);

impl Names {
    pub fn of(text: &str) -> Names {
        Names(read(text).ok())
    }

    fn section(&self, section: &str) -> Vec<&str> {
        let entries = self.0.as_ref().and_then(|d| d.get(section)).and_then(Node::entries);
        entries.unwrap_or(&[]).iter().map(|e| e.key.as_str()).collect()
    }

    /// What was probably meant by the reference `message` says is not
    /// defined (`variables.region`), or by the data source field it says
    /// is not exported.
    pub fn suggest(&self, message: &str) -> Option<String> {
        for (prefix, section, suffix) in UNDEFINED {
            let Some(name) = message.strip_prefix(prefix).and_then(|m| m.strip_suffix(suffix)) else {
                continue;
            };
            let known = self.section(section);
            return bpvm_runtime::suggest::closest(name, &known).map(|k| format!("{prefix}{k}"));
        }
        // `datasources.d does not export "f"; its exports are: a, b`
        let rest = message.strip_prefix("datasources.")?;
        let (source, rest) = rest.split_once(" does not export \"")?;
        let (field, exports) = rest.split_once("\"; its exports are: ")?;
        let known: Vec<&str> = exports.split(", ").collect();
        bpvm_runtime::suggest::closest(field, &known).map(|k| format!("datasources.{source}.{k}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "version: 2023-04-20\nvariables:\n  region: {type: string}\n\
                        include:\n  network: {path: n.yaml}\nresources:\n  fn: {type: a/b, spec: {}}\n";

    #[test]
    fn an_undefined_name_is_matched_in_its_section() {
        let names = Names::of(TEXT);
        let s = |m: &str| names.suggest(m);
        assert_eq!(
            s("variables.regoin is not defined").as_deref(),
            Some("variables.region")
        );
        assert_eq!(
            s("children.netwrok is not defined (no include of that name)").as_deref(),
            Some("children.network")
        );
        assert_eq!(s("resources.fm is not defined").as_deref(), Some("resources.fn"));
        // Nothing near, another section's name, or another message.
        assert_eq!(s("variables.somethingElse is not defined"), None);
        assert_eq!(s("values.region is not defined"), None);
        assert_eq!(s("the required field \"type\" is missing"), None);
    }

    #[test]
    fn a_field_a_data_source_does_not_export_is_matched_in_its_exports() {
        let names = Names::of(TEXT);
        assert_eq!(
            names
                .suggest("datasources.net does not export \"vcp\"; its exports are: vpc, subnets")
                .as_deref(),
            Some("datasources.net.vpc")
        );
    }

    #[test]
    fn a_document_that_does_not_read_suggests_nothing() {
        let names = Names::of("a: [");
        assert_eq!(names.suggest("variables.regoin is not defined"), None);
    }
}
