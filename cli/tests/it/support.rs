//! What the tests share: the `bpvm` this run built, the repository's
//! folders, and scratch folders to write projects into.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Copies the files under `from` to `to`.
pub use bpvm_harness::copy_tree;

/// The `bpvm` binary Cargo built for this test run.
pub const BPVM: &str = env!("CARGO_BIN_EXE_bpvm");

/// A command running `bpvm`.
pub fn bpvm() -> Command {
    Command::new(BPVM)
}

/// `bpvm ARGS --project .` in the folder `dir`, without colour, run to
/// its end: the files of the project print as written in it.
pub fn run_in_project(dir: &Path, args: &[&str]) -> Output {
    bpvm()
        .current_dir(dir)
        .args(args)
        .args(["--project", "."])
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

/// A command's output as text (lossy: a test shows what it got).
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The repository's root: the README and `examples/` are there, and the
/// examples in the helps run from it.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The shipped `examples/`.
pub fn examples() -> PathBuf {
    repo().join("examples")
}

/// `PATH` with `bpvm`'s folder first, for commands run through bash.
pub fn path_with_bpvm() -> String {
    let bin = Path::new(BPVM).parent().unwrap().to_path_buf();
    format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default())
}

/// A scratch folder holding a copy of the shipped `examples/` (as
/// `examples/` in it), removed when dropped.
pub fn scratch_examples() -> tempfile::TempDir {
    let scratch = tempfile::tempdir().unwrap();
    let copied = Command::new("cp")
        .arg("-R")
        .arg(examples())
        .arg(scratch.path())
        .status()
        .unwrap();
    assert!(copied.success());
    scratch
}

/// An empty scratch folder `bpvm-cli-<name>-<random>` in the temporary
/// folder, removed with everything in it when dropped: a test run leaves
/// nothing behind.
pub fn scratch_dir(name: &str) -> Scratch {
    let prefix = format!("bpvm-cli-{name}-");
    Scratch(tempfile::Builder::new().prefix(&prefix).tempdir().unwrap())
}

/// A scratch folder, used as the [`Path`] it is; removed when dropped.
pub struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.path().as_os_str()
    }
}

/// Adds to the project in `dir` a facet in a form only Windsor v0.9 has
/// (an empty `crds:` list, which renders nothing), so that the project
/// is read by the v0.9 rules.
pub fn v09_form(dir: &Path) {
    std::fs::write(
        dir.join("contexts/_template/facets/v09-form.yaml"),
        "kind: Facet\nmetadata: {name: v09-form}\ncrds: []\n",
    )
    .unwrap();
}

/// A help text's subcommands (the lines of its `Commands:` section),
/// without `help`.
pub fn subcommands(help: &str) -> Vec<String> {
    let Some(listed) = help.split("Commands:\n").nth(1) else {
        return Vec::new();
    };
    listed
        .lines()
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Runs git in `dir` with a fixed identity and none of the machine's
/// configuration; its standard output. Panics when git fails.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=bpvm", "-c", "user.email=bpvm@example.com"])
        .args(["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    text(&out.stdout)
}

/// `dir` made a git repository (unless it is one) with everything in it
/// committed.
pub fn commit_all(dir: &Path) {
    if !dir.join(".git").exists() {
        git(dir, &["init", "-q"]);
    }
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-q", "--allow-empty", "-m", "commit"]);
}
