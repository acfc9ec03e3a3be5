//! What tracking inputs costs a cold batch: `batch::run` over the same
//! targets with input tracking off and on (each target's manifest made:
//! every file read hashed, facets left out noted), taken as JSON (as
//! `bpvm batch`'s workers take them) and as structs (read back from the
//! JSON), in one process, no report written. The targets: the Windsor
//! examples (both formats) copied as 8 projects of 10 contexts each, and
//! the Bluelink example copied 20 times — 100 targets, each small, so
//! that what tracking costs per target weighs more than in a real
//! monorepo.
//!
//! 2026-11-28, 2-core machine, one session, two runs each, interleaved
//! with the build of the morning (89a2f63): untracked 14.34 / 14.39 ms,
//! tracked 15.43 / 15.42 ms as JSON (+7.4 %), 15.94 / 15.99 ms as
//! structs (+11.2 %); the morning's, 14.09 / 14.08 ms untracked and
//! 15.61 / 15.67 ms tracked (+11 %, structs). The target, +5 %, is for a
//! whole `bpvm batch` run (`benches/cache.sh`: +2.8 to +4.5 %), where
//! targets are larger: here each is small, so what tracking costs per
//! target (hashing each file read and each manifest's key) weighs more.
//!
//! Run: `cargo bench --bench tracking`.

use bpvm::batch::{Options, Output, Sink, Target, Verdict, discover, run};
use bpvm_harness::copy_tree;
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::Path;

// The allocator `bpvm` itself uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Takes each output and keeps nothing (a host would write it); takes
/// manifests as JSON text when `json` (as `bpvm batch`'s workers do),
/// else as structs.
struct Discard {
    json: bool,
}

impl Sink for Discard {
    fn output(&self, _: &Target, _: &Output) -> Verdict {
        Verdict::Ok
    }

    fn manifests_as_json(&self) -> bool {
        self.json
    }
}

/// The monorepo the benchmark renders, in `root`.
fn monorepo(root: &Path) {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for p in 0..8 {
        let kind = if p % 2 == 0 { "windsor-v0.9" } else { "windsor" };
        let project = root.join(format!("windsor/p{p}"));
        copy_tree(&examples.join(kind), &project);
        for c in 0..10 {
            copy_tree(&project.join("contexts/local"), &project.join(format!("contexts/c{c}")));
        }
        for extra in ["local", "staging"] {
            let _ = std::fs::remove_dir_all(project.join("contexts").join(extra));
        }
    }
    for b in 0..20 {
        copy_tree(&examples.join("bluelink"), &root.join(format!("bluelink/b{b}")));
    }
}

fn tracking(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    monorepo(dir.path());
    let targets = discover(&[dir.path()]).into_result().unwrap();
    let mut group = c.benchmark_group("batch tracking");
    for (name, track, json) in [
        ("untracked", false, false),
        ("tracked", true, false),
        ("tracked, JSON", true, true),
    ] {
        let options = Options {
            jobs: 1,
            track,
            ..Options::default()
        };
        let sink = Discard { json };
        // Once first: a batch that fails is not a measurement.
        let records = run(&targets, &options, &sink);
        assert!(records.iter().all(|r| r.diagnostics.is_empty()), "{records:?}");
        let made = |r: &bpvm::batch::Record| {
            if json {
                r.manifest_json.is_some()
            } else {
                r.manifest.is_some()
            }
        };
        assert_eq!(records.iter().all(made), track);
        group.bench_function(format!("{name} ({} targets)", targets.len()), |b| {
            b.iter(|| run(&targets, &options, &sink))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = tracking
}
criterion_main!(benches);
