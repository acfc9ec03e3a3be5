//! The `bpvm` process as a whole stays under its memory limit: an
//! allocation past it ends the process with one clear line and exit
//! status 3, not an abort.

use super::project;
use crate::support::bpvm;

#[test]
fn bpvm_ends_at_its_memory_limit_with_the_limit_and_how_to_raise_it() {
    let dir = project("memory-limit", "${len(file(\"../big.txt\"))}", &[]);
    super::write(&dir.join("contexts/_template/big.txt"), &"x".repeat(40 << 20));
    let out = bpvm()
        .args(["render", "--project"])
        .arg(&dir)
        .env("BPVM_MEMORY_LIMIT_MIB", "24")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(
        err.starts_with("error: bpvm reached its memory limit of 24 MiB (an allocation of "),
        "{err}"
    );
    assert!(
        err.ends_with(" bytes would pass it; set BPVM_MEMORY_LIMIT_MIB to raise it)\n"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // Under the default limit the same render works.
    let out = bpvm().args(["render", "--project"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_memory_limit_that_is_not_a_number_is_refused() {
    let out = bpvm()
        .arg("--version")
        .env("BPVM_MEMORY_LIMIT_MIB", "lots")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: BPVM_MEMORY_LIMIT_MIB must be a whole number of MiB above 0 (the default is 4096), not \"lots\"\n"
    );
}
