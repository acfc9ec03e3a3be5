//! Rendering the Windsor core templates of `../shared/corpus` (each
//! compiled once): the seed-format template by the seed rules, and the
//! v0.9 template (windsor-core v0.7.0) by the v0.9 rules; for each, one
//! context and 1,000 contexts made from its test cases' values. Without
//! the corpus beside the repository there is nothing to measure, and the
//! benchmark says so.
//!
//! Run: `cargo bench --bench render`.

use bpvm::Value;
use bpvm::windsor::{Project, render, scope, test};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::Path;

// The allocator `bpvm` itself uses.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Contexts from the test cases: each case's values as is, then with the
/// integers nudged, so 1,000 renders are not 38 repeated.
fn contexts(project: &Project, n: usize) -> Vec<(Value, render::Options)> {
    let cases = test::discover(project, &[]).expect("the corpus tests load");
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let case = &cases[i % cases.len()];
        let mut values = case.values().clone();
        nudge(&mut values, (i / cases.len()) as i64);
        let ctx = scope::context(project, "bench", scope::Values::Given(values.clone()), true).expect("context");
        let opts = render::Options {
            outputs: case.outputs().cloned(),
            operator: Some(values),
            ..Default::default()
        };
        out.push((ctx, opts));
    }
    out
}

fn nudge(v: &mut Value, by: i64) {
    match v {
        Value::Int(n) => *n += by,
        Value::List(items) => items.iter_mut().for_each(|x| nudge(x, by)),
        Value::Map(m) => {
            let keys: Vec<String> = m.keys().map(|k| k.as_str().to_string()).collect();
            for k in keys {
                if let Some(x) = m.get_mut(&k) {
                    nudge(x, by);
                }
            }
        }
        _ => {}
    }
}

/// The benchmarks of one template, under `group`.
fn template(c: &mut Criterion, group: &str, corpus: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(corpus);
    if !root.is_dir() {
        eprintln!("skipped: {} is not there", root.display());
        return;
    }
    let mut group = c.benchmark_group(group);
    group.bench_function("load and compile the template", |b| {
        b.iter(|| black_box(Project::load(black_box(&root)).is_ok()))
    });
    let project = Project::load(&root).expect("the corpus loads");
    let many = contexts(&project, 1000);
    let (one, opts) = many[10].clone();
    render::render(&project, "bench", one.clone(), &opts).expect("renders");
    rss_growth(&project, &many);
    group.bench_function("one context", |b| {
        b.iter(|| black_box(render::render(&project, "bench", black_box(one.clone()), &opts).is_ok()))
    });
    // What every render also does first: the context's values against the
    // schema (compiled at the first call, then shared).
    let given = opts.operator.clone().expect("the values");
    group.bench_function("check one context's values", |b| {
        b.iter(|| black_box(bpvm::windsor::validate::case(&project, "bench", 0, black_box(&given)).len()))
    });
    group.bench_function("one context, values checked", |b| {
        b.iter(|| {
            black_box(bpvm::windsor::validate::case(&project, "bench", 0, black_box(&given)).len());
            black_box(render::render(&project, "bench", black_box(one.clone()), &opts).is_ok())
        })
    });
    // What `bpvm render` does in a process: load the template, compile the
    // schema and check the values, render.
    group.bench_function("load, check and render one context", |b| {
        b.iter(|| {
            let project = Project::load(black_box(&root)).expect("the corpus loads");
            black_box(bpvm::windsor::validate::case(&project, "bench", 0, &given).len());
            black_box(render::render(&project, "bench", one.clone(), &opts).is_ok())
        })
    });
    group.sample_size(10);
    group.bench_function("1,000 contexts", |b| {
        b.iter(|| {
            for (ctx, opts) in &many {
                black_box(render::render(&project, "bench", ctx.clone(), opts).is_ok());
            }
        })
    });
    group.finish();
}

/// How much the resident set grows over 1,000 renders after the first
/// (Linux only): memory must stay flat however many renders a process does.
fn rss_growth(project: &Project, many: &[(Value, render::Options)]) {
    let Some(before) = rss_kib() else { return };
    for (ctx, opts) in many {
        black_box(render::render(project, "bench", ctx.clone(), opts).is_ok());
    }
    if let Some(after) = rss_kib() {
        eprintln!(
            "resident set: {before} KiB before {} renders, {after} KiB after ({:+} KiB)",
            many.len(),
            after as i64 - before as i64
        );
    }
}

fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn renders(c: &mut Criterion) {
    template(c, "render", "windsor-core-aae5e79e");
    template(c, "render v0.9", "windsor-core-v0.7.0");
    reads_v07(c);
}

/// Reading the v0.9 template's facets and schema as YAML alone (most of
/// what loading it costs). Skipped without that corpus.
fn reads_v07(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/windsor-core-v0.7.0");
    if !root.is_dir() {
        eprintln!("skipped: {} is not there", root.display());
        return;
    }
    let template = root.join("contexts/_template");
    let mut files = vec![template.join("schema.yaml")];
    let mut facets: Vec<_> = std::fs::read_dir(template.join("facets"))
        .expect("the v0.7.0 facets")
        .map(|e| e.expect("a facet").path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    facets.sort();
    files.extend(facets);
    let texts: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).expect("readable"))
        .collect();
    let mut group = c.benchmark_group("render v0.9");
    group.bench_function("read its facets and schema (Value::from_yaml)", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(Value::from_yaml(black_box(t)).is_ok());
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(3));
    targets = renders
}
criterion_main!(benches);
