//! What a Windsor project declares that completion offers, read file by
//! file through the file layer (open documents as edited): the schema,
//! the config blocks of every facet, each context's values, and the
//! format its facets are written in. A file that does not parse while
//! it is being edited is passed over; the rest still count.

use bpvm::Value;
use bpvm::runtime::Typing;
use bpvm::runtime::root::{Kind, Root};
use bpvm::windsor::format::{Format, detect};
use bpvm::windsor::{TEMPLATE, files_under};
use std::path::Path;

/// A config block a facet defines.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The facet's file, relative to the project.
    pub file: String,
    /// The block's name: the scope path its value is read at.
    pub name: String,
    /// Its value (v0.9: `value`; the seed format: the keys written
    /// beside the name).
    pub body: Value,
}

/// A project's declarations.
#[derive(Debug, Clone, Default)]
pub struct Declared {
    /// `contexts/_template/schema.yaml`, when it parses.
    pub schema: Option<Value>,
    /// Every facet's config blocks, in file order.
    pub blocks: Vec<Block>,
    /// Each context's `values.yaml`, by context name.
    pub contexts: Vec<(String, Value)>,
    /// The facets' format; `None` when they mix both.
    pub format: Option<Format>,
}

/// The declarations of the Windsor project at `dir`; what cannot be read
/// is left out.
///
/// ```
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/windsor");
/// let declared = bpvm_lsp::complete::declared(&dir);
/// assert!(declared.schema.is_some());
/// assert!(declared.blocks.iter().any(|b| b.name == "cluster_config"));
/// assert_eq!(declared.contexts[0].0, "local");
/// ```
pub fn declared(dir: &Path) -> Declared {
    // Governed as a load is: the documents read add up to one limit.
    bpvm::runtime::govern::govern(|| read(dir))
}

/// The schema of the Windsor project at `dir` alone
/// (`contexts/_template/schema.yaml`), as [`declared`] reads it; `None`
/// when it has none or it does not parse.
///
/// ```
/// let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/windsor");
/// assert!(bpvm_lsp::complete::schema_of(&dir).is_some());
/// assert!(bpvm_lsp::complete::schema_of(std::path::Path::new("/nonexistent")).is_none());
/// ```
pub fn schema_of(dir: &Path) -> Option<Value> {
    bpvm::runtime::govern::govern(|| {
        let root = Root::new(dir, "project").ok()?;
        yaml(&root, &format!("{TEMPLATE}/schema.yaml"))
    })
}

/// [`declared`], not governed.
fn read(dir: &Path) -> Declared {
    let Ok(root) = Root::new(dir, "project") else {
        return Declared::default();
    };
    let facets = facet_documents(&root);
    let refs: Vec<(String, &Value)> = facets.iter().map(|(f, d)| (f.clone(), d)).collect();
    let format = detect(&refs).ok().map(|d| d.format);
    let blocks = facets
        .iter()
        .flat_map(|(file, doc)| blocks_of(file, doc, format))
        .collect();
    Declared {
        schema: yaml(&root, &format!("{TEMPLATE}/schema.yaml")),
        blocks,
        contexts: contexts(&root),
        format,
    }
}

/// Every facet file that parses, with its document.
fn facet_documents(root: &Root) -> Vec<(String, Value)> {
    let mut files = Vec::new();
    for dir in ["facets", "features"] {
        // A folder that cannot be listed leaves out what is in it.
        let _ = files_under(root, &format!("{TEMPLATE}/{dir}"), &[".yaml", ".yml"], &mut files);
    }
    files
        .into_iter()
        .filter_map(|file| yaml(root, &file).map(|doc| (file, doc)))
        .collect()
}

/// The config blocks of facet `doc`, read as `format` writes them (both
/// ways when the facets mix formats).
fn blocks_of(file: &str, doc: &Value, format: Option<Format>) -> Vec<Block> {
    let Some(Value::List(items)) = doc.as_map().and_then(|m| m.get("config")) else {
        return Vec::new();
    };
    items
        .iter()
        .filter_map(Value::as_map)
        .filter_map(|block| {
            let name = block.get("name")?.as_str()?.to_string();
            let mut inline = block.clone();
            inline.remove("name");
            inline.remove("when");
            let body = match (format, block.get("value")) {
                (Some(Format::Seed), _) | (None, None) => Value::Map(inline),
                (_, value) => value.cloned().unwrap_or(Value::Null),
            };
            Some(Block {
                file: file.to_string(),
                name,
                body,
            })
        })
        .collect()
}

/// Each context folder's `values.yaml` that parses, in name order.
fn contexts(root: &Root) -> Vec<(String, Value)> {
    let Ok(Some(listing)) = root.list(root.dir(), "contexts") else {
        return Vec::new();
    };
    let mut names: Vec<String> = listing
        .entries
        .iter()
        .filter(|e| matches!(e.kind, Ok(Kind::Folder)))
        .filter_map(|e| e.name.to_str().map(str::to_string))
        .filter(|n| n != "_template")
        .collect();
    names.sort();
    names
        .into_iter()
        .filter_map(|n| yaml(root, &format!("contexts/{n}/values.yaml")).map(|v| (n, v)))
        .collect()
}

/// The YAML file `rel` of the project, read as Windsor types scalars;
/// `None` when it is missing or does not parse.
fn yaml(root: &Root, rel: &str) -> Option<Value> {
    let text = root.read_string(root.dir(), rel).ok()?;
    Value::from_yaml_as(&text, Typing::GoYaml).ok()
}
