//! Batch rendering: find every target under a folder (Windsor contexts,
//! Bluelink variable sets), keep one shard of them, render them on all
//! cores, and report each.
//!
//! Run: `cargo run --example batch`.

use bpvm::batch::{Options, Output, Sink, Status, Target, Verdict, discover, run, shard};
use std::path::Path;
use std::sync::Mutex;

/// Collects what each target rendered (a real host would write files).
#[derive(Default)]
struct Sizes(Mutex<Vec<(String, usize)>>);

impl Sink for Sizes {
    fn output(&self, target: &Target, output: &Output) -> Verdict {
        if let Ok(mut sizes) = self.0.lock() {
            sizes.push((target.id.clone(), output.text.len()));
        }
        Verdict::Ok
    }
}

fn main() -> Result<(), String> {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let targets = discover(&[&examples]).into_result().map_err(|e| e.to_string())?;
    let mine = shard(&targets, 1, 1);
    let sizes = Sizes::default();
    let records = run(&mine, &Options::default(), &sizes);
    let sizes = sizes.0.into_inner().map_err(|e| e.to_string())?;
    for record in &records {
        let bytes = sizes.iter().find(|(id, _)| *id == record.id).map_or(0, |(_, n)| *n);
        println!("{:<24} {:?} ({bytes} bytes)", record.id, record.status);
    }
    let failed = records.iter().filter(|r| r.status == Status::Failed).count();
    println!("{} rendered, {failed} failed", records.len() - failed);
    Ok(())
}
