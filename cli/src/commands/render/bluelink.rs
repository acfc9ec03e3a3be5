//! `bpvm render BLUEPRINT`: a Bluelink blueprint validated and materialised.

use super::args::Args;
use crate::args::Format;
use crate::load;
use bpvm::bluelink::render;
use std::path::Path;

/// Renders the blueprint at `path` with the flags of `args`.
pub fn render(path: &Path, args: &Args) -> Result<(), String> {
    let bp = load::bluelink::blueprint(path)?;
    let opts = load::bluelink::options(&args.bluelink, &bp)?;
    let rendered = render::render(&bp, &opts).map_err(|e| format!("{e}"))?;
    if !rendered.deferred.is_empty() {
        eprintln!(
            "{} value(s) left as written until deploy time:",
            rendered.deferred.len()
        );
        for d in &rendered.deferred {
            let line = format!("  {}: {}: {}", d.file, d.path, d.reference);
            eprintln!("{}", crate::paint::safe(&line));
        }
    }
    let text = match args.output.chosen() {
        Format::Yaml => bpvm::runtime::text::to_yaml(&rendered.document),
        Format::Json => bpvm::runtime::text::to_json(&rendered.document),
    };
    let text = args.marked(&path.display().to_string(), text);
    crate::write::output(args.out.as_deref(), &text)
}
