//! Rendering a generated Bluelink blueprint: 50 variables, 100 values and
//! 1,000 resources with 10 substitutions each, compiled once and rendered
//! with two different sets of variables; and the same blueprint written
//! in Bluelink's `.bp` language, loaded beside the YAML and rendered.
//!
//! Measured with the system allocator, as a program linking the library
//! gets by default (the `bpvm` command uses mimalloc, see cli/src/main.rs,
//! and is faster); the targets are stated for the system allocator.
//!
//! Run: `cargo bench --bench blueprint`.

use bpvm::bluelink::{load, render};
use criterion::{Criterion, criterion_group, criterion_main};
use std::fmt::Write;
use std::hint::black_box;

/// The blueprint's text: every substitution kind a real one uses
/// (variables, values, other resources' fields, function calls,
/// interpolation).
fn blueprint() -> String {
    let mut s = String::from("version: 2023-04-20\nvariables:\n");
    for i in 0..50 {
        if i % 5 == 0 {
            writeln!(s, "  v{i}: {{type: integer, default: {i}}}").unwrap();
        } else {
            writeln!(s, "  v{i}: {{type: string, default: value-{i}}}").unwrap();
        }
    }
    s.push_str("values:\n");
    for i in 0..100 {
        let v = (i * 7) % 50;
        if v % 5 == 0 {
            writeln!(s, "  x{i}: {{type: integer, value: \"${{variables.v{v}}}\"}}").unwrap();
        } else {
            writeln!(
                s,
                "  x{i}: {{type: string, value: \"${{to_upper(variables.v{v})}}-{i}\"}}"
            )
            .unwrap();
        }
    }
    s.push_str("resources:\n");
    for i in 0..1000 {
        let (a, b, c) = (i % 50, (i * 3) % 100, (i * 11) % 50);
        let a = if a % 5 == 0 { a + 1 } else { a };
        let c = if c % 5 == 0 { c + 2 } else { c };
        writeln!(s, "  r{i}:").unwrap();
        writeln!(s, "    type: aws/lambda/function").unwrap();
        writeln!(s, "    metadata: {{displayName: \"Function ${{variables.v{a}}} {i}\"}}").unwrap();
        writeln!(s, "    spec:").unwrap();
        writeln!(s, "      name: fn-${{variables.v{a}}}-{i}").unwrap();
        writeln!(s, "      value: ${{values.x{b}}}").unwrap();
        writeln!(s, "      upper: ${{to_upper(variables.v{c})}}").unwrap();
        writeln!(s, "      trimmed: ${{trimprefix(variables.v{a}, \"value-\")}}").unwrap();
        writeln!(
            s,
            "      joined: '${{join(list(variables.v{a}, variables.v{c}), \",\")}}'"
        )
        .unwrap();
        writeln!(s, "      size: ${{len(variables.v{c})}}").unwrap();
        writeln!(s, "      enabled: ${{eq(variables.v{a}, \"value-{a}\")}}").unwrap();
        if i > 0 {
            writeln!(s, "      previous: ${{resources.r{}.spec.name}}", i - 1).unwrap();
        } else {
            writeln!(s, "      previous: none").unwrap();
        }
        writeln!(
            s,
            "      env: {{HOST: \"${{variables.v{c}}}.internal\", PORT: \"${{variables.v{}}}\"}}",
            (i % 10) * 5
        )
        .unwrap();
    }
    s
}

/// [`blueprint`] written in Bluelink's `.bp` language: the same
/// declarations, each expression as an author writes it there (`a == b`,
/// `[a, b]`, a bare `values.x`), lowering to the same substitution text.
fn blueprint_bp() -> String {
    let mut s = String::from("version \"2023-04-20\"\n");
    for i in 0..50 {
        if i % 5 == 0 {
            writeln!(s, "variable v{i}: integer {{ default = {i} }}").unwrap();
        } else {
            writeln!(s, "variable v{i}: string {{ default = \"value-{i}\" }}").unwrap();
        }
    }
    for i in 0..100 {
        let v = (i * 7) % 50;
        if v % 5 == 0 {
            writeln!(s, "value x{i}: integer {{ value = variables.v{v} }}").unwrap();
        } else {
            writeln!(
                s,
                "value x{i}: string {{ value = \"${{to_upper(variables.v{v})}}-{i}\" }}"
            )
            .unwrap();
        }
    }
    for i in 0..1000 {
        let (a, b, c) = (i % 50, (i * 3) % 100, (i * 11) % 50);
        let a = if a % 5 == 0 { a + 1 } else { a };
        let c = if c % 5 == 0 { c + 2 } else { c };
        writeln!(s, "resource r{i}: aws/lambda/function {{").unwrap();
        writeln!(s, "  metadata {{ displayName = \"Function ${{variables.v{a}}} {i}\" }}").unwrap();
        writeln!(s, "  spec {{").unwrap();
        writeln!(s, "    name = \"fn-${{variables.v{a}}}-{i}\"").unwrap();
        writeln!(s, "    value = values.x{b}").unwrap();
        writeln!(s, "    upper = to_upper(variables.v{c})").unwrap();
        writeln!(s, "    trimmed = trimprefix(variables.v{a}, \"value-\")").unwrap();
        writeln!(s, "    joined = join([variables.v{a}, variables.v{c}], \",\")").unwrap();
        writeln!(s, "    size = len(variables.v{c})").unwrap();
        writeln!(s, "    enabled = variables.v{a} == \"value-{a}\"").unwrap();
        if i > 0 {
            writeln!(s, "    previous = resources.r{}.spec.name", i - 1).unwrap();
        } else {
            writeln!(s, "    previous = \"none\"").unwrap();
        }
        writeln!(
            s,
            "    env = {{ HOST = \"${{variables.v{c}}}.internal\", PORT = \"${{variables.v{}}}\" }}",
            (i % 10) * 5
        )
        .unwrap();
        s.push_str("  }\n}\n");
    }
    s
}

/// Loading the blueprint written as YAML and as `.bp`, side by side, and
/// rendering what each gave: the `.bp` load is meant to stay within 1.5×
/// of the YAML one, and the render not to depend on which was read.
fn bench_bp(c: &mut Criterion) {
    let (yaml, bp) = (blueprint(), blueprint_bp());
    let (yaml_path, bp_path) = (std::path::Path::new("/g.yaml"), std::path::Path::new("/g.bp"));
    let from_yaml = load::parse(&yaml, "generated.yaml", yaml_path).expect("the YAML blueprint loads");
    let from_bp = load::parse(&bp, "generated.bp", bp_path).expect("the .bp blueprint loads");
    let options = render::Options::default();
    assert_eq!(
        render::render(&from_yaml, &options).expect("renders").document,
        render::render(&from_bp, &options).expect("renders").document,
        "the .bp blueprint renders as its YAML twin"
    );
    let mut group = c.benchmark_group("blueprint .bp");
    group.bench_function("load 1,000 resources from YAML", |b| {
        b.iter(|| black_box(load::parse(black_box(&yaml), "generated.yaml", yaml_path).is_ok()))
    });
    group.bench_function("load 1,000 resources from .bp", |b| {
        b.iter(|| black_box(load::parse(black_box(&bp), "generated.bp", bp_path).is_ok()))
    });
    group.bench_function("render 1,000 resources loaded from YAML", |b| {
        b.iter(|| black_box(render::render(&from_yaml, &options).is_ok()))
    });
    group.bench_function("render 1,000 resources loaded from .bp", |b| {
        b.iter(|| black_box(render::render(&from_bp, &options).is_ok()))
    });
    group.finish();
}

fn bench(c: &mut Criterion) {
    let text = blueprint();
    let bp =
        load::parse(&text, "generated.yaml", std::path::Path::new("/generated.yaml")).expect("the blueprint loads");
    let first = render::Options::default();
    let second = render::Options {
        variables: (0..50)
            .filter(|i| i % 5 != 0)
            .map(|i| (format!("v{i}"), render::Input::Text(format!("other-{i}"))))
            .collect(),
        ..render::Options::default()
    };
    let a = render::render(&bp, &first).expect("renders");
    let b = render::render(&bp, &second).expect("renders");
    assert_ne!(a.document, b.document);
    let mut group = c.benchmark_group("blueprint");
    group.bench_function("compile 1,000 resources", |b| {
        b.iter(|| black_box(load::parse(black_box(&text), "generated.yaml", std::path::Path::new("/g.yaml")).is_ok()))
    });
    group.bench_function("render 1,000 resources", |b| {
        b.iter(|| black_box(render::render(&bp, &first).is_ok()))
    });
    group.bench_function("render again with other variables", |b| {
        b.iter(|| black_box(render::render(&bp, &second).is_ok()))
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(3));
    targets = bench, bench_bp
}
criterion_main!(benches);
