//! Windsor rendering, table-driven (and the values' JSON Schema
//! validator: `tests/schema/*.yaml`, `schema.rs` says how): each case in `tests/projects/*.yaml`
//! is a small project (facet files, other template files, values) and
//! either what it renders to or an `error` the render (or load) must
//! fail with (a substring of the error's text). Each case is the test
//! `projects::<file>::<case>` (`bpvm-harness` names them, prints a diff
//! when one fails and, under `BPVM_BLESS=1`, writes what they gave back
//! into their files).
//!
//! A binary of its own: its tests are made at run time from the case
//! files, so it has `harness = false` (Cargo.toml) and its own `main`.
//!
//! A case's keys:
//! * `name`: its label;
//! * `facets`: file name → text, written to `contexts/_template/facets/`;
//! * `files`: other template files, path (under `contexts/_template/`) →
//!   text;
//! * `rules`: `seed` or `v0.9`, the rules to load by (as `--rules`); the
//!   ones the facets' forms select when absent;
//! * `user`: the text of `contexts/test/blueprint.yaml`;
//! * `values`: the context's values (over the defaults of a `schema.yaml`
//!   given in `files`, if any, unless `schemaDefaults: false`, as in a
//!   Windsor v0.9 test case without `applySchemaDefaults`); none when
//!   absent; text is the context's `values.yaml`, read as the project
//!   reads it;
//! * `testFile`: the text of a test file (`tests/case.test.yaml`); the
//!   case then compares `testResults`, what `bpvm test` reports (a line
//!   per case, `✓ name` or `✗ name: diffs`, then its warnings), or the `error` its reading
//!   fails with;
//! * `operator`: the values the operator set (`render::Options.operator`),
//!   which by the v0.9 rules win over facet config; all of the context
//!   when absent;
//! * `terraformOutputs`, `env`: as a Windsor test case's;
//! * `showSecrets: true`: values computed from a sensitive value are
//!   rendered as they are (`--show-secrets`), not as `********`;
//! * the expectations, each compared to the rendered blueprint's key of
//!   that name by exact JSON equality — lists item by item, mappings key
//!   by key, both in order (the output's field order is part of what is
//!   checked) — where an absent key reads as `null`, so
//!   `crds: null` says there is none: `terraform`, `kustomize`,
//!   `configMaps`, `flux`, `crds`, `backend`, `substitutions`, `sources`,
//!   `messages`; and `compiled`, the `kustomize` list of the blueprint
//!   with its flux systems compiled (`render --compile-flux`);
//! * `fields`: other top-level fields of the blueprint, name → value,
//!   compared the same way (a field a newer Windsor has, passed through);
//! * `warnings`: every warning loading gave, each the whole text
//!   (`file:line:column: path: message`), in order; not checked when
//!   absent.
//!
//! `from:` names where a ported case comes from (`reference/`: Windsor's
//! own integration fixtures); the harness does not read it.
//!
//! A file may have a top-level `files:` map: the default template files
//! of each of its cases, merged under the case's own `files:` (a case's
//! file of the same name wins), and a top-level `rules:` its cases load
//! by unless they say otherwise.
//!
//! Blessing writes the expectations a case has, and `error` (the whole
//! message).

mod project;
mod schema;

use bpvm_harness::{Case, Difference, Failure, Fix, Suite};
use bpvm_runtime::Value;
use std::path::Path;
use std::sync::Arc;

/// What a case's blueprint is compared on.
const EXPECTED: &[&str] = &[
    "terraform",
    "kustomize",
    "configMaps",
    "flux",
    "crds",
    "backend",
    "substitutions",
    "sources",
    "messages",
    "compiled",
];

fn main() {
    let mut suite = Suite::new();
    let run = Arc::new(run);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/projects");
    for (prefix, path) in suite.files("projects", &root, true) {
        if let Some(file) = suite.file(&prefix, &path) {
            suite.cases(&prefix, &file, "cases", &run);
        }
    }
    let schemas = Arc::new(schema::run);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schema");
    for (prefix, path) in suite.files("schema", &root, false) {
        if let Some(file) = suite.file(&prefix, &path) {
            suite.cases(&prefix, &file, "cases", &schemas);
        }
    }
    suite.run()
}

fn run(case: &Case) -> Result<(), Failure> {
    let defaults = case.file.get("files").and_then(Value::as_map);
    let mut fields = project::with_defaults(&case.fields, defaults);
    if let Some(rules) = case.file.get("rules").filter(|_| !fields.contains_key("rules")) {
        fields.insert("rules", rules.clone());
    }
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut failure = Failure::default();
    let mut differs =
        |what: &str, expected: String, actual: String, fix: Option<Fix>| failure.differs(what, expected, actual, fix);
    if fields.contains_key("testFile") {
        return tests(dir.path(), case, &fields);
    }
    match (project::render(dir.path(), &fields), case.get("error")) {
        (Err(e), Some(Value::Str(want))) if e.contains(&**want) => {}
        (Err(e), Some(Value::Str(want))) => {
            let fix = Fix::Field("error".into(), Value::from(e.as_str()));
            differs("error", want.to_string(), e, Some(fix));
        }
        (Err(e), _) => differs("the render", "a blueprint".into(), format!("failed: {e}"), None),
        (Ok(_), Some(want)) => differs(
            "error",
            want.to_json(),
            "rendered, but an error was expected".into(),
            None,
        ),
        (Ok((bp, warnings)), None) => {
            if let Some(want) = case.get("warnings") {
                let got = Value::List(warnings.into_iter().map(|w| Value::from(w.as_str())).collect());
                if got.to_json() != want.to_json() {
                    failure.differences.push(Difference::field("warnings", want, &got));
                }
            }
            let compiled = bpvm_windsor::output::compile_flux(&bp);
            for key in EXPECTED {
                let Some(want) = case.get(key) else { continue };
                let (from, field) = match *key {
                    "compiled" => (&compiled, "kustomize"),
                    _ => (&bp, *key),
                };
                let got = from.as_map().and_then(|m| m.get(field)).cloned().unwrap_or(Value::Null);
                // JSON equality: lists in order, mappings in the same key
                // order (the order is the output's, R-11.3).
                if got.to_json() != want.to_json() {
                    failure.differences.push(Difference::field(key, want, &got));
                }
            }
            if let Some(Value::Map(want)) = case.get("fields") {
                let mut got = bpvm_runtime::Map::new();
                for k in want.keys() {
                    got.insert(
                        k.clone(),
                        bp.as_map()
                            .and_then(|m| m.get(k.as_str()))
                            .cloned()
                            .unwrap_or(Value::Null),
                    );
                }
                let got = Value::Map(got);
                if got.to_json() != Value::Map(want.clone()).to_json() {
                    failure
                        .differences
                        .push(Difference::field("fields", &Value::Map(want.clone()), &got));
                }
            }
        }
    }
    failure.result()
}

/// A case with a `testFile`: its `testResults`, or its reading's `error`.
fn tests(dir: &Path, case: &Case, fields: &bpvm_runtime::Map) -> Result<(), Failure> {
    let mut failure = Failure::default();
    let (got, key) = match project::test_results(dir, fields) {
        Ok(lines) => (
            Value::List(lines.into_iter().map(|l| Value::from(l.as_str())).collect()),
            "testResults",
        ),
        Err(e) => (Value::from(e.as_str()), "error"),
    };
    let want = case.get(key).cloned().unwrap_or(Value::Null);
    if got != want {
        let fix = Fix::Field(key.into(), got.clone());
        failure.differs(key, want.to_json(), got.to_json(), Some(fix));
    }
    failure.result()
}
