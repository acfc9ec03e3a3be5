//! A Windsor project on disk: `windsor.yaml`, the template in
//! `contexts/_template/` and one folder per context. Loading reads and
//! compiles everything once; renders reuse it.

use super::error::{Error, Errors};
use super::facet::{self, Facet};
use bpvm_runtime::Value;
use std::path::{Path, PathBuf};

/// A loaded project.
#[derive(Debug, Clone)]
pub struct Project {
    /// The project folder.
    pub root: PathBuf,
    /// `windsor.yaml` (empty when absent).
    pub windsor: Value,
    /// `contexts/_template/blueprint.yaml`, the base the facets fold into.
    pub blueprint: Value,
    /// The base blueprint's components, compiled.
    pub base: Vec<facet::Part>,
    /// `contexts/_template/schema.yaml`, when there is one.
    pub schema: Option<Value>,
    /// The facets (and legacy features), by ordinal, then name.
    pub facets: Vec<Facet>,
}

/// The folder of the template, relative to the project.
pub const TEMPLATE: &str = "contexts/_template";

/// Reads a YAML file; a missing file is `None`.
pub fn read_yaml(root: &Path, rel: &str) -> Result<Option<Value>, Error> {
    let path = root.join(rel);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::new(Some(rel), "", format!("cannot read: {e}"))),
    };
    Value::from_yaml(&text)
        .map(Some)
        .map_err(|e| Error::new(Some(rel), "", format!("invalid YAML: {e}")))
}

fn yaml_files(root: &Path, rel: &str, out: &mut Vec<String>) -> Result<(), Error> {
    let dir = root.join(rel);
    let entries = match std::fs::read_dir(&dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(Error::new(Some(rel), "", format!("cannot list: {e}"))),
    };
    let mut names: Vec<(String, bool)> = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        names.push((name, entry.path().is_dir()));
    }
    names.sort();
    for (name, is_dir) in names {
        let child = format!("{rel}/{name}");
        if is_dir {
            yaml_files(root, &child, out)?;
        } else if name.ends_with(".yaml") || name.ends_with(".yml") {
            out.push(child);
        }
    }
    Ok(())
}

impl Project {
    /// Loads and compiles the project in `root`. Every problem found is
    /// reported, each with its file and YAML path.
    pub fn load(root: &Path) -> Result<Project, Errors> {
        // Absolute, so that paths in facets can be checked against it.
        let root = &root
            .canonicalize()
            .map_err(|e| Error::new(None, "", format!("cannot open project {}: {e}", root.display())))?;
        let mut errors = Vec::new();
        let mut read = |rel: &str| match read_yaml(root, rel) {
            Ok(v) => v,
            Err(e) => {
                errors.push(e);
                None
            }
        };
        let windsor = read("windsor.yaml").unwrap_or(Value::Null);
        let blueprint = read(&format!("{TEMPLATE}/blueprint.yaml")).unwrap_or(Value::Null);
        let schema = read(&format!("{TEMPLATE}/schema.yaml"));
        let base = match facet::base_parts(&blueprint, &format!("{TEMPLATE}/blueprint.yaml")) {
            Ok(parts) => parts,
            Err(mut es) => {
                errors.append(&mut es);
                Vec::new()
            }
        };
        let mut files = Vec::new();
        for dir in ["facets", "features"] {
            if let Err(e) = yaml_files(root, &format!("{TEMPLATE}/{dir}"), &mut files) {
                errors.push(e);
            }
        }
        let mut facets: Vec<Facet> = Vec::new();
        for file in &files {
            let doc = match read_yaml(root, file) {
                Ok(Some(doc)) => doc,
                Ok(None) => continue,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            };
            match facet::parse(&doc, file) {
                Ok(f) => {
                    if let Some(first) = facets.iter().find(|g| g.name == f.name) {
                        errors.push(Error::new(
                            Some(file),
                            "metadata.name",
                            format!("facet name {:?} is already used by {}", f.name, first.file),
                        ));
                    }
                    facets.push(f);
                }
                Err(mut es) => errors.append(&mut es),
            }
        }
        if !errors.is_empty() {
            return Err(Errors::new(errors));
        }
        // Ordinal, then name (names are unique, so the order is total).
        facets.sort_by(|a, b| (a.ordinal, &a.name).cmp(&(b.ordinal, &b.name)));
        Ok(Project {
            root: root.to_path_buf(),
            windsor,
            blueprint,
            base,
            schema,
            facets,
        })
    }

    /// The context a render uses when none is named: `context:` in
    /// `windsor.yaml`, else `local`.
    pub fn default_context(&self) -> String {
        self.windsor
            .as_map()
            .and_then(|m| m.get("context"))
            .and_then(Value::as_str)
            .unwrap_or("local")
            .to_string()
    }
}
