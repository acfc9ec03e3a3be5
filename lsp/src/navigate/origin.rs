//! Where a value of a Windsor context is set, from the provenance the
//! context was evaluated with (the origins hover shows): the key in a
//! values file or `windsor.yaml`, or the schema's `default`.

use super::source::Source;
use bpvm::runtime::root::Root;
use bpvm::windsor::origins::{Origin, Origins};
use lsp_types::Location;
use std::collections::BTreeMap;
use std::path::Path;

/// The places the value at `path` is set: the origin of that leaf; for a
/// map, the first place in each file that sets something under it. A
/// path that reads past a leaf (`a.b.c` where `a.b` is a text) is the
/// leaf's. Empty when no file sets it (derived by a rule, or unset).
pub fn set_at(root: &Root, origins: &Origins, path: &str) -> Vec<Location> {
    let mut prefix = path;
    loop {
        let found = places(origins, prefix);
        if !found.is_empty() {
            return locations(root, found);
        }
        match prefix.rfind('.') {
            Some(dot) => prefix = &prefix[..dot],
            None => return Vec::new(),
        }
    }
}

/// The file and line, column of each origin at or under `path`.
fn places<'o>(origins: &'o Origins, path: &'o str) -> Vec<(&'o str, (usize, usize))> {
    let leaves: Vec<&Origin> = match origins.of(path) {
        Some(o) => vec![o],
        None => origins.under(path).map(|(_, o)| o).collect(),
    };
    leaves
        .into_iter()
        .filter_map(|o| match o {
            Origin::File { file, at } | Origin::SchemaDefault { file, at } | Origin::ConfigBlock { file, at, .. } => {
                Some((file.as_str(), (*at)?))
            }
            Origin::Derived(_) | Origin::Given => None,
        })
        .collect()
}

/// The first of `places` in each file, as locations, by file.
fn locations(root: &Root, places: Vec<(&str, (usize, usize))>) -> Vec<Location> {
    let mut first: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (file, at) in places {
        let slot = first.entry(file).or_insert(at);
        *slot = (*slot).min(at);
    }
    first
        .into_iter()
        .filter_map(|(file, at)| {
            let relative = Path::new(file).strip_prefix(root.dir()).ok()?;
            let source = Source::read(root, relative.to_str()?)?;
            source.location(source.key_at(at))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm::windsor::origins::Origin;

    #[test]
    fn a_map_goes_to_its_first_leaf_in_each_file_and_a_path_past_a_leaf_to_the_leaf() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path(), "project").unwrap();
        std::fs::write(dir.path().join("v.yaml"), "a:\n  y: 1\n  x: 2\n").unwrap();
        std::fs::write(dir.path().join("s.yaml"), "z: {default: 3}\n").unwrap();
        let file = |name: &str| root.dir().join(name).to_string_lossy().into_owned();
        let mut origins = Origins::default();
        origins.set(
            "a.x",
            Origin::File {
                file: file("v.yaml"),
                at: Some((3, 3)),
            },
        );
        origins.set(
            "a.y",
            Origin::File {
                file: file("v.yaml"),
                at: Some((2, 3)),
            },
        );
        origins.set(
            "a.z",
            Origin::SchemaDefault {
                file: file("s.yaml"),
                at: Some((1, 5)),
            },
        );
        origins.set("b", Origin::Derived("a rule".into()));
        let lines = |path: &str| -> Vec<(String, u32, u32, u32)> {
            set_at(&root, &origins, path)
                .into_iter()
                .map(|l| {
                    let name = l.uri.as_str().rsplit('/').next().unwrap_or_default().to_string();
                    (name, l.range.start.line, l.range.start.character, l.range.end.character)
                })
                .collect()
        };
        assert_eq!(lines("a"), [("s.yaml".into(), 0, 4, 11), ("v.yaml".into(), 1, 2, 3)]);
        assert_eq!(lines("a.x.deeper"), [("v.yaml".into(), 2, 2, 3)]);
        assert_eq!(lines("b"), []);
        assert_eq!(lines("nothing"), []);
    }
}
