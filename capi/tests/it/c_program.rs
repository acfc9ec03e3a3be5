//! tests/c/test.c, compiled with the system `cc` against include/bpvm.h
//! and the static library, run, and run again under valgrind when it is
//! installed (any leak or memory error fails); also linked with the
//! shared library and run. Its renders are compared with the CLI's.

use crate::built::{self, NATIVE_LIBS, profile_dir};
use std::path::{Path, PathBuf};
use std::process::Command;

fn capi_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn examples_dir() -> PathBuf {
    capi_dir().join("../examples").canonicalize().expect("the examples")
}

/// The C test program, freshly built against the static library.
fn build(work: &Path) -> PathBuf {
    let lib = profile_dir().join("libbpvm_capi.a");
    assert!(lib.is_file(), "{} is missing", lib.display());
    let exe = work.join("bpvm-c-test");
    let mut cc = compiler(&exe);
    cc.arg(&lib).args(NATIVE_LIBS);
    assert!(cc.status().expect("cc runs").success(), "cc failed");
    exe
}

/// `cc` compiling tests/c/test.c to `exe`, before the libraries.
fn compiler(exe: &Path) -> Command {
    let mut cc = Command::new("cc");
    cc.args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-g", "-o"])
        .arg(exe)
        .arg(capi_dir().join("tests/c/test.c"))
        .arg("-I")
        .arg(capi_dir().join("include"));
    cc
}

/// A fresh empty folder under the target folder for this run's files.
fn work_dir(name: &str) -> PathBuf {
    let dir = profile_dir().join("capi-c-test").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the work folder");
    dir
}

fn run(mut cmd: Command, what: &str) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{what} failed:\n{text}\n{errors}");
    assert!(text.contains(", 0 failed"), "{what}:\n{text}\n{errors}");
}

#[test]
fn the_c_program_passes() {
    let work = work_dir("plain");
    let exe = build(&work);
    let mut cmd = Command::new(&exe);
    cmd.arg(examples_dir()).arg(&work);
    run(cmd, "the C test");
    compare_with_cli(&work);
}

#[test]
fn the_c_program_passes_against_the_shared_library() {
    let dir = profile_dir();
    assert!(dir.join("libbpvm_capi.so").is_file(), "libbpvm_capi.so is missing");
    let work = work_dir("shared");
    let exe = work.join("bpvm-c-test");
    let mut cc = compiler(&exe);
    cc.arg("-L")
        .arg(dir)
        .arg("-lbpvm_capi")
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .arg("-lpthread");
    assert!(cc.status().expect("cc runs").success(), "cc failed");
    let mut cmd = Command::new(&exe);
    cmd.arg(examples_dir()).arg(&work);
    run(cmd, "the C test against libbpvm_capi.so");
}

#[test]
fn the_c_program_is_clean_under_valgrind() {
    let valgrind = Path::new("/usr/bin/valgrind");
    if !valgrind.is_file() {
        // CI installs it (.ci/run): there the check must run.
        assert!(std::env::var_os("CI").is_none(), "valgrind is not installed");
        eprintln!("valgrind is not installed: skipped");
        return;
    }
    let work = work_dir("valgrind");
    let exe = build(&work);
    let mut cmd = Command::new(valgrind);
    cmd.args(["--leak-check=full", "--error-exitcode=1", "--quiet"])
        .arg(&exe)
        .arg(examples_dir())
        .arg(&work);
    run(cmd, "the C test under valgrind");
}

/// The C program's renders are byte for byte what `bpvm render` prints.
fn compare_with_cli(work: &Path) {
    let cli = built::cli();
    let examples = examples_dir();
    let at = |p: &str| examples.join(p).to_string_lossy().into_owned();
    let cases = [
        ("windsor.yaml", vec!["render".into(), "--project".into(), at("windsor")]),
        (
            "windsor.json",
            vec![
                "render".into(),
                "--project".into(),
                at("windsor"),
                "--context".into(),
                "local".into(),
                "-o".into(),
                "json".into(),
            ],
        ),
        (
            "bluelink.yaml",
            vec![
                "render".into(),
                at("bluelink/blueprint.yaml"),
                "--vars".into(),
                at("bluelink/blueprint.vars.yaml"),
                "--datasources".into(),
                at("bluelink/blueprint.datasources.yaml"),
                "--seed".into(),
                "7".into(),
            ],
        ),
    ];
    for (file, args) in cases {
        let out = Command::new(&cli).args(&args).output().expect("the CLI runs");
        assert!(
            out.status.success(),
            "bpvm {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let ours = std::fs::read(work.join(file)).expect("the C program's render");
        assert!(ours == out.stdout, "{file} differs from `bpvm {}`", args.join(" "));
    }
}
