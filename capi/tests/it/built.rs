//! What the tests run besides themselves: the `bpvm` command and this
//! crate's C libraries, built by cargo into this test's target folder.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// `target/<profile>`, once `bpvm` (the CLI) and `libbpvm_capi.{a,so}`
/// are built there (`cargo test` builds the libraries only into `deps/`).
pub fn profile_dir() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let exe = std::env::current_exe().expect("the test's path");
        // target/<profile>/deps/<test> → target/<profile>
        let dir = exe.parent().and_then(Path::parent).expect("the profile folder");
        let mut build = Command::new(env!("CARGO"));
        build.args(["build", "--quiet", "-p", "bpvm-cli", "-p", "bpvm-capi"]);
        if dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build -p bpvm-cli -p bpvm-capi failed");
        dir.to_path_buf()
    })
}

/// What `libbpvm_capi.a` needs linked after it (the Rust standard
/// library's system dependencies), for a C program built against it.
pub const NATIVE_LIBS: &[&str] = &["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"];

/// The `bpvm` command.
pub fn cli() -> PathBuf {
    profile_dir().join("bpvm")
}
