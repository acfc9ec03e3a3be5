//! A git repository in a scratch folder, made with the `git` binary and
//! none of the machine's git configuration.

use crate::support::scratch::Scratch;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A repository removed when dropped; its default branch is `main`.
pub struct Repo(pub Scratch);

impl Repo {
    /// A new repository `bpvm-git-<name>-<pid>`.
    pub fn new(name: &str) -> Repo {
        let repo = Repo(Scratch::new(&format!("git-{name}")));
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    /// The work tree's top.
    pub fn dir(&self) -> &Path {
        &self.0.0
    }

    /// Runs git in the work tree; its standard output.
    pub fn git(&self, args: &[&str]) -> String {
        git_in(self.dir(), args)
    }

    /// Writes `text` at `rel`.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        self.0.write(rel, text)
    }

    /// Everything added and committed as `message`.
    pub fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
    }
}

/// Runs git in `dir` with a fixed identity and no user or system
/// configuration; panics when it fails.
pub fn git_in(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=bpvm", "-c", "user.email=bpvm@example.com"])
        .args(["-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The set as a sorted list, to compare with a literal.
pub fn list(set: std::collections::BTreeSet<String>) -> Vec<String> {
    set.into_iter().collect()
}
