//! `bpvm explain PATH BLUEPRINT`: the substitutions written at PATH or
//! under it, and what each read.

use super::value::{heading, reads};
use crate::args::BluelinkFlags;
use crate::load;
use std::fmt::Write;
use std::path::Path;

/// Renders `blueprint` with `flags` and explains the value at `path`.
pub fn explain(path: &str, blueprint: &Path, flags: &BluelinkFlags) -> Result<(), String> {
    let bp = load::bluelink::blueprint(blueprint)?;
    let opts = load::bluelink::options(flags, &bp)?;
    let rendered = bpvm::bluelink::render::render(&bp, &opts).map_err(|e| format!("{e}"))?;
    let why = bpvm::bluelink::explain::explain(&bp, &rendered, path).map_err(|e| format!("error: {e}"))?;
    let mut out = heading(&why.path, why.value.as_ref());
    if why.written.is_empty() {
        out.push_str("  written as is: no substitution\n");
    }
    for w in &why.written {
        let _ = writeln!(out, "  {} ({}:{}:{})", w.path, w.file, w.at.line, w.at.col);
        let _ = writeln!(out, "      {}", w.text);
        reads(&mut out, &w.reads, &|_| None);
    }
    anstream::print!("{}", crate::paint::escaped(&out));
    Ok(())
}
