//! `bpvm render BLUEPRINT`: a Bluelink blueprint validated and materialised.

use crate::args::{BluelinkFlags, Format};
use crate::load;
use bpvm::bluelink::render;
use std::path::PathBuf;

/// What `bpvm render BLUEPRINT` was asked.
pub struct RenderArgs {
    pub blueprint: PathBuf,
    pub flags: BluelinkFlags,
    pub format: Format,
    pub out: Option<PathBuf>,
}

pub fn render(args: RenderArgs) -> Result<(), String> {
    let bp = load::bluelink::blueprint(&args.blueprint)?;
    let opts = load::bluelink::options(&args.flags, &bp)?;
    let rendered = render::render(&bp, &opts).map_err(|e| format!("{e}"))?;
    if !rendered.deferred.is_empty() {
        eprintln!(
            "{} value(s) left as written until deploy time:",
            rendered.deferred.len()
        );
        for d in &rendered.deferred {
            eprintln!("  {}: {}: {}", d.file, d.path, d.reference);
        }
    }
    let text = match args.format {
        Format::Yaml => bpvm::runtime::text::to_yaml(&rendered.document),
        Format::Json => bpvm::runtime::text::to_json(&rendered.document),
    };
    match &args.out {
        None => {
            print!("{text}");
            Ok(())
        }
        Some(path) => crate::write::atomically("--out", path, &text),
    }
}
