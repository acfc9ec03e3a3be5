//! Revisions read as git reads them, and the messages when one cannot
//! be.

use super::repo::{Repo, git_in, list};
use bpvm::vcs::{Error, changed_files};

/// Three commits on `main` (`one.yaml`, then `two.yaml`, then
/// `three.yaml`), a tag `v1` on the first, a branch `feature` from the
/// second with `feature.yaml`, and `origin/main` at the second.
fn history(name: &str) -> Repo {
    let repo = Repo::new(name);
    repo.write("one.yaml", "1\n");
    repo.commit("one");
    repo.git(&["tag", "v1"]);
    repo.write("two.yaml", "2\n");
    repo.commit("two");
    repo.git(&["update-ref", "refs/remotes/origin/main", "HEAD"]);
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("feature.yaml", "f\n");
    repo.commit("feature");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("three.yaml", "3\n");
    repo.commit("three");
    repo
}

fn changed(repo: &Repo, rev: &str) -> Vec<String> {
    list(changed_files(repo.dir(), rev).unwrap_or_else(|e| panic!("{rev}: {e}")))
}

#[test]
fn the_common_forms() {
    let repo = history("forms");
    let first = repo.git(&["rev-parse", "v1"]).trim().to_string();
    assert!(changed(&repo, "HEAD").is_empty());
    assert_eq!(changed(&repo, "HEAD~1"), ["three.yaml"]);
    assert_eq!(changed(&repo, "HEAD^"), ["three.yaml"]);
    assert_eq!(changed(&repo, "v1"), ["three.yaml", "two.yaml"]);
    assert_eq!(changed(&repo, &first), ["three.yaml", "two.yaml"]);
    assert_eq!(changed(&repo, &first[..7]), ["three.yaml", "two.yaml"]);
    assert_eq!(changed(&repo, "origin/main"), ["three.yaml"]);
    assert_eq!(changed(&repo, "feature"), ["feature.yaml", "three.yaml"]);
    assert!(changed(&repo, "main").is_empty());
}

#[test]
fn a_merge_base_form_is_where_the_branches_parted() {
    let repo = history("merge-base");
    repo.git(&["checkout", "-q", "feature"]);
    // What the branch changed since it left main: not main's later work.
    assert_eq!(changed(&repo, "main...HEAD"), ["feature.yaml"]);
    assert_eq!(changed(&repo, "main...feature"), ["feature.yaml"]);
    assert_eq!(changed(&repo, "main"), ["feature.yaml", "three.yaml"]);
}

#[test]
fn an_unknown_revision_says_the_closest_name() {
    let repo = history("unknown");
    let e = changed_files(repo.dir(), "mian").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown revision \"mian\": no branch, tag or commit of that name (did you mean \"main\"?)"
    );
    let e = changed_files(repo.dir(), "featrue~1").unwrap_err();
    assert_eq!(
        e,
        Error::UnknownRevision {
            rev: "featrue~1".into(),
            suggestion: Some("feature".into())
        }
    );
    let e = changed_files(repo.dir(), "nothing-like-it").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown revision \"nothing-like-it\": no branch, tag or commit of that name"
    );
    let e = changed_files(repo.dir(), "HEAD~10").unwrap_err();
    assert!(matches!(e, Error::UnknownRevision { .. }), "{e}");
}

#[test]
fn a_range_is_not_one_revision() {
    let repo = history("range");
    let e = changed_files(repo.dir(), "main..feature").unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"main..feature\" names a range, not one revision: give one revision, or A...B for the merge base of A and B"
    );
}

#[test]
fn outside_a_repository() {
    let dir = crate::support::scratch::Scratch::new("git-none");
    let e = changed_files(&dir.0, "HEAD").unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: not in a git repository (no .git in it or in a folder above it)",
            dir.0.display()
        )
    );
}

#[test]
fn a_shallow_clone_asks_for_more_history() {
    let repo = history("shallow-source");
    let clone = crate::support::scratch::Scratch::new("git-shallow");
    let source = format!("file://{}", repo.dir().display());
    git_in(&clone.0, &["clone", "-q", "--depth", "1", &source, "work"]);
    let work = clone.0.join("work");
    assert!(changed_files(&work, "HEAD").unwrap().is_empty());
    let e = changed_files(&work, "HEAD~1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "revision \"HEAD~1\" is not in this shallow clone: fetch more history \
         (git fetch --deepen=100 origin, or fetch-depth: 0 with actions/checkout)"
    );
    // A misspelt name is still a misspelt name.
    let e = changed_files(&work, "mian").unwrap_err();
    assert!(
        matches!(
            e,
            Error::UnknownRevision {
                suggestion: Some(_),
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn a_bare_repository_has_no_work_tree() {
    let repo = history("bare-source");
    let bare = crate::support::scratch::Scratch::new("git-bare");
    git_in(
        &bare.0,
        &["clone", "-q", "--bare", &repo.dir().display().to_string(), "b.git"],
    );
    let e = changed_files(&bare.0.join("b.git"), "HEAD").unwrap_err();
    assert!(matches!(e, Error::NoWorkTree { .. }), "{e}");
    assert!(
        e.to_string()
            .ends_with(": a bare repository has no work tree to compare with"),
        "{e}"
    );
}

#[test]
fn one_opened_revision_gives_its_top_changes_and_files() {
    let repo = history("opened-once");
    repo.write("two.yaml", "2, edited\n");
    let opened = bpvm::vcs::Revision::open(repo.dir(), "v1").unwrap();
    assert_eq!(opened.rev(), "v1");
    assert_eq!(opened.top(), repo.dir());
    // The same as each asked for alone.
    assert_eq!(
        opened.changed_files().unwrap(),
        changed_files(repo.dir(), "v1").unwrap()
    );
    assert_eq!(list(opened.changed_files().unwrap()), ["three.yaml", "two.yaml"]);
    let into = repo.dir().with_extension("v1");
    let written = opened.tree_at("", &into).unwrap();
    assert_eq!(written.files, 1);
    assert_eq!(std::fs::read_to_string(into.join("one.yaml")).unwrap(), "1\n");
    assert!(!into.join("two.yaml").exists());
    std::fs::remove_dir_all(&into).unwrap();
    // A folder the revision lacks is refused, naming the revision given.
    let e = opened.tree_at("later", &into).unwrap_err();
    assert_eq!(
        e.to_string(),
        bpvm::vcs::tree_at(repo.dir(), "v1", "later", &into)
            .unwrap_err()
            .to_string()
    );
    assert!(e.to_string().contains("no such folder in revision \"v1\""), "{e}");
    let _ = std::fs::remove_dir_all(&into);
}
