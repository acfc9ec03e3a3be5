//! Windsor rendering, table-driven: each case in `tests/projects/*.yaml`
//! is a small project (facet files, other template files, values) and
//! either the exact `terraform` / `kustomize` / `configMaps` it renders
//! to, or an `error` the render (or load) must fail with.

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

fn run_case(dir: &Path, case: &bpvm_runtime::Map) -> Result<Value, String> {
    write_project(dir, case);
    let project = Project::load(dir).map_err(|e| e.to_string())?;
    let values = case.get("values").cloned().unwrap_or(Value::Null);
    let ctx = scope::context(&project, "test", scope::Values::Given(values), true).map_err(|e| e.to_string())?;
    let opts = render::Options {
        outputs: case.get("terraformOutputs").cloned(),
        environment: case.get("env").and_then(Value::as_map).cloned(),
        ..Default::default()
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
        for case in cases {
            let case = case.as_map().expect("a case is a mapping");
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
                    for key in ["terraform", "kustomize", "configMaps"] {
                        let Some(want) = case.get(key) else { continue };
                        let got = bp.as_map().and_then(|m| m.get(key)).cloned().unwrap_or(Value::Null);
                        if got.to_json() != want.to_json() {
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
