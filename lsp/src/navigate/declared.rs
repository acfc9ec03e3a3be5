//! What a Windsor file declares and names, with where: each config
//! block's, component's and flux system's name, and each `dependsOn`
//! entry (a system's and its variants' too), read from its YAML tree
//! (byte spans of the names as written).

use crate::text::Lines;
use bpvm::bluelink::node::{self, Kind, Node};

/// The sections whose entries are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// `config`: blocks, read as `${name…}`.
    Config,
    /// `terraform`: components, named in a terraform `dependsOn`.
    Terraform,
    /// `kustomize`: kustomizations, named in a kustomization's or a flux
    /// system's `dependsOn`.
    Kustomize,
    /// `flux`: systems, which become kustomizations (`<name>-install`,
    /// `<name>-resources`, `<name>-resources-<variant>`) and are named
    /// alike.
    Flux,
}

impl Section {
    /// The sections whose `dependsOn` name each other: terraform's its
    /// own, kustomizations' and flux systems' one another's.
    pub fn family(self) -> Section {
        match self {
            Section::Flux => Section::Kustomize,
            s => s,
        }
    }
}

/// The flux system a kustomization's name says it was made from
/// (`cni-install`, `pki-resources`, `pki-resources-private`).
///
/// ```
/// use bpvm_lsp::navigate::system_of;
/// assert_eq!(system_of("cni-install"), Some("cni"));
/// assert_eq!(system_of("pki-resources-private"), Some("pki"));
/// assert_eq!(system_of("ingress"), None);
/// ```
pub fn system_of(name: &str) -> Option<&str> {
    name.strip_suffix("-install")
        .or_else(|| name.strip_suffix("-resources"))
        .or_else(|| name.rsplit_once("-resources-").map(|(s, _)| s))
}

const SECTIONS: [(&str, Section); 4] = [
    ("config", Section::Config),
    ("terraform", Section::Terraform),
    ("kustomize", Section::Kustomize),
    ("flux", Section::Flux),
];

/// A name written in a file: a declaration, or a `dependsOn` entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mark {
    /// The section it belongs to.
    pub section: Section,
    /// The name.
    pub name: String,
    /// Its byte span in the file.
    pub span: (usize, usize),
    /// Whether it declares (else a `dependsOn` names it).
    pub declares: bool,
}

/// The marks of the Windsor file holding `text`; none when it does not
/// parse.
///
/// ```
/// use bpvm_lsp::navigate::{Section, marks};
/// let text = "terraform:\n  - path: vpc\n  - name: eks\n    dependsOn: [\"vpc\"]\nconfig:\n  - name: c\n";
/// let found = marks(text);
/// let all: Vec<(Section, &str, &str, bool)> =
///     found.iter().map(|m| (m.section, m.name.as_str(), &text[m.span.0..m.span.1], m.declares)).collect();
/// assert_eq!(all, [
///     (Section::Terraform, "vpc", "vpc", true),
///     (Section::Terraform, "eks", "eks", true),
///     (Section::Terraform, "vpc", "vpc", false),
///     (Section::Config, "c", "c", true),
/// ]);
/// ```
pub fn marks(text: &str) -> Vec<Mark> {
    let Ok(tree) = node::read(text) else {
        return Vec::new();
    };
    let lines = Lines::new(text);
    let mut out = Vec::new();
    for entry in tree.entries().unwrap_or_default() {
        let Some(&(_, section)) = SECTIONS.iter().find(|(k, _)| *k == entry.key.as_str()) else {
            continue;
        };
        let Kind::List(items) = &entry.value.kind else {
            continue;
        };
        for item in items {
            let identity = match section {
                Section::Terraform => item.get("name").or_else(|| item.get("path")),
                _ => item.get("name"),
            };
            if let Some(mark) = identity.and_then(|n| mark(text, &lines, n, section, true)) {
                out.push(mark);
            }
            if section == Section::Config {
                continue;
            }
            out.extend(needs(text, &lines, item, section));
            // A system's variants depend on kustomizations too.
            if let Some(Kind::List(variants)) = item.get("resources").map(|r| &r.kind)
                && section == Section::Flux
            {
                out.extend(variants.iter().flat_map(|v| needs(text, &lines, v, section)));
            }
        }
    }
    out
}

/// The marks of `item`'s `dependsOn` entries.
fn needs(text: &str, lines: &Lines, item: &Node, section: Section) -> Vec<Mark> {
    match item.get("dependsOn").map(|d| &d.kind) {
        Some(Kind::List(names)) => names
            .iter()
            .filter_map(|n| mark(text, lines, n, section, false))
            .collect(),
        _ => Vec::new(),
    }
}

/// The mark of the scalar `n`, when it is text.
fn mark(text: &str, lines: &Lines, n: &Node, section: Section, declares: bool) -> Option<Mark> {
    let name = n.as_str()?;
    Some(Mark {
        section,
        name: name.to_string(),
        span: span_at(text, lines, (n.at.line, n.at.col), name),
        declares,
    })
}

/// The byte span of `name` written at 1-based line and character column
/// `at` (after its opening quote); empty there when the text there is
/// written otherwise (escapes, a folded scalar).
pub fn span_at(text: &str, lines: &Lines, at: (u32, u32), name: &str) -> (usize, usize) {
    let position = lines.at_column(text, at.0 as usize, at.1 as usize);
    let Some(mut start) = lines.offset(text, position) else {
        return (text.len(), text.len());
    };
    if text[start..].starts_with(['"', '\'']) {
        start += 1;
    }
    if text[start..].starts_with(name) {
        (start, start + name.len())
    } else {
        (start, start)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_that_does_not_parse_or_is_not_a_map_marks_nothing() {
        for text in [
            "terraform: [",
            "- a\n- b\n",
            "config: {name: x}\n",
            "kustomize:\n  - name: [a]\n",
        ] {
            assert_eq!(marks(text), [], "{text}");
        }
    }

    #[test]
    fn spans_count_characters_before_the_name() {
        let text = "# é😀\nkustomize:\n  - {name: 'ü', dependsOn: [\n      a]}\n";
        let found = marks(text);
        let written: Vec<&str> = found.iter().map(|m| &text[m.span.0..m.span.1]).collect();
        assert_eq!(written, ["ü", "a"]);
    }

    #[test]
    fn flux_systems_and_their_variants_depend_on_kustomizations() {
        let text = "flux:\n  - name: gw\n    dependsOn: [cni-install]\n    install: {dependsOn: [ignored]}\n    resources:\n      - dependsOn: [pki]\n";
        let found: Vec<(Section, &str, bool)> = marks(text)
            .iter()
            .map(|m| (m.section, &text[m.span.0..m.span.1], m.declares))
            .collect();
        assert_eq!(
            found,
            [
                (Section::Flux, "gw", true),
                (Section::Flux, "cni-install", false),
                (Section::Flux, "pki", false)
            ]
        );
    }
}
