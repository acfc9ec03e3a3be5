//! Rendering a Windsor context: load and compile the project once, render
//! any of its contexts (here the shipped example's `local`).
//!
//! Run: `cargo run --example render_windsor`.

use bpvm::windsor::output::to_yaml;
use bpvm::windsor::{Project, render::render_files};
use std::path::Path;

fn main() -> Result<(), bpvm::Error> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/windsor");
    let project = Project::load(&dir)?;
    // Schema defaults applied, no terraform outputs: what `bpvm render` does.
    let rendered = render_files(&project, "local", true, None)?;
    print!("{}", to_yaml(&rendered.blueprint));
    Ok(())
}
