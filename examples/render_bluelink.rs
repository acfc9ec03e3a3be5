//! Rendering a Bluelink blueprint: load and validate it once, render it
//! with as many variable sets as needed.
//!
//! Run: `cargo run --example render_bluelink`.

use bpvm::Value;
use bpvm::bluelink::{load, render};
use std::path::Path;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bluelink");
    let blueprint = load::load(&dir.join("blueprint.yaml"), "blueprint.yaml")?;
    let datasources = std::fs::read_to_string(dir.join("blueprint.datasources.yaml"))?;
    for (environment, password) in [("production", "first-example"), ("production", "second-example")] {
        let opts = render::Options {
            variables: vec![
                ("environment".into(), render::Input::Text(environment.into())),
                ("databasePassword".into(), render::Input::Text(password.into())),
            ],
            datasources: Some(Value::from_yaml(&datasources)?),
            seed: Some(7),
            ..render::Options::default()
        };
        let out = render::render(&blueprint, &opts)?;
        println!(
            "# {environment}, password {password}\n{}",
            bpvm::runtime::text::to_yaml(&out.document)
        );
    }
    Ok(())
}
