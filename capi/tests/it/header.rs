//! include/bpvm.h is what cbindgen makes of the sources now: a stale
//! header fails here. `BPVM_UPDATE_HEADER=1` rewrites it instead.

use std::path::Path;

#[test]
fn the_header_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("the header generates");
    let mut made = Vec::new();
    bindings.write(&mut made);
    let made = String::from_utf8(made).expect("UTF-8");
    let path = dir.join("include/bpvm.h");
    if std::env::var_os("BPVM_UPDATE_HEADER").is_some() {
        std::fs::write(&path, &made).expect("write the header");
        return;
    }
    let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        checked_in == made,
        "{} is stale: regenerate it with BPVM_UPDATE_HEADER=1 cargo test -p bpvm-capi --test it header::",
        path.display()
    );
}

/// The header declares exactly the functions hosts depend on.
#[test]
fn the_header_declares_the_abi() {
    let header = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("include/bpvm.h")).unwrap();
    let mut declared: Vec<&str> = header
        .lines()
        .filter(|l| !l.starts_with(' ') && l.contains("bpvm_") && l.contains('('))
        .filter_map(|l| l.split('(').next()?.rsplit([' ', '*']).next())
        .collect();
    declared.sort_unstable();
    let mut expected = vec![
        "bpvm_version",
        "bpvm_compile",
        "bpvm_env_from_json",
        "bpvm_env_from_yaml",
        "bpvm_eval_json",
        "bpvm_eval_bool",
        "bpvm_render_windsor",
        "bpvm_render_bluelink",
        "bpvm_program_free",
        "bpvm_env_free",
        "bpvm_string_free",
    ];
    expected.sort_unstable();
    assert_eq!(declared, expected);
}
