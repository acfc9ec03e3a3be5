//! `bpvm check` on the Windsor core templates of `../shared/corpus`: the
//! whole check of a project (loading, every expression against the
//! schema, conditions tried on the schema's values, the test cases'
//! values validated) as `bpvm check PROJECT` runs it. Target: 20 ms each.
//! Without the corpus beside the repository there is nothing to measure,
//! and the benchmark says so.
//!
//! Run: `cargo bench --bench check`.

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

// The allocator `bpvm` itself uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn check(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    for corpus in ["windsor-core-aae5e79e", "windsor-core-v0.7.0"] {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus")
            .join(corpus);
        if !root.is_dir() {
            eprintln!("skipped: {} is not there", root.display());
            continue;
        }
        // Once first: a broken check is not a measurement.
        let report = bpvm::check::check(&[&root]).expect("the corpus is checked");
        assert_eq!(report.templates.len(), 1);
        group.bench_function(corpus, |b| b.iter(|| black_box(bpvm::check::check(&[&root]).unwrap())));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = check
}
criterion_main!(benches);
