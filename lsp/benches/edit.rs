//! `bpvm lsp` after a one-character change to a facet of the Windsor
//! core template (v0.7.0, from the corpus beside the repository): the
//! editor's text put in the file layer's overlay, as the server puts it,
//! then the template diagnosed with what the check before it kept — the
//! work the server does once edits pause. Target: 50 ms. Without the
//! corpus there is nothing to measure, and the benchmark says so.
//!
//! Run: `cargo bench -p bpvm-lsp --bench edit`.

use bpvm::runtime::root::overlay;
use bpvm_lsp::diagnose::{Kept, Template, diagnose};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

// The allocator `bpvm` itself uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const FACET: &str = "contexts/_template/facets/option-cni.yaml";

fn edit(c: &mut Criterion) {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/windsor-core-v0.7.0");
    let Ok(root) = corpus.canonicalize() else {
        eprintln!("skipped: {} is not there", corpus.display());
        return;
    };
    let facet = root.join(FACET);
    let text = std::fs::read_to_string(&facet).expect("the facet reads");
    let template = Template::Windsor(root);
    let mut kept = Kept::default();
    // Once first, as the server's first check: nothing kept yet.
    let first = diagnose(&template, &mut kept);
    let mut n = 0;
    c.bench_function("one-character edit to a facet of windsor-core-v0.7.0", |b| {
        b.iter(|| {
            // A comment one character longer (or back to one) each time.
            n = n % 40 + 1;
            overlay::set(&facet, format!("{text}#{}\n", "x".repeat(n)));
            black_box(diagnose(&template, &mut kept))
        })
    });
    overlay::remove(&facet);
    assert_eq!(diagnose(&template, &mut kept), first, "the edits changed no finding");
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = edit
}
criterion_main!(benches);
