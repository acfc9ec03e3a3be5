//! Bluelink higher-order functions and `fromjson` over realistic inputs:
//! 100-item arrays and a 1 KB JSON document.
//!
//! Run: `cargo bench --bench functions`.

use bpvm::{Compiler, Dialect, Environment, Value, Vm};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;

fn environment() -> Environment {
    let objects: Vec<String> = (0..100)
        .map(|i| format!("{{\"id\": \"subnet-{i:04}\", \"cidr\": \"10.0.{i}.0/24\"}}"))
        .collect();
    let names: Vec<String> = (0..100)
        .map(|i| {
            if i % 2 == 0 {
                format!("\"subnet-{i:04}\"")
            } else {
                format!("\"other-{i:04}\"")
            }
        })
        .collect();
    // About 1 KB of JSON, with the pointer's target near the end.
    let mut doc = String::from("{");
    for i in 0..24 {
        doc.push_str(&format!("\"key{i:02}\": {{\"name\": \"value-{i:02}\", \"n\": {i}}}, "));
    }
    doc.push_str("\"a\": {\"b\": [\"found\", 2, 3]}}");
    let json = Value::Str(doc.into());
    let text = format!(
        "{{\"values\": {{\"objects\": [{}], \"names\": [{}], \"doc\": {}}}}}",
        objects.join(","),
        names.join(","),
        json.to_json()
    );
    Environment::from_json(&text).unwrap()
}

fn functions(c: &mut Criterion) {
    let env = environment();
    let compiler = Compiler::new(Dialect::Bluelink);
    let mut group = c.benchmark_group("bluelink");
    for (name, src, items) in [
        (
            "map compose getattr (per item)",
            "map(values.objects, compose(to_upper, getattr(\"id\")))",
            100,
        ),
        (
            "filter has_prefix_g (per item)",
            "filter(values.names, has_prefix_g(\"subnet-\"))",
            100,
        ),
        ("fromjson 1 KB", "fromjson(values.doc, \"/a/b/0\")", 1),
    ] {
        let prog = compiler.compile(src).unwrap();
        let mut vm = Vm::new();
        bpvm::eval(&mut vm, &prog, &env).unwrap();
        group.throughput(Throughput::Elements(items));
        group.bench_function(name, |b| b.iter(|| black_box(vm.run(black_box(&prog), &env).is_ok())));
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(2));
    targets = functions
}
criterion_main!(benches);
