//! Loads and renders a blueprint with the system allocator, for measuring
//! peak memory (`/usr/bin/time -f %M`) and heap profiles.
//!
//! Run: `cargo run --release -p bpvm-bluelink --example footprint -- BLUEPRINT [load]`.

use bpvm_bluelink::{load, render};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = std::path::Path::new(&args[1]);
    let bp = load::load(path, &args[1]).expect("the blueprint loads");
    if args.get(2).map(String::as_str) == Some("load") {
        println!("{} resources", bp.resources.len());
        return;
    }
    let out = render::render(&bp, &render::Options::default()).expect("the blueprint renders");
    let text = bpvm_runtime::text::to_yaml(&out.document);
    println!("{} bytes", text.len());
}
