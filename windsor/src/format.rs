//! Which Windsor rules a template is rendered by, read from what its
//! facets contain (DECISIONS W10): a form only Windsor v0.9 has selects
//! the v0.9 rules, a form only the seed format has selects the seed rules,
//! both is an error, neither is the seed rules. `metadata.yaml`'s
//! `cliVersion` does not decide it: templates written in the seed format
//! already declared `>=0.9.0`.

use bpvm_runtime::{Map, Value};
use std::fmt;

/// The rules a template is rendered by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Seeds 000/001 (February 2026), decisions W1–W9.
    Seed,
    /// Windsor CLI v0.9 (what chose it is the project's
    /// `format_reason`).
    V09,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::Seed => f.write_str("the seed facet format"),
            Format::V09 => f.write_str("Windsor v0.9"),
        }
    }
}

/// A form only one of the formats has, and where it was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Form {
    /// The file, relative to the project.
    pub file: String,
    /// The YAML path of the form in it (empty: the file itself).
    pub at: String,
    /// What the form is, as a reader would name it.
    pub what: &'static str,
}

/// The rules a template's facets select, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detected {
    /// The rules.
    pub format: Format,
    /// The form that chose them; `None` when no facet uses a form only
    /// one format has (the seed rules then apply).
    pub by: Option<Form>,
}

/// A template whose facets use forms of both formats: one of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mixed {
    /// A seed-only form.
    pub seed: Form,
    /// A v0.9-only form.
    pub v09: Form,
}

/// Each facet file (relative to the project) with its document.
pub type Documents<'d> = [(String, &'d Value)];

/// The rules the facets `docs` are written for (W10), or the two forms
/// that contradict each other when both formats are used.
///
/// ```
/// use bpvm_runtime::Value;
/// use bpvm_windsor::format::{detect, Format};
/// let v09 = Value::from_yaml("config: [{name: c, value: {a: 1}}]").unwrap();
/// let seed = Value::from_yaml("config: [{name: c, a: 1}]").unwrap();
/// let found = detect(&[("facets/a.yaml".into(), &v09)]).unwrap();
/// assert!(matches!(found.format, Format::V09));
/// assert_eq!(detect(&[("facets/b.yaml".into(), &seed)]).unwrap().format, Format::Seed);
/// assert!(detect(&[("facets/a.yaml".into(), &v09), ("facets/b.yaml".into(), &seed)]).is_err());
/// ```
pub fn detect(docs: &Documents<'_>) -> Result<Detected, Box<Mixed>> {
    let (mut seed, mut v09) = (None::<Form>, None::<Form>);
    for (file, doc) in docs {
        let (s, v) = forms(file, doc);
        seed = seed.or(s);
        v09 = v09.or(v);
    }
    match (seed, v09) {
        (Some(seed), Some(v09)) => Err(Box::new(Mixed { seed, v09 })),
        (None, Some(v)) => Ok(Detected {
            format: Format::V09,
            by: Some(v),
        }),
        (s, None) => Ok(Detected {
            format: Format::Seed,
            by: s,
        }),
    }
}

impl Form {
    /// The form without its file: `config[0].value, a config block …`.
    pub fn described(&self) -> String {
        match self.at.as_str() {
            "" => self.what.to_string(),
            at => format!("{at}, {}", self.what),
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.described())
    }
}

/// The first seed-only and the first v0.9-only form of one facet file.
pub(crate) fn forms(file: &str, doc: &Value) -> (Option<Form>, Option<Form>) {
    let form = |at: String, what| Form {
        file: file.to_string(),
        at,
        what,
    };
    let mut seed = file.contains("/features/").then(|| {
        form(
            String::new(),
            "a feature (a features/ folder), which only the seed format has",
        )
    });
    let Some(m) = doc.as_map() else {
        return (seed, None);
    };
    if seed.is_none() && m.get("kind").and_then(Value::as_str) == Some("Feature") {
        seed = Some(form("kind".into(), "`kind: Feature`, which only the seed format has"));
    }
    let mut v09 = V09_FACET_FIELDS
        .iter()
        .find(|k| m.contains_key(k))
        .map(|k| form((*k).to_string(), "a facet field only Windsor v0.9 has"));
    for (i, block) in config_blocks(m) {
        let at = |key: &str| format!("config[{i}].{key}");
        if let Some(k) = V09_BLOCK_FIELDS.iter().find(|k| block.contains_key(k)) {
            v09 = v09.or_else(|| Some(form(at(k), "a config block field only Windsor v0.9 has")));
        } else if let Some(k) = block.keys().find(|k| inline(k.as_str())) {
            let what = "a config block's body written inline beside its name, as only the seed format does";
            seed = seed.or_else(|| Some(form(at(k.as_str()), what)));
        }
    }
    (seed, v09)
}

/// The facet fields only Windsor v0.9 has.
const V09_FACET_FIELDS: &[&str] = &["flux", "requires", "crds", "backend", "substitutions", "messages"];

/// The config block fields only Windsor v0.9 has.
const V09_BLOCK_FIELDS: &[&str] = &["value", "strategy", "ordinal", "requires"];

/// Whether a config block key is written inline (the seed format): not
/// `name` or `when`, and not within two edits of a v0.9 block field —
/// `vaule` is a misspelt `value`, evidence of neither format, and the v0.9
/// rules then say so with the suggestion.
fn inline(key: &str) -> bool {
    !matches!(key, "name" | "when") && bpvm_runtime::suggest::closest(key, V09_BLOCK_FIELDS).is_none()
}

/// The mappings of a facet's `config:` list, with their index.
fn config_blocks(m: &Map) -> impl Iterator<Item = (usize, &Map)> {
    let items = match m.get("config") {
        Some(Value::List(items)) => items.as_slice(),
        _ => &[],
    };
    items.iter().enumerate().filter_map(|(i, v)| v.as_map().map(|b| (i, b)))
}

#[cfg(test)]
mod tests {
    use super::{Format, detect};
    use bpvm_runtime::Value;

    fn rules(files: &[(&str, &str)]) -> Result<(Format, Option<String>), String> {
        let docs: Vec<(String, Value)> = files
            .iter()
            .map(|(f, t)| (f.to_string(), Value::from_yaml(t).unwrap()))
            .collect();
        let refs: Vec<(String, &Value)> = docs.iter().map(|(f, d)| (f.clone(), d)).collect();
        detect(&refs)
            .map(|d| (d.format, d.by.map(|f| f.to_string())))
            .map_err(|m| format!("{} | {}", m.seed, m.v09))
    }

    #[test]
    fn each_v0_9_form_selects_v0_9() {
        for doc in [
            "config: [{name: c, value: 1}]",
            "config: [{name: c, strategy: replace}]",
            "config: [{name: c, ordinal: 3}]",
            "config: [{name: c, requires: []}]",
            "flux: []",
            "requires: []",
            "crds: []",
            "backend: {type: s3}",
            "substitutions: {}",
            "messages: []",
        ] {
            let (format, _) = rules(&[("f/a.yaml", doc)]).unwrap();
            assert!(matches!(format, Format::V09), "{doc}");
        }
    }

    #[test]
    fn each_seed_form_selects_seed_and_says_where() {
        for (file, doc, by) in [
            (
                "f/a.yaml",
                "config: [{name: c, vars: {}}]",
                "f/a.yaml: config[0].vars, a config block's body",
            ),
            ("t/features/a.yaml", "{}", "t/features/a.yaml: a feature"),
            ("f/a.yaml", "kind: Feature", "f/a.yaml: kind, `kind: Feature`"),
        ] {
            let (format, why) = rules(&[(file, doc)]).unwrap();
            assert_eq!(format, Format::Seed, "{doc}");
            assert!(why.unwrap().starts_with(by), "{doc}");
        }
    }

    #[test]
    fn a_misspelt_v0_9_block_field_is_evidence_of_neither() {
        assert_eq!(
            rules(&[("f/a.yaml", "config: [{name: c, vaule: 1}]")]),
            Ok((Format::Seed, None))
        );
        let (format, _) = rules(&[("f/a.yaml", "config: [{name: c, vaule: 1}]"), ("f/b.yaml", "crds: []")]).unwrap();
        assert!(matches!(format, Format::V09));
    }

    #[test]
    fn neither_is_the_seed_rules_with_no_form_to_show() {
        let found = rules(&[("f/a.yaml", "terraform: [{path: x}]\nconfig: [{name: c, when: 'true'}]")]);
        assert_eq!(found, Ok((Format::Seed, None)));
    }

    #[test]
    fn both_name_one_file_of_each() {
        let found = rules(&[("f/a.yaml", "config: [{name: c, vars: 1}]"), ("f/b.yaml", "crds: []")]);
        let (seed, v09) = found
            .unwrap_err()
            .split_once(" | ")
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .unwrap();
        assert!(seed.starts_with("f/a.yaml: config[0].vars"), "{seed}");
        assert!(v09.starts_with("f/b.yaml: crds"), "{v09}");
    }
}
