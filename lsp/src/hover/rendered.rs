//! A Bluelink blueprint as its editor holds it, rendered as `bpvm batch`
//! renders it: with the variables, data sources and resource state of
//! the files beside it (`<stem>.vars.yaml`, `<stem>.datasources.yaml`,
//! `<stem>.resource-state.yaml`), each read through the file layer.

use bpvm::Value;
use bpvm::batch::files_beside;
use bpvm::bluelink::blueprint::Blueprint;
use bpvm::bluelink::load::parse;
use bpvm::bluelink::render::{Input, Options, Rendered, mapping, render};
use bpvm::runtime::root::Root;
use std::path::Path;

/// A blueprint and its render, or why there is none.
pub struct Render {
    /// The blueprint, when its text loads.
    pub blueprint: Option<Blueprint>,
    /// The render; `Err` says why the blueprint does not load or render.
    pub rendered: Result<Rendered, String>,
    /// The files read besides the blueprint, each as `name (what)`.
    pub given: Vec<String>,
}

/// The blueprint at `path` whose text is `text`, rendered with the files
/// beside it.
pub fn rendered(path: &Path, text: &str) -> Render {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut given = Vec::new();
    let blueprint = match parse(text, &name, path) {
        Ok(bp) => bp,
        Err(e) => {
            return Render {
                blueprint: None,
                rendered: Err(e.to_string()),
                given,
            };
        }
    };
    let rendered = options(path, &mut given).and_then(|o| render(&blueprint, &o).map_err(|e| e.to_string()));
    Render {
        blueprint: Some(blueprint),
        rendered,
        given,
    }
}

/// The render options the files beside `path` give; each file read is
/// added to `given`. An error says which file cannot be read and why.
fn options(path: &Path, given: &mut Vec<String>) -> Result<Options, String> {
    let folder = path.parent().unwrap_or(Path::new("/"));
    let files = files_beside(path);
    let root = Root::new(folder, "blueprint folder").map_err(|e| e.to_string())?;
    let mut read = |file: Option<&Path>, what: &str, maps: &str| -> Result<Option<Value>, String> {
        let Some(name) = file.and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned()) else {
            return Ok(None);
        };
        let text = root.read_string(folder, &name).map_err(|e| e.to_string())?;
        let map = mapping(&text, maps).map_err(|e| format!("{name}: {e}"))?;
        given.push(format!("`{name}` ({what})"));
        Ok(Some(Value::Map(map)))
    };
    let variables = read(files.vars.as_deref(), "variables", "variable names to values")?;
    let datasources = read(
        files.datasources.as_deref(),
        "data sources",
        "data source names (or types) to their data",
    )?;
    let resource_state = read(
        files.resource_state.as_deref(),
        "resource state",
        "resource names to their deploy-time fields",
    )?;
    let variables = match variables {
        Some(Value::Map(m)) => m
            .iter()
            .map(|(k, v)| (k.as_str().to_string(), Input::Value(v.clone())))
            .collect(),
        _ => Vec::new(),
    };
    Ok(Options {
        variables,
        datasources,
        resource_state,
        root: Some(folder.to_path_buf()),
        ..Options::default()
    })
}
