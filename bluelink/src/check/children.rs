//! The child blueprints an include names with a literal path inside the
//! blueprint's folder, read as a render would read them (through the same
//! root, never outside it), for their exports and variables.

use crate::blueprint::{Blueprint, Include, Type};
use crate::load;
use crate::sub::Tree;
use bpvm_runtime::Value;
use bpvm_runtime::root::Root;
use std::path::Path;

/// What a check needs of a child blueprint.
pub(super) struct Child {
    /// The file, relative to the blueprint's folder.
    pub file: String,
    /// Its exports and their declared types, in document order.
    pub exports: Vec<(String, Type)>,
    /// Its variables, in document order, and whether each has a default.
    pub variables: Vec<(String, bool)>,
}

/// Each include's child, in order: `None` when its path is not a literal,
/// or the file cannot be read or does not load (a render reports why).
pub(super) fn children(bp: &Blueprint) -> Vec<Option<Child>> {
    if bp.includes.is_empty() {
        return Vec::new();
    }
    let dir = bp.path.parent().unwrap_or(Path::new("/"));
    let Ok(root) = Root::new(dir, "blueprint folder") else {
        return bp.includes.iter().map(|_| None).collect();
    };
    bp.includes.iter().map(|inc| child(&root, inc)).collect()
}

fn child(root: &Root, inc: &Include) -> Option<Child> {
    let Tree::Lit(Value::Str(path)) = &inc.path else {
        return None;
    };
    let fetched = root.fetch(root.dir(), path).ok()?;
    let target = fetched.path.clone();
    let file = target
        .strip_prefix(root.dir())
        .unwrap_or(&target)
        .display()
        .to_string()
        .replace('\\', "/");
    let bp = load::load_fetched(fetched, path, &file).ok()?;
    Some(Child {
        file,
        exports: bp.exports.iter().map(|x| (x.name.clone(), x.ty)).collect(),
        variables: bp
            .variables
            .iter()
            .map(|v| (v.name.clone(), v.default.is_some()))
            .collect(),
    })
}
