//! What a test file says that no runner reads: keys no field stands for
//! (a misspelt `expect:` asserts nothing, and the case passes) and case
//! names given twice (`bpvm test NAME` could run only one of them).

use crate::test::expect::unknown_keys;
use bpvm_runtime::Value;
use bpvm_runtime::field_names;

/// How bad a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A key no field stands for, or a typo of one: an error.
    Unknown,
    /// An expectation key the runner ignores, not close to any field (a
    /// newer Windsor's, or one never compared): a warning.
    Ignored,
    /// A case name given twice in the file: an error.
    Duplicate,
}

/// One problem of a test file.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The case it is in (its position), if any.
    pub case: Option<usize>,
    /// Its YAML path (`cases[2].expcet`).
    pub at: String,
    /// What is wrong.
    pub message: String,
    /// How bad it is.
    pub kind: Kind,
}

/// The keys of a test file.
const FILE: &[&str] = field_names!(shape::FILE_V09);

/// A case's keys by the v0.9 format.
const CASE_V09: &[&str] = field_names!(shape::CASE_V09);

/// A case's keys by the seed format: the v0.9 ones but the last,
/// `applySchemaDefaults` (seed cases always get the schema's defaults).
const CASE_SEED: &[&str] = field_names!(shape::CASE_SEED);

/// A test file's fields by both formats, as `bpvm schema` prints them.
pub mod shape {
    use crate::fields::table::{BLUEPRINT, FACET_ONLY, FACET_TERRAFORM, SEED_BLUEPRINT, SEED_KUSTOMIZATION};
    use bpvm_runtime::shape::{Field, Obj, Rest, Ty};

    /// A v0.9 expectation: a partial blueprint.
    const EXPECT_V09: Obj = Obj {
        doc: "Parts of the composed blueprint: only the fields given are compared.",
        fields: &[BLUEPRINT],
        rest: Rest::Newer,
    };

    /// A seed-format expectation's kustomization: as in a facet, and like
    /// every expectation's components it may have all of a v0.9 facet's
    /// own fields (expectations are often copied from facets).
    const EXPECT_SEED_KUSTOMIZATION: Obj = Obj {
        doc: "A kustomization the composed blueprint must (not) have.",
        fields: &[SEED_KUSTOMIZATION, FACET_ONLY],
        rest: Rest::Newer,
    };

    /// A seed-format expectation's fields: the seed blueprint's, its
    /// components' as the runner reads them.
    pub(super) const EXPECT_SEED_FIELDS: &[Field] = &[
        SEED_BLUEPRINT[0],
        SEED_BLUEPRINT[1],
        SEED_BLUEPRINT[2],
        SEED_BLUEPRINT[3],
        SEED_BLUEPRINT[4],
        Field::new(
            "terraform",
            Ty::List(&Ty::Obj(&FACET_TERRAFORM)),
            "The terraform components.",
        ),
        Field::new(
            "kustomize",
            Ty::List(&Ty::Obj(&EXPECT_SEED_KUSTOMIZATION)),
            "The kustomizations.",
        ),
        SEED_BLUEPRINT[7],
    ];

    /// A seed-format expectation.
    const EXPECT_SEED: Obj = Obj {
        doc: "Parts of the composed blueprint: only the fields given are compared.",
        fields: &[EXPECT_SEED_FIELDS],
        rest: Rest::Newer,
    };

    /// A v0.9 case's fields.
    pub(super) const CASE_V09: &[Field] = &[
        Field::new(
            "name",
            Ty::Str,
            "The case's name, unique in its file (bpvm test --case NAME runs it).",
        ),
        Field::new(
            "values",
            Ty::Names(&Ty::Any),
            "Context values for this case, over the context's own; dotted keys are paths.",
        ),
        Field::new(
            "env",
            Ty::Names(&Ty::Any),
            "The environment env() sees in this case (and nothing else of the real one).",
        ),
        Field::new(
            "terraformOutputs",
            Ty::Names(&Ty::Names(&Ty::Any)),
            "What terraform_output(component, key) gives: outputs by component id.",
        ),
        Field::new(
            "expect",
            Ty::Obj(&EXPECT_V09),
            "What the composed blueprint must contain.",
        ),
        Field::new(
            "exclude",
            Ty::Obj(&EXPECT_V09),
            "What the composed blueprint must not contain.",
        ),
        Field::new(
            "expectError",
            Ty::Bool,
            "The case passes only when composing the blueprint fails.",
        ),
        Field::new(
            "applySchemaDefaults",
            Ty::Bool,
            "Apply the template schema's defaults to this case's values (off by default).",
        ),
    ];

    /// A seed-format case's fields: the v0.9 ones but the last, with the
    /// seed format's expectations.
    pub(super) const CASE_SEED: &[Field] = &[
        CASE_V09[0],
        CASE_V09[1],
        CASE_V09[2],
        CASE_V09[3],
        Field::new(
            "expect",
            Ty::Obj(&EXPECT_SEED),
            "What the composed blueprint must contain.",
        ),
        Field::new(
            "exclude",
            Ty::Obj(&EXPECT_SEED),
            "What the composed blueprint must not contain.",
        ),
        CASE_V09[6],
    ];

    const CASE_V09_OBJ: Obj = Obj {
        doc: "One test case: values to compose a blueprint with, and what it must (not) contain.",
        fields: &[CASE_V09],
        rest: Rest::Refused,
    };

    const CASE_SEED_OBJ: Obj = Obj {
        doc: "One test case: values to compose a blueprint with, and what it must (not) contain.",
        fields: &[CASE_SEED],
        rest: Rest::Refused,
    };

    /// A v0.9 test file's fields.
    pub(super) const FILE_V09: &[Field] = &[Field::new("cases", Ty::List(&Ty::Obj(&CASE_V09_OBJ)), "The cases.")];

    /// A seed-format test file's fields.
    const FILE_SEED: &[Field] = &[Field::new("cases", Ty::List(&Ty::Obj(&CASE_SEED_OBJ)), "The cases.")];

    const DOC: &str = "A Windsor template's test file: cases composed and compared with what they expect. \
                       Other top-level keys must start with x- (they only hold YAML anchors).";

    /// A v0.9 test file.
    pub const FILE_V09_OBJ: Obj = Obj {
        doc: DOC,
        fields: &[FILE_V09],
        rest: Rest::Prefixed("x-"),
    };

    /// A seed-format test file.
    pub const FILE_SEED_OBJ: Obj = Obj {
        doc: DOC,
        fields: &[FILE_SEED],
        rest: Rest::Prefixed("x-"),
    };
}

/// Every problem of the test file `doc`, by the v0.9 format's keys
/// (`v09`) or the seed format's, in document order.
pub fn problems(doc: &Value, v09: bool) -> Vec<Problem> {
    let mut out = Vec::new();
    let Some(top) = doc.as_map() else { return out };
    // `x-` keys hold anchors for the cases to reuse (as core's `x-defaults`).
    for k in top
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !FILE.contains(k) && !k.starts_with("x-"))
    {
        let message = unknown(k, FILE, "a test file") + " (a key that only holds anchors must start with \"x-\")";
        out.push(Problem::unknown(None, k.to_string(), message));
    }
    let Some(Value::List(cases)) = top.get("cases") else {
        return out;
    };
    let known = if v09 { CASE_V09 } else { CASE_SEED };
    let mut names: Vec<(&str, usize)> = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let Some(m) = case.as_map() else { continue };
        let at = format!("cases[{i}]");
        for k in m.keys().map(|k| k.as_str()).filter(|k| !known.contains(k)) {
            let mut message = unknown(k, known, "a test case");
            if k == "applySchemaDefaults" {
                message.push_str(
                    " (the seed format always applies the schema's defaults; --no-schema-defaults turns them off)",
                );
            }
            out.push(Problem::unknown(Some(i), format!("{at}.{k}"), message));
        }
        if let Some(name) = m.get("name").and_then(Value::as_str).filter(|n| !n.is_empty()) {
            match names.iter().find(|(n, _)| *n == name) {
                Some((_, first)) => out.push(Problem {
                    case: Some(i),
                    at: format!("{at}.name"),
                    message: format!("case name {name:?} is given twice in this file (first by cases[{first}])"),
                    kind: Kind::Duplicate,
                }),
                None => names.push((name, i)),
            }
        }
        for key in ["expect", "exclude"] {
            let Some(e) = m.get(key).and_then(Value::as_map) else {
                continue;
            };
            for u in unknown_keys(e, &format!("{at}.{key}"), v09) {
                let kind = if u.near.is_some() { Kind::Unknown } else { Kind::Ignored };
                out.push(Problem {
                    case: Some(i),
                    message: u.message(),
                    at: u.at,
                    kind,
                });
            }
        }
    }
    out
}

impl Problem {
    fn unknown(case: Option<usize>, at: String, message: String) -> Problem {
        Problem {
            case,
            at,
            message,
            kind: Kind::Unknown,
        }
    }
}

/// `unknown key "k" in WHERE (did you mean …?); expected one of: …`.
fn unknown(key: &str, known: &[&str], place: &str) -> String {
    let hint = match bpvm_runtime::suggest::closest(key, known) {
        Some(near) => format!(" (did you mean {near:?}?)"),
        None => String::new(),
    };
    format!(
        "unknown key {key:?} in {place}{hint}; expected one of: {}",
        known.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(yaml: &str, v09: bool) -> Vec<(String, String, Kind)> {
        let doc = Value::from_yaml(yaml).unwrap();
        problems(&doc, v09)
            .into_iter()
            .map(|p| (p.at, p.message, p.kind))
            .collect()
    }

    #[test]
    fn misspelt_case_keys_are_errors_with_the_key_meant() {
        let got = found(
            "cases:\n- {name: a, valuez: {}, expcet: {}, expectErrror: true}\n",
            true,
        );
        let ats: Vec<&str> = got.iter().map(|(a, ..)| a.as_str()).collect();
        assert_eq!(ats, ["cases[0].valuez", "cases[0].expcet", "cases[0].expectErrror"]);
        assert!(got.iter().all(|(.., k)| *k == Kind::Unknown));
        assert_eq!(
            got[1].1,
            "unknown key \"expcet\" in a test case (did you mean \"expect\"?); expected one of: name, values, env, \
             terraformOutputs, expect, exclude, expectError, applySchemaDefaults"
        );
    }

    #[test]
    fn file_keys_other_than_cases_must_start_with_x() {
        let got = found("x-defaults: &d {a: 1}\ncase: []\ncases: []\n", true);
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].1,
            "unknown key \"case\" in a test file (did you mean \"cases\"?); expected one of: cases (a key that only \
             holds anchors must start with \"x-\")"
        );
    }

    #[test]
    fn duplicate_names_name_the_first() {
        let got = found("cases:\n- {name: a}\n- {name: b}\n- {name: a}\n", false);
        assert_eq!(
            got,
            [(
                "cases[2].name".to_string(),
                "case name \"a\" is given twice in this file (first by cases[0])".to_string(),
                Kind::Duplicate
            )]
        );
    }

    #[test]
    fn expectation_typos_are_errors_and_far_keys_warnings() {
        let got = found(
            "cases:\n- name: a\n  expect: {terrafrom: [], terraform: [{name: c, inputz: {}}], config: {}}\n",
            false,
        );
        let kinds: Vec<(&str, Kind)> = got.iter().map(|(a, _, k)| (a.as_str(), *k)).collect();
        assert_eq!(
            kinds,
            [
                ("cases[0].expect.terrafrom", Kind::Unknown),
                ("cases[0].expect.config", Kind::Ignored),
                ("cases[0].expect.terraform[c].inputz", Kind::Unknown),
            ]
        );
    }

    #[test]
    fn the_seed_expectation_has_the_seed_blueprint_fields() {
        let names: Vec<&str> = shape::EXPECT_SEED_FIELDS.iter().map(|f| f.name).collect();
        assert_eq!(names, crate::fields::SEED_BLUEPRINT);
    }

    #[test]
    fn the_seed_format_has_no_apply_schema_defaults() {
        let got = found("cases:\n- {name: a, applySchemaDefaults: true}\n", false);
        assert!(
            got[0].1.ends_with(
                "(the seed format always applies the schema's defaults; --no-schema-defaults turns them off)"
            )
        );
        assert!(found("cases:\n- {name: a, applySchemaDefaults: true}\n", true).is_empty());
    }
}
