//! The round trip: every YAML blueprint case that renders, converted to
//! `.bp` and back to YAML, renders to the same document, byte for byte,
//! and `fmt` of the `.bp` it was converted to changes nothing. Each is
//! the test `roundtrip::<case's test name>`.
//!
//! A blueprint `.bp` cannot spell must be refused, and is listed in
//! `tests/blueprints/lang/README.md` (a table row with its case file, its
//! case's name and the text its refusal contains). A listed blueprint
//! that converts fails too, so the list is exact.

use crate::expected::renders;
use crate::rendered::{blueprint_name, render_named};
use bpvm_bluelink::lang::{self, print};
use bpvm_bluelink::{load, node, render};
use bpvm_harness::{Case, CaseFile, Failure};
use bpvm_runtime::Value;
use bpvm_runtime::text::to_yaml;
use std::path::Path;
use std::sync::Arc;

/// `file` with only its cases that render (the others have nothing to
/// compare), or `None` when it has none.
pub fn rendering_cases(file: &CaseFile) -> Option<Arc<CaseFile>> {
    let Some(Value::List(cases)) = file.get("cases") else {
        return None;
    };
    let kept: Vec<Value> = cases
        .iter()
        .filter(|c| c.as_map().is_some_and(renders))
        .cloned()
        .collect();
    if kept.is_empty() {
        return None;
    }
    let mut doc = file.doc.as_map()?.clone();
    doc.insert("cases", Value::List(kept));
    Some(Arc::new(CaseFile {
        path: file.path.clone(),
        doc: Value::Map(doc),
    }))
}

/// A case as the README lists it: its case file under
/// `tests/blueprints`, and its name.
fn listed_as(case: &Case) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blueprints");
    let file = case.file.path.strip_prefix(&root).unwrap_or(&case.file.path);
    format!("{} {}", file.display(), case.text("name").unwrap_or_default())
}

/// The refusals listed in the README: (case file and name, text of the
/// refusal).
pub fn listed_refusals() -> Vec<(String, String)> {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/blueprints/lang/README.md");
    let text = std::fs::read_to_string(readme).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            // | `file` | `case name` | `refusal` |
            let cells: Vec<&str> = l.strip_prefix("| `")?.split('`').collect();
            let [file, _, name, _, refusal, ..] = cells[..] else {
                return None;
            };
            Some((format!("{file} {name}"), refusal.to_string()))
        })
        .collect()
}

/// Runs the round trip of `case`.
pub fn run(case: &Case, listed: &[(String, String)]) -> Result<(), Failure> {
    let name = &listed_as(case);
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let files = scratch.path().join("case");
    std::fs::create_dir_all(&files).map_err(|e| e.to_string())?;
    let source = crate::folder_of(case, &files)?;
    let dir = scratch.path().join("work");
    copy_dir(&source, &dir).map_err(|e| e.to_string())?;
    let file = blueprint_name(case, &dir);
    if lang::is_bp(&file) {
        return Ok(());
    }
    let text = std::fs::read_to_string(dir.join(&file)).map_err(|e| e.to_string())?;
    let doc = node::read(&text).map_err(|e| format!("{file}: {}", e.message))?;
    let listing = listed.iter().find(|(n, _)| n == name);
    let converted =
        children(&dir, &text, &file, case.text("expect")).and_then(|()| print::to_bp_commented(&doc, &text));
    let bp = match (converted, listing) {
        (Err(e), Some((_, why))) if e.message.contains(why.as_str()) => return Ok(()),
        (Err(e), _) => {
            let why = format!("refused at {}:{}: {}", e.at.line, e.at.col, e.message);
            return Err(Failure::problem(format!(
                "{why} (not listed in lang/README.md as {name:?})"
            )));
        }
        (Ok(bp), None) => bp,
        (Ok(_), _) => return Err(Failure::problem("listed in lang/README.md as refused, but converts")),
    };
    let mut failure = Failure::default();
    match print::format(&bp) {
        Ok(formatted) if formatted == bp => {}
        Ok(formatted) => failure.differs("fmt of the converted .bp", bp.clone(), formatted, None),
        Err(e) => failure.differs(
            "the converted .bp",
            bp.clone(),
            format!("{}:{}: {}", e.at.line, e.at.col, e.message),
            None,
        ),
    }
    let back = print::to_yaml(&bp).map_err(|e| format!("{}:{}: {}\n{bp}", e.at.line, e.at.col, e.message))?;
    std::fs::write(dir.join("roundtrip.yaml"), &back).map_err(|e| e.to_string())?;
    let shown = |r: crate::rendered::Rendered| match r {
        Ok((doc, deferred)) => format!("{}deferred: {deferred:?}\n", to_yaml(&doc)),
        Err(lines) => lines.join("\n"),
    };
    let want = shown(render_named(case, &dir, &file));
    let got = shown(render_named(case, &dir, "roundtrip.yaml"));
    if want != got {
        failure.differs(
            "the render after the round trip",
            want,
            format!("{got}\n--- via .bp:\n{bp}"),
            None,
        );
    }
    failure.result()
}

/// Converts, in place, each other blueprint in `dir` whose file name the
/// main blueprint's `text` names (the blueprints it includes).
fn children(dir: &Path, text: &str, main: &str, expect: Option<&str>) -> Result<(), print::Refused> {
    for path in files(dir) {
        let rel = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().to_string();
        let name = path.file_name().unwrap_or_default().to_string_lossy().to_string();
        let blueprint = name.ends_with(".yaml") || name.ends_with(".json");
        if !blueprint || rel == main || Some(rel.as_str()) == expect || !text.contains(&name) {
            continue;
        }
        let Ok(child) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(doc) = node::read(&child) else {
            continue;
        };
        if doc.get("version").is_none() {
            continue; // variables or data for a render, not a blueprint
        }
        let in_file = |mut e: print::Refused| {
            e.message = format!("{rel}: {}", e.message);
            e
        };
        let bp = print::to_bp_commented(&doc, &child).map_err(in_file)?;
        let yaml = print::to_yaml(&bp).map_err(in_file)?;
        let _ = std::fs::write(&path, yaml);
    }
    Ok(())
}

/// Every file under `dir`.
fn files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// The round trip of the shipped example `file` (in `examples/bluelink`),
/// rendered with its `<stem>.vars.yaml` and `<stem>.datasources.yaml`
/// when they are there.
pub fn example(file: &str) -> Result<(), String> {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bluelink");
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = scratch.path().join("work");
    copy_dir(&shipped, &dir).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(dir.join(file)).map_err(|e| e.to_string())?;
    let doc = node::read(&text).map_err(|e| e.message)?;
    let shown = |e: print::Refused| format!("refused at {}:{}: {}", e.at.line, e.at.col, e.message);
    children(&dir, &text, file, None).map_err(shown)?;
    let bp = print::to_bp_commented(&doc, &text).map_err(shown)?;
    if print::format(&bp).map_err(shown)? != bp {
        return Err(format!("fmt changes the converted .bp:\n{bp}"));
    }
    std::fs::write(dir.join("roundtrip.yaml"), print::to_yaml(&bp).map_err(shown)?).map_err(|e| e.to_string())?;
    let stem = file.trim_end_matches(".yaml");
    let input = |suffix: &str| {
        let text = std::fs::read_to_string(dir.join(format!("{stem}.{suffix}.yaml"))).ok()?;
        Value::from_yaml(&text).ok()
    };
    let variables = match input("vars") {
        Some(Value::Map(m)) => m
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), render::Input::Value(v.clone())))
            .collect(),
        _ => Vec::new(),
    };
    let options = render::Options {
        variables,
        datasources: input("datasources"),
        seed: Some(7),
        now: "2026-01-01T00:00:00Z".parse().ok(),
        cwd: Some(dir.clone()),
        root: Some(dir.clone()),
        ..render::Options::default()
    };
    let rendered = |name: &str| {
        let bp = load::load(&dir.join(name), name).map_err(|e| format!("{e:?}"))?;
        let out = render::render(&bp, &options).map_err(|e| format!("{e:?}"))?;
        Ok::<_, String>(to_yaml(&out.document))
    };
    // One that renders only as another's child (storage.yaml, whose
    // variables blueprint.yaml passes) goes round with that one.
    let Ok(want) = rendered(file) else {
        return Ok(());
    };
    let got = rendered("roundtrip.yaml").unwrap_or_else(|e| e);
    if want != got {
        return Err(bpvm_harness::diff(&want, &got));
    }
    Ok(())
}

/// The shipped example blueprints (the folder also holds the variables
/// and data a render is given).
pub fn examples() -> Vec<String> {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bluelink");
    let mut names: Vec<String> = files(&shipped)
        .into_iter()
        .filter(|p| {
            p.extension().is_some_and(|e| e == "yaml")
                && std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.starts_with("version:")))
        })
        .filter_map(|p| Some(p.file_name()?.to_string_lossy().to_string()))
        .collect();
    names.sort();
    names
}
