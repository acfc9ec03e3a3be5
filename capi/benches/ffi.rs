//! The C ABI next to the Rust library doing the same work, in one run;
//! the difference is what the boundary costs.
//!
//! - `eval_bool`: `bpvm_eval_bool` on the anchor expressions of
//!   `benches/anchors.yaml` (the thread's VM looked up, the panic guard,
//!   pointers checked). Anchors that give a value rather than a bool (e,
//!   f) are measured as `(expr) == result`, as a `when:` uses them.
//! - `render_windsor`: `bpvm_render_windsor` of the Windsor core template
//!   (`../shared/corpus/windsor-core-v0.7.0`) for a context with the
//!   values of `benches/windsor-bench-values.yaml` (the Go package's
//!   benchmark renders the same), next to the library's load, render and
//!   YAML output. Skipped without the corpus.
//!
//! Run: `cargo bench -p bpvm-capi --bench ffi`.

use bpvm::windsor::{Project, output, render};
use bpvm::{Compiler, Dialect, Environment, PathTable, Value, Vm};
use bpvm_capi::{
    bpvm_compile, bpvm_env_free, bpvm_env_from_json, bpvm_eval_bool, bpvm_program_free, bpvm_render_windsor,
    bpvm_string_free,
};
use criterion::{Criterion, criterion_group, criterion_main};
use std::ffi::CString;
use std::hint::black_box;
use std::path::Path;
use std::{fs, ptr};

fn c_string(s: &str) -> CString {
    CString::new(s).expect("no NUL in the anchors")
}

fn eval_bool(c: &mut Criterion) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../benches/anchors.yaml")).unwrap();
    let doc = Value::from_yaml(&text).unwrap();
    let root = doc.as_map().unwrap();
    let envs = root.get("environments").and_then(Value::as_map).unwrap();
    let Some(Value::List(exprs)) = root.get("expressions") else {
        panic!("no expressions")
    };
    let mut group = c.benchmark_group("eval_bool");
    for e in exprs {
        let e = e.as_map().unwrap();
        let id = e.get("id").and_then(Value::as_str).unwrap();
        let src = e.get("expr").and_then(Value::as_str).unwrap();
        let result = e.get("result").unwrap();
        let cond = match result {
            Value::Bool(_) => src.to_string(),
            other => format!("({src}) == {}", other.to_json()),
        };
        let env_value = envs
            .get(e.get("env").and_then(Value::as_str).unwrap_or("blueprint"))
            .unwrap();

        // Rust: compiled and bound as a host would.
        let table = PathTable::new();
        let mut prog = Compiler::new(Dialect::Windsor).compile(&cond).unwrap();
        prog.bind(&table);
        let mut env = Environment::from_value(env_value.clone()).unwrap();
        env.bind(&table);
        let mut vm = Vm::new();
        assert_eq!(
            bpvm::eval(&mut vm, &prog, &env).unwrap(),
            Value::Bool(true),
            "anchor {id}"
        );
        group.bench_function(format!("{id} rust"), |b| {
            b.iter(|| black_box(vm.run(black_box(&prog), black_box(&env)).is_ok()))
        });

        // C: through the exported functions, as a C host calls them.
        let (dialect, source, json) = (c_string("windsor"), c_string(&cond), c_string(&env_value.to_json()));
        let mut err = ptr::null_mut();
        // SAFETY: valid NUL-terminated strings and an out pointer; the
        // handles are freed below.
        let (p, en) = unsafe {
            (
                bpvm_compile(dialect.as_ptr(), source.as_ptr(), 0, &mut err),
                bpvm_env_from_json(json.as_ptr(), &mut err),
            )
        };
        assert!(
            !p.is_null() && !en.is_null() && err.is_null(),
            "anchor {id} through the C ABI"
        );
        let mut out = 0;
        // SAFETY: live handles and out pointers.
        assert_eq!(unsafe { bpvm_eval_bool(p, en, &mut out, &mut err) }, 0);
        assert_eq!(out, 1, "anchor {id} through the C ABI");
        group.bench_function(format!("{id} c-abi"), |b| {
            // SAFETY: as above.
            b.iter(|| unsafe { bpvm_eval_bool(black_box(p), black_box(en), &mut out, &mut err) })
        });
        // SAFETY: each handle freed once, after its last use.
        unsafe {
            bpvm_program_free(p);
            bpvm_env_free(en);
        }
    }
    group.finish();
}

/// Copies the file or folder `from` to `to`.
fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        for entry in fs::read_dir(from).unwrap() {
            let entry = entry.unwrap();
            copy(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(from, to).unwrap();
    }
}

fn render_windsor(c: &mut Criterion) {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let corpus = here.join("../../shared/corpus/windsor-core-v0.7.0");
    if !corpus.is_dir() {
        eprintln!("skipped: {} is not there", corpus.display());
        return;
    }
    // A project reads nothing outside its folder, so the template is copied
    // beside a context of its own.
    let dir = tempfile::tempdir().unwrap();
    copy(&corpus.join("windsor.yaml"), &dir.path().join("windsor.yaml"));
    copy(
        &corpus.join("contexts/_template"),
        &dir.path().join("contexts/_template"),
    );
    copy(
        &here.join("../benches/windsor-bench-values.yaml"),
        &dir.path().join("contexts/bench/values.yaml"),
    );
    let rust = || {
        let project = Project::load(dir.path()).unwrap();
        let rendered = render::render_files(&project, "bench", true, None).unwrap();
        output::to_yaml(&rendered.blueprint)
    };
    let (path, context) = (c_string(dir.path().to_str().unwrap()), c_string("bench"));
    let c_abi = || {
        let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
        // SAFETY: valid strings and out pointers; the output is freed once.
        unsafe {
            assert_eq!(
                bpvm_render_windsor(path.as_ptr(), context.as_ptr(), ptr::null(), &mut out, &mut err),
                0
            );
            let len = std::ffi::CStr::from_ptr(out).to_bytes().len();
            bpvm_string_free(out);
            len
        }
    };
    assert_eq!(rust().len(), c_abi(), "the two give the same blueprint");
    let mut group = c.benchmark_group("render_windsor");
    group.bench_function("rust", |b| b.iter(|| black_box(rust())));
    group.bench_function("c-abi", |b| b.iter(|| black_box(c_abi())));
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(50).warm_up_time(std::time::Duration::from_millis(700)).measurement_time(std::time::Duration::from_secs(2));
    targets = eval_bool, render_windsor
}
criterion_main!(benches);
