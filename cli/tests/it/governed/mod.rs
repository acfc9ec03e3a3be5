//! Limits that hold whatever a template does: an evaluation's steps and
//! memory, a render's deadline and values, Jsonnet's memory and time (its
//! worker process), and the memory of the `bpvm` process as a whole.

mod evaluation;
mod jsonnet;
mod memory;

use crate::support::{self, Scratch};
use std::path::Path;

/// A project whose one facet's input is `expression`, with `files` (path
/// under `contexts/_template`, text) beside it.
fn project(name: &str, expression: &str, files: &[(&str, &str)]) -> Scratch {
    let dir = support::scratch_dir(name);
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::create_dir_all(dir.join("contexts/local")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "context: local\n").unwrap();
    std::fs::write(dir.join("contexts/local/values.yaml"), "provider: aws\n").unwrap();
    let facet =
        format!("kind: Facet\nmetadata: {{name: base}}\nterraform: [{{path: p, inputs: {{x: '{expression}'}}}}]\n");
    std::fs::write(template.join("facets/base.yaml"), facet).unwrap();
    for (path, text) in files {
        write(&template.join(path), text);
    }
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
}
