//! What ships is clean: `check` finds nothing in the blueprints of
//! `examples/bluelink`.

use bpvm_bluelink::check::check;
use std::path::{Path, PathBuf};

fn yaml_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

#[test]
fn the_shipped_examples_have_no_findings() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/bluelink");
    let mut checked = 0;
    for file in yaml_files(&dir) {
        let text = std::fs::read_to_string(&file).unwrap();
        // The folder also holds the variables and data a render is given.
        if !text.lines().any(|l| l.starts_with("version:")) {
            continue;
        }
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        let found: Vec<String> = check(&file, &name).iter().map(ToString::to_string).collect();
        assert_eq!(found, Vec::<String>::new(), "{name}");
        checked += 1;
    }
    assert!(checked >= 2, "the examples were not found");
}
