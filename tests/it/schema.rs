//! `bpvm schema`'s schemas against the files they describe: each accepts
//! every file of its kind the repository and the corpus hold, flagging
//! exactly the keys bpvm itself reports as unknown (as `--strict` does),
//! and rejects a misspelt field.

use crate::support::shared;
use bpvm::windsor::{Format, Project};
use jsonschema::error::ValidationErrorKind;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn validator(name: &str) -> jsonschema::Validator {
    let text = bpvm::schema::json(name).unwrap_or_else(|| panic!("no schema {name}"));
    let schema: serde_json::Value = serde_json::from_str(&text).expect("a schema is JSON");
    jsonschema::draft7::new(&schema).unwrap_or_else(|e| panic!("{name} compiles: {e}"))
}

/// A YAML or JSON document as JSON, typed as bpvm reads it.
fn instance(text: &str) -> serde_json::Value {
    let doc = bpvm::Value::from_yaml(text).expect("the file is YAML");
    serde_json::to_value(&doc).expect("a document is JSON")
}

/// The keys `schema` flags in `text` as no field of theirs; any other
/// complaint is an error naming it.
fn flagged(schema: &jsonschema::Validator, text: &str) -> Result<Vec<String>, String> {
    let doc = instance(text);
    let mut keys = Vec::new();
    for e in schema.iter_errors(&doc) {
        match e.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected } => keys.extend(unexpected.iter().cloned()),
            _ => return Err(format!("{}: {e}", e.instance_path())),
        }
    }
    Ok(keys)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn name_of(path: &str) -> String {
    Path::new(path).file_name().unwrap().to_string_lossy().into_owned()
}

/// Each YAML file under `dir` with the schema that describes it.
fn windsor_files(project: &Path, format: Format) -> Vec<(&'static str, PathBuf)> {
    let seed = format == Format::Seed;
    let pick = |v09: &'static str, s: &'static str| if seed { s } else { v09 };
    let template = project.join("contexts/_template");
    let mut out = vec![("windsor-project", project.join("windsor.yaml"))];
    out.push((
        pick("windsor-blueprint", "windsor-blueprint-seed"),
        template.join("blueprint.yaml"),
    ));
    for (folder, schema) in [
        ("facets", pick("windsor-facet", "windsor-facet-seed")),
        ("tests", pick("windsor-test", "windsor-test-seed")),
    ] {
        let mut files = Vec::new();
        shared::yaml_files(&template.join(folder), &mut files);
        out.extend(files.into_iter().map(|f| (schema, f)));
    }
    out.retain(|(_, f)| f.is_file());
    out
}

/// The Windsor projects of the repository and the corpus.
fn projects() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = vec![root.join("examples/windsor"), root.join("examples/windsor-v0.9")];
    for corpus in ["windsor-core-aae5e79e", "windsor-core-v0.7.0"] {
        let dir = root.join("../shared/corpus").join(corpus);
        if shared::present(&dir) {
            out.push(dir);
        }
    }
    out
}

#[test]
fn every_windsor_file_is_valid_but_for_the_keys_bpvm_reports_unknown() {
    let unknown = ["unknown-field", "test-unknown-key", "test-ignored-key"];
    let mut kinds = BTreeSet::new();
    for project in projects() {
        let format = Project::load(&project)
            .unwrap_or_else(|e| panic!("{}: {e}", project.display()))
            .format;
        let mut by_schema = BTreeSet::new();
        for (schema, file) in windsor_files(&project, format) {
            kinds.insert(schema);
            let keys = flagged(&validator(schema), &read(&file))
                .unwrap_or_else(|e| panic!("{} by {schema}: {e}", file.display()));
            let name = name_of(&file.to_string_lossy());
            by_schema.extend(keys.into_iter().map(|k| (name.clone(), k)));
        }
        let report = bpvm::check::check(&[&project]).unwrap_or_else(|e| panic!("{}: {e:?}", project.display()));
        let by_bpvm: BTreeSet<(String, String)> = report
            .templates
            .iter()
            .flat_map(|t| &t.findings)
            .filter(|f| unknown.contains(&f.rule.id))
            .map(|f| {
                (
                    name_of(&f.file),
                    f.path.rsplit('.').next().unwrap_or_default().to_string(),
                )
            })
            .collect();
        assert_eq!(by_schema, by_bpvm, "{}: the keys flagged differ", project.display());
    }
    // Both formats' schemas of every Windsor file kind were used.
    assert_eq!(kinds.len(), 7, "{kinds:?}");
}

/// A case of the Windsor loading tests (`windsor/tests/projects/`)
/// written out as its project: `facets`, `files` (the file's defaults
/// under the case's own) and `testFile`.
fn write_case(dir: &Path, case: &bpvm::runtime::Map, defaults: Option<&bpvm::runtime::Map>) {
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    let write = |path: PathBuf, text: &bpvm::Value| {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text.as_str().unwrap_or_default()).unwrap();
    };
    let own = case.get("files").and_then(bpvm::Value::as_map);
    for (folder, files) in [
        ("", defaults),
        ("", own),
        ("facets/", case.get("facets").and_then(bpvm::Value::as_map)),
    ] {
        for (name, text) in files.into_iter().flat_map(|m| m.iter()) {
            write(template.join(format!("{folder}{}", name.as_str())), text);
        }
    }
    if let Some(tests) = case.get("testFile") {
        write(template.join("tests/case.test.yaml"), tests);
    }
}

#[test]
fn every_project_of_the_loading_tests_that_loads_agrees_with_the_schemas() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("windsor/tests/projects");
    let mut case_files = Vec::new();
    shared::yaml_files(&root, &mut case_files);
    let (mut loaded, mut flagged_in_all) = (0, 0);
    for case_file in case_files {
        let doc = bpvm::Value::from_yaml(&read(&case_file)).unwrap();
        let Some(bpvm::Value::List(cases)) = doc.as_map().and_then(|m| m.get("cases")) else {
            continue;
        };
        let defaults = doc.as_map().and_then(|m| m.get("files")).and_then(bpvm::Value::as_map);
        for case in cases.iter().filter_map(bpvm::Value::as_map) {
            let rules = match case.get("rules").or(doc.as_map().and_then(|m| m.get("rules"))) {
                Some(r) if r.as_str() == Some("seed") => Some(Format::Seed),
                Some(r) if r.as_str() == Some("v0.9") => Some(Format::V09),
                _ => None,
            };
            let dir = tempfile::tempdir().unwrap();
            write_case(dir.path(), case, defaults);
            // A case whose project does not load shows a loader's error.
            let Ok(project) = Project::load_as(dir.path(), rules) else {
                continue;
            };
            loaded += 1;
            let place = format!(
                "{} {:?}",
                case_file.display(),
                case.get("name").and_then(bpvm::Value::as_str)
            );
            let mut by_schema = BTreeSet::new();
            for (schema, file) in windsor_files(dir.path(), project.format) {
                let text = read(&file);
                let keys = flagged(&validator(schema), &text).unwrap_or_else(|e| panic!("{place}: {schema}: {e}"));
                by_schema.extend(keys.into_iter().map(|k| (name_of(&file.to_string_lossy()), k)));
            }
            let mut by_bpvm: BTreeSet<(String, String)> = project
                .warnings
                .iter()
                .filter(|w| w.message.starts_with("unknown field "))
                .map(|w| (name_of(w.file.as_deref().unwrap_or_default()), last_key(&w.at)))
                .collect();
            let tests = dir.path().join("contexts/_template/tests/case.test.yaml");
            if tests.is_file() {
                let doc = bpvm::Value::from_yaml(&read(&tests)).unwrap();
                let v09 = project.format == Format::V09;
                let problems = bpvm::windsor::test::keys::problems(&doc, v09);
                let unknown = problems
                    .iter()
                    .filter(|p| p.kind != bpvm::windsor::test::keys::Kind::Duplicate);
                by_bpvm.extend(unknown.map(|p| ("case.test.yaml".to_string(), last_key(&p.at))));
            }
            flagged_in_all += by_schema.len();
            assert_eq!(by_schema, by_bpvm, "{place}: the keys flagged differ");
        }
    }
    assert!(loaded >= 150, "only {loaded} projects loaded");
    assert!(
        flagged_in_all >= 5,
        "only {flagged_in_all} keys flagged: the cases of newer fields are not read"
    );
}

/// The key a YAML path ends in (`terraform[cluster].lifecycle`: `lifecycle`).
fn last_key(at: &str) -> String {
    at.rsplit('.').next().unwrap_or_default().to_string()
}

/// Every YAML and JSON file under `dir`.
fn blueprint_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            blueprint_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "json")
        {
            out.push(path);
        }
    }
}

#[test]
fn every_blueprint_bpvm_loads_is_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in [
        "examples/bluelink",
        "bluelink/tests/blueprints/seed002",
        "bluelink/tests/blueprints/reference/fixtures",
    ] {
        blueprint_files(&root.join(dir), &mut files);
    }
    let schema = validator("bluelink-blueprint");
    let mut loaded = 0;
    for file in files {
        // Variable files, expected outputs and deliberately broken
        // blueprints are no blueprints bpvm loads.
        if bpvm::bluelink::load::load(&file, &file.to_string_lossy()).is_err() {
            continue;
        }
        loaded += 1;
        let errors: Vec<String> = schema
            .iter_errors(&instance(&read(&file)))
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", file.display());
    }
    assert!(loaded >= 25, "only {loaded} blueprints loaded");
}

/// The `<!-- file: PATH -->` blocks of the docs whose file is named `name`.
fn doc_files(name: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let docs = std::fs::read_dir(root.join("docs")).unwrap().map(|e| e.unwrap().path());
    for doc in docs.filter(|p| p.extension().is_some_and(|x| x == "md")) {
        let text = read(&doc);
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let Some(path) = line.strip_prefix("<!-- file: ").and_then(|l| l.strip_suffix(" -->")) else {
                continue;
            };
            if name_of(path) != name {
                continue;
            }
            lines.next(); // the opening fence
            let body: Vec<&str> = lines.by_ref().take_while(|l| !l.starts_with("```")).collect();
            out.push((format!("{} {path}", doc.display()), body.join("\n") + "\n"));
        }
    }
    out
}

/// Whether bpvm's reader of `name`, given `text`, reports a key or name
/// it does not know.
fn reader_refuses_a_key(name: &str, text: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(name), text).unwrap();
    let messages: Vec<String> = if name == "bpvm.yaml" {
        match bpvm::check::tunings(&[dir.path()]) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.into_iter().map(|e| e.message).collect(),
        }
    } else {
        let found = bpvm::batch::discover(&[dir.path()]);
        found.problems.iter().map(|p| p.message.clone()).collect()
    };
    messages.iter().any(|m| m.starts_with("unknown "))
}

#[test]
fn the_docs_configuration_files_are_valid_unless_bpvm_refuses_a_key() {
    for (name, schema) in [("bpvm.yaml", "bpvm-check"), ("bpvm-batch.yaml", "bpvm-batch")] {
        let blocks = doc_files(name);
        assert!(!blocks.is_empty(), "the docs show no {name}");
        let schema = validator(schema);
        for (place, text) in blocks {
            let valid = schema.is_valid(&instance(&text));
            assert_eq!(valid, !reader_refuses_a_key(name, &text), "{place}:\n{text}");
        }
    }
}

/// For each schema: a file it accepts, and the same file with one field
/// misspelt, which it refuses.
const MISSPELT: &[(&str, &str, &str)] = &[
    (
        "windsor-facet",
        "kind: Facet\nmetadata: {name: a}\nterraform:\n- {name: c, inputs: {}, requires: [{paths: [a]}]}\n",
        "kind: Facet\nmetadata: {name: a}\nterraform:\n- {name: c, inptus: {}, requires: [{paths: [a]}]}\n",
    ),
    (
        "windsor-facet-seed",
        "kind: Feature\nmetadata: {name: a}\nconfig:\n- {name: b, x: 1}\nkustomize:\n- {name: c, cleanup: []}\n",
        "kind: Feature\nmetadata: {name: a}\nconfig:\n- {name: b, x: 1}\nkustomize:\n- {name: c, cleanpu: []}\n",
    ),
    (
        "windsor-test",
        "x-defaults: &d {a: 1}\ncases:\n- {name: a, values: *d, applySchemaDefaults: true}\n",
        "x-defaults: &d {a: 1}\ncases:\n- {name: a, values: *d, applySchemaDefault: true}\n",
    ),
    (
        "windsor-test-seed",
        "cases:\n- {name: a, expect: {terraform: [{name: c}]}}\n",
        "cases:\n- {name: a, expect: {terrafrom: [{name: c}]}}\n",
    ),
    (
        "windsor-blueprint",
        "kind: Blueprint\nflux:\n- {name: s, install: {interval: 5m}}\n",
        "kind: Blueprint\nflux:\n- {name: s, install: {intreval: 5m}}\n",
    ),
    (
        "windsor-blueprint-seed",
        "kind: Blueprint\nkustomize:\n- {name: c, dependsOn: [a]}\n",
        "kind: Blueprint\nkustomize:\n- {name: c, dependOn: [a]}\n",
    ),
    (
        "windsor-project",
        "version: v1alpha1\ncontexts: {local: {platform: docker}}\n",
        "version: v1alpha1\ncontxts: {local: {platform: docker}}\n",
    ),
    (
        "bluelink-blueprint",
        "version: 2023-04-20\nresources:\n  q: {type: aws/sqs/queue, dependsOn: [r], spec: {}}\n",
        "version: 2023-04-20\nresources:\n  q: {type: aws/sqs/queue, dependOn: [r], spec: {}}\n",
    ),
    (
        "bpvm-batch",
        "targets:\n- {windsor: examples/windsor, contexts: [local]}\n",
        "targets:\n- {windsor: examples/windsor, contxts: [local]}\n",
    ),
    (
        "bpvm-check",
        "check:\n  rules: {unknown-path: off}\n  paths: [{glob: 'tests/**', rules: {unknown-path: note}}]\n",
        "check:\n  rules: {unknown-path: off}\n  path: [{glob: 'tests/**', rules: {unknown-path: note}}]\n",
    ),
];

#[test]
fn every_schema_refuses_a_misspelt_field() {
    let names: Vec<&str> = MISSPELT.iter().map(|(n, ..)| *n).collect();
    assert_eq!(names, bpvm::schema::names(), "one case per schema, in order");
    for (name, good, bad) in MISSPELT {
        let schema = validator(name);
        let errors: Vec<String> = schema.iter_errors(&instance(good)).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name} refuses {good}: {errors:?}");
        assert!(!schema.is_valid(&instance(bad)), "{name} accepts {bad}");
    }
}

#[test]
fn a_rule_id_or_severity_bpvm_does_not_know_is_refused() {
    let schema = validator("bpvm-check");
    assert!(schema.is_valid(&instance("check: {rules: {unknown-field: error}}\n")));
    assert!(!schema.is_valid(&instance("check: {rules: {unknown-feild: error}}\n")));
    assert!(!schema.is_valid(&instance("check: {rules: {unknown-field: warn}}\n")));
}
