//! Windsor rendering, table-driven: each case in `tests/projects/*.yaml`
//! is a small project (facet files, other template files, values) and
//! either what it renders to or an `error` the render (or load) must
//! fail with (a substring of the error's text).
//!
//! A case's keys:
//! * `name`: its label;
//! * `facets`: file name → text, written to `contexts/_template/facets/`;
//! * `files`: other template files, path (under `contexts/_template/`) →
//!   text; a v0.9 case needs `metadata.yaml: "cliVersion: '>=0.9.0'\n"`;
//! * `user`: the text of `contexts/test/blueprint.yaml`;
//! * `values`: the context's values (over the defaults of a `schema.yaml`
//!   given in `files`, if any); none when absent;
//! * `operator`: the values the operator set (`render::Options.operator`),
//!   which by the v0.9 rules win over facet config; all of the context
//!   when absent;
//! * `terraformOutputs`, `env`: as a Windsor test case's;
//! * the expectations, each compared to the rendered blueprint's key of
//!   that name by exact JSON equality — lists item by item, mappings key
//!   by key, both in order (the output's field order is part of what is
//!   checked) — where an absent key reads as `null`, so
//!   `crds: null` says there is none: `terraform`, `kustomize`,
//!   `configMaps`, `flux`, `crds`, `backend`, `substitutions`, `sources`,
//!   `messages`.
//!
//! A file may have a top-level `files:` map: the default template files
//! of each of its cases, merged under the case's own `files:` (a case's
//! file of the same name wins).

use bpvm_runtime::Value;
use bpvm_windsor::{Project, render, scope};
use std::path::{Path, PathBuf};

fn write_project(dir: &Path, case: &bpvm_runtime::Map) {
    let _ = std::fs::remove_dir_all(dir);
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    for (key, folder) in [("facets", template.join("facets")), ("files", template.clone())] {
        let Some(files) = case.get(key).and_then(Value::as_map) else {
            continue;
        };
        for (name, text) in files.iter() {
            let path = folder.join(name.as_str());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text.as_str().expect("file contents are text")).unwrap();
        }
    }
    if let Some(user) = case.get("user") {
        std::fs::create_dir_all(dir.join("contexts/test")).unwrap();
        std::fs::write(dir.join("contexts/test/blueprint.yaml"), user.as_str().unwrap()).unwrap();
    }
}

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
];

/// JSON equality: lists in order, mappings in the same key order (the
/// order is the output's, R-11.3).
fn same(a: &Value, b: &Value) -> bool {
    a.to_json() == b.to_json()
}

/// `case` with the file's default `files` under its own.
fn with_defaults(case: &bpvm_runtime::Map, defaults: Option<&bpvm_runtime::Map>) -> bpvm_runtime::Map {
    let Some(defaults) = defaults else {
        return case.clone();
    };
    let mut files = defaults.clone();
    if let Some(own) = case.get("files").and_then(Value::as_map) {
        for (k, v) in own.iter() {
            files.insert(k.clone(), v.clone());
        }
    }
    let mut case = case.clone();
    case.insert("files", Value::Map(files));
    case
}

fn run_case(dir: &Path, case: &bpvm_runtime::Map) -> Result<Value, String> {
    write_project(dir, case);
    let project = Project::load(dir).map_err(|e| e.to_string())?;
    let values = match case.get("values") {
        None | Some(Value::Null) => Value::Map(bpvm_runtime::Map::new()),
        Some(v) => v.clone(),
    };
    let ctx = scope::context(&project, "test", scope::Values::Given(values), true).map_err(|e| e.to_string())?;
    let opts = render::Options {
        outputs: case.get("terraformOutputs").cloned(),
        environment: case.get("env").and_then(Value::as_map).cloned(),
        operator: case.get("operator").cloned(),
    };
    render::render(&project, "test", ctx, &opts)
        .map(|r| r.blueprint)
        .map_err(|e| e.to_string())
}

#[test]
fn windsor_render_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/projects");
    let scratch: PathBuf = std::env::temp_dir().join(format!("bpvm-windsor-{}", std::process::id()));
    let mut files: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let (mut passed, mut failures) = (0, Vec::new());
    for file in files.iter().filter(|f| f.extension().is_some_and(|e| e == "yaml")) {
        let doc = Value::from_yaml(&std::fs::read_to_string(file).unwrap()).unwrap();
        let Some(Value::List(cases)) = doc.as_map().and_then(|m| m.get("cases")) else {
            panic!("{}: no cases", file.display())
        };
        let defaults = doc.as_map().and_then(|m| m.get("files")).and_then(Value::as_map);
        for case in cases {
            let case = with_defaults(case.as_map().expect("a case is a mapping"), defaults);
            let case = &case;
            let name = case.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
            let label = format!("{} / {name}", file.file_name().unwrap().to_string_lossy());
            let got = run_case(&scratch, case);
            let failure = match (got, case.get("error")) {
                (Err(e), Some(Value::Str(want))) if e.contains(&**want) => None,
                (Err(e), Some(Value::Str(want))) => Some(format!("error {e:?} does not contain {want:?}")),
                (Err(e), _) => Some(format!("failed: {e}")),
                (Ok(_), Some(_)) => Some("rendered, but an error was expected".to_string()),
                (Ok(bp), None) => {
                    let mut diffs = Vec::new();
                    for key in EXPECTED {
                        let Some(want) = case.get(key) else { continue };
                        let got = bp.as_map().and_then(|m| m.get(key)).cloned().unwrap_or(Value::Null);
                        if !same(&got, want) {
                            diffs.push(format!("{key}:\n  got  {}\n  want {}", got.to_json(), want.to_json()));
                        }
                    }
                    (!diffs.is_empty()).then(|| diffs.join("\n"))
                }
            };
            match failure {
                Some(f) => failures.push(format!("{label}: {f}")),
                None => passed += 1,
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("{passed} windsor render cases passed");
}
