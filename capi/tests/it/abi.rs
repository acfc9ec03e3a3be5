//! The exported functions called through their C signatures from Rust.

use crate::c_strings::{c, take};
use bpvm_capi::*;
use std::ffi::CStr;
use std::ptr;

fn compile(dialect: &str, source: &str, template: bool) -> Result<*mut bpvm_program, String> {
    let mut err = ptr::null_mut();
    // SAFETY: NUL-terminated strings and a writable `err`.
    let p = unsafe { bpvm_compile(c(dialect).as_ptr(), c(source).as_ptr(), i32::from(template), &mut err) };
    if p.is_null() { Err(take(err)) } else { Ok(p) }
}

fn yaml_env(yaml: &str) -> *mut bpvm_env {
    let mut err = ptr::null_mut();
    // SAFETY: a NUL-terminated string and a writable `err`.
    let e = unsafe { bpvm_env_from_yaml(c(yaml).as_ptr(), &mut err) };
    assert!(!e.is_null(), "{}", take(err));
    e
}

fn eval_json(p: *const bpvm_program, e: *const bpvm_env) -> Result<String, String> {
    let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
    // SAFETY: live objects and writable outputs.
    let rc = unsafe { bpvm_eval_json(p, e, &mut out, &mut err) };
    if rc == 0 { Ok(take(out)) } else { Err(take(err)) }
}

fn eval_bool(p: *const bpvm_program, e: *const bpvm_env) -> Result<bool, String> {
    let (mut out, mut err) = (-1, ptr::null_mut());
    // SAFETY: live objects and writable outputs.
    let rc = unsafe { bpvm_eval_bool(p, e, &mut out, &mut err) };
    if rc == 0 { Ok(out == 1) } else { Err(take(err)) }
}

fn free(p: *mut bpvm_program, e: *mut bpvm_env) {
    // SAFETY: each made by the library, freed once.
    unsafe {
        bpvm_program_free(p);
        bpvm_env_free(e);
    }
}

#[test]
fn the_version_is_the_crates() {
    // SAFETY: a static NUL-terminated string.
    let v = unsafe { CStr::from_ptr(bpvm_version()) };
    assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

#[test]
fn a_compile_error_reads_as_the_cli_prints_it() {
    let e = compile("windsor", "a == (1 +", false).unwrap_err();
    assert!(e.starts_with("error: 1:"), "{e}");
    assert!(e.contains("1 | a == (1 +"), "{e}");
    assert!(e.contains('^'), "{e}");
}

#[test]
fn windsor_and_bluelink_evaluate() {
    let e = yaml_env("provider: aws\nvariables: {region: eu-west-1}\n");
    let w = compile("windsor", "provider == 'aws'", false).unwrap();
    assert_eq!(eval_json(w, e), Ok("true".into()));
    assert_eq!(eval_bool(w, e), Ok(true));
    let b = compile("bluelink", "region-${variables.region}", true).unwrap();
    assert_eq!(eval_json(b, e), Ok("\"region-eu-west-1\"".into()));
    assert_eq!(
        eval_bool(b, e),
        Err("error: a condition must give a bool, got string".into())
    );
    free(w, e);
    // SAFETY: made by the library, freed once.
    unsafe { bpvm_program_free(b) };
}

#[test]
fn a_run_time_error_has_its_caret() {
    let e = yaml_env("provider: aws");
    let p = compile("windsor", "int(provider)", false).unwrap();
    let msg = eval_json(p, e).unwrap_err();
    assert_eq!(
        msg,
        "error: 1:1: int() cannot parse \"aws\" as an integer\n  |\n1 | int(provider)\n  | ^^^^^^^^^^^^^\n"
    );
    free(p, e);
}

#[test]
fn null_arguments_are_errors() {
    let mut err = ptr::null_mut();
    // SAFETY: NULL where values are required: reported, not read.
    let rc = unsafe { bpvm_eval_json(ptr::null(), ptr::null(), ptr::null_mut(), &mut err) };
    assert_eq!(rc, 1);
    assert_eq!(take(err), "error: out_json is NULL");
    // SAFETY: as above, and no `err` to write.
    assert!(unsafe { bpvm_env_from_json(ptr::null(), ptr::null_mut()) }.is_null());
}

#[test]
fn one_program_and_env_serve_many_threads() {
    let e = yaml_env("n: 3");
    let p = compile("windsor", "n * n + 1", false).unwrap();
    let (pa, ea) = (p as usize, e as usize);
    let results: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(move || eval_json(pa as *const bpvm_program, ea as *const bpvm_env).unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(results.iter().all(|r| r == "10"), "{results:?}");
    free(p, e);
}

#[test]
fn renders_take_options() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
    let project = c(&format!("{examples}/windsor"));
    let options = c(r#"{"output": "json", "no_schema_defaults": false, "compile_flux": null}"#);
    // SAFETY: NUL-terminated strings and writable outputs.
    let rc = unsafe { bpvm_render_windsor(project.as_ptr(), ptr::null(), options.as_ptr(), &mut out, &mut err) };
    assert_eq!(rc, 0, "{}", if err.is_null() { String::new() } else { take(err) });
    assert!(take(out).starts_with('{'));

    let blueprint = c(&format!("{examples}/bluelink/blueprint.yaml"));
    let options = c(r#"{"var": ["environment=production", "databasePassword=x"], "show_secrets": true, "seed": 1}"#);
    // SAFETY: as above.
    let rc = unsafe { bpvm_render_bluelink(blueprint.as_ptr(), options.as_ptr(), &mut out, &mut err) };
    assert_eq!(rc, 0, "{}", if err.is_null() { String::new() } else { take(err) });
    assert!(take(out).contains("orders-production"));

    let options = c(r#"{"allow_htp": ["example.com"]}"#);
    // SAFETY: as above.
    let rc = unsafe { bpvm_render_bluelink(blueprint.as_ptr(), options.as_ptr(), &mut out, &mut err) };
    assert_eq!(rc, 1);
    assert!(take(err).contains("unknown key \"allow_htp\" (did you mean \"allow_http\"?)"));
}

/// `{a: {a: … inner …}}`, `n` levels.
fn nest(inner: &str, n: usize) -> String {
    format!("{}{inner}{}", "{a: ".repeat(n), "}".repeat(n))
}

/// Renders the Windsor project in `dir` from a thread with a 256 KiB
/// stack, as C and Go hosts often have: the status and the message.
fn render_on_a_small_thread(dir: &std::path::Path) -> (i32, String) {
    let dir = dir.to_str().unwrap().to_string();
    std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(move || {
            let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
            let project = c(&dir);
            // SAFETY: NUL-terminated strings and writable outputs.
            let rc = unsafe { bpvm_render_windsor(project.as_ptr(), ptr::null(), ptr::null(), &mut out, &mut err) };
            if rc == 0 { (rc, take(out)) } else { (rc, take(err)) }
        })
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn a_host_thread_with_a_small_stack_renders_and_refuses_deep_values() {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/windsor");
    let (rc, text) = render_on_a_small_thread(std::path::Path::new(examples));
    assert_eq!(rc, 0, "{text}");
    assert!(text.starts_with("kind: Blueprint"), "{text}");

    // Config blocks nesting each other 55 levels deeper each time.
    let dir = tempfile::tempdir().unwrap();
    let facets = dir.path().join("contexts/_template/facets");
    std::fs::create_dir_all(&facets).unwrap();
    std::fs::create_dir_all(dir.path().join("contexts/local")).unwrap();
    std::fs::write(dir.path().join("windsor.yaml"), "context: local\n").unwrap();
    let mut text = format!(
        "kind: Facet\nmetadata: {{name: base}}\nconfig:\n  - name: b0\n    v: {}\n",
        nest("1", 55)
    );
    for k in 1..30 {
        let inner = format!("'${{b{}.v}}'", k - 1);
        text.push_str(&format!("  - name: b{k}\n    v: {}\n", nest(&inner, 55)));
    }
    text.push_str("terraform: [{path: p, inputs: {x: '${b29.v}'}}]\n");
    std::fs::write(facets.join("base.yaml"), text).unwrap();
    let (rc, err) = render_on_a_small_thread(dir.path());
    assert_eq!(rc, 1);
    assert!(
        err.contains("the value nests more than 64 levels of lists and maps"),
        "{err}"
    );
}

#[test]
fn a_source_over_the_size_limit_is_an_error_not_an_abort() {
    // 34 MB of `1+1+…`: compiled, it would need many times that.
    let source = "1+".repeat(17 << 20) + "1";
    let err = compile("windsor", &source, false).unwrap_err();
    assert_eq!(
        err,
        format!(
            "error: 1:1: the source is {} bytes, over the limit of 33554432 bytes (32768 KiB) for one expression or host string; \
             set BPVM_MAX_SOURCE_KIB to raise it\n  |\n1 | {}\n  | ^\n",
            source.len(),
            "1+".repeat(50)
        )
    );
    let err = compile("bluelink", &format!("${{{source}}}"), true).unwrap_err();
    assert!(err.contains("over the limit of 33554432 bytes"), "{err}");
}

#[test]
fn env_reads_only_what_allow_env_lets_it() {
    let dir = tempfile::tempdir().unwrap();
    let facets = dir.path().join("contexts/_template/facets");
    std::fs::create_dir_all(&facets).unwrap();
    std::fs::create_dir_all(dir.path().join("contexts/local")).unwrap();
    std::fs::write(dir.path().join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(
        facets.join("base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform:\n  - path: p\n    inputs: {home: '${env(\"HOME\") != nil}'}\n",
    )
    .unwrap();
    let project = c(dir.path().to_str().unwrap());
    let render = |options: &str| {
        let (mut out, mut err) = (ptr::null_mut(), ptr::null_mut());
        let options = c(options);
        // SAFETY: NUL-terminated strings and writable outputs.
        let rc = unsafe { bpvm_render_windsor(project.as_ptr(), ptr::null(), options.as_ptr(), &mut out, &mut err) };
        if rc == 0 { Ok(take(out)) } else { Err(take(err)) }
    };
    assert!(render("").unwrap().contains("home: true"));
    assert!(
        render(r#"{"allow_env": ["HOM?", "CI_*"]}"#)
            .unwrap()
            .contains("home: true")
    );
    let refused = render(r#"{"allow_env": []}"#).unwrap_err();
    assert!(
        refused.contains(
            "env(\"HOME\") is refused: the variable is not on an empty allow-list; allow it with --allow-env HOME or in BPVM_ALLOW_ENV"
        ),
        "{refused}"
    );
}
