//! The anchor expressions of `benches/anchors.yaml`, evaluated on a reused
//! VM (compiled once) against an environment bound to their paths (as a
//! render binds each context), plus compile time of a short `when` (h =
//! d, under each of the bound groups' rules); then the same with every path looked up by name (`eval-unbound`),
//! and under expr-lang's boolean rules (`Logic::ExprLang`, as Windsor v0.9
//! templates are compiled) in the group `eval-exprlang`.
//!
//! Run: `cargo bench --bench anchors`.

use bpvm::{Compiler, Dialect, Environment, Logic, PathTable, Value, Vm};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

// The allocator `bpvm` itself uses, as in the render and check benches:
// evaluation allocates nothing, and compile times are the binary's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn anchors(c: &mut Criterion) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/benches/anchors.yaml")).unwrap();
    let doc = Value::from_yaml(&text).unwrap();
    let root = doc.as_map().unwrap();
    let envs = root.get("environments").and_then(Value::as_map).unwrap();
    let Some(Value::List(exprs)) = root.get("expressions") else {
        panic!("no expressions")
    };
    for (group, logic, bound) in [
        ("eval", Logic::Windsor, true),
        ("eval-unbound", Logic::Windsor, false),
        ("eval-exprlang", Logic::ExprLang, true),
    ] {
        let compiler = Compiler::new(Dialect::Windsor).logic(logic);
        let mut group = c.benchmark_group(group);
        for e in exprs {
            let e = e.as_map().unwrap();
            let id = e.get("id").and_then(Value::as_str).unwrap();
            let src = e.get("expr").and_then(Value::as_str).unwrap();
            let env_name = e.get("env").and_then(Value::as_str).unwrap_or("blueprint");
            let mut env = Environment::from_value(envs.get(env_name).unwrap().clone()).unwrap();
            let mut prog = compiler.compile(src).unwrap();
            if bound {
                let table = PathTable::new();
                prog.bind(&table);
                env.bind(&table);
            }
            let mut vm = Vm::new();
            let got = bpvm::eval(&mut vm, &prog, &env).unwrap();
            assert_eq!(
                got.to_json(),
                e.get("result").unwrap().to_json(),
                "anchor {id} gives the wrong result"
            );
            group.bench_function(id, |b| {
                b.iter(|| black_box(vm.run(black_box(&prog), black_box(&env)).is_ok()))
            });
            // Compiling under expr-lang's rules runs its type checks too.
            if id == "d" && bound {
                group.bench_function("h (compile d)", |b| {
                    b.iter(|| black_box(compiler.compile(black_box(src)).is_ok()))
                });
            }
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).warm_up_time(std::time::Duration::from_millis(700)).measurement_time(std::time::Duration::from_secs(2));
    targets = anchors
}
criterion_main!(benches);
