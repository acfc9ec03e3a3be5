//! `changed_files`: what differs between a revision and the work tree,
//! by content.

use super::repo::{Repo, list};
use bpvm::vcs::changed_files;

/// A repository with five files and ignore rules, committed.
fn committed(name: &str) -> Repo {
    let repo = Repo::new(name);
    for f in ["a.yaml", "b.yaml", "c.yaml", "same.yaml", "sub/d.yaml"] {
        repo.write(f, &format!("name: {f}\n"));
    }
    repo.write(".gitignore", "ignored/\n*.log\n");
    repo.commit("first");
    repo
}

#[test]
fn modified_added_deleted_renamed_and_untracked_count_ignored_do_not() {
    let repo = committed("kinds");
    repo.write("a.yaml", "name: changed\n");
    std::fs::remove_file(repo.dir().join("b.yaml")).unwrap();
    repo.git(&["mv", "c.yaml", "renamed.yaml"]);
    repo.write("untracked.yaml", "new: true\n");
    repo.write("sub/new.yaml", "new: true\n");
    repo.write("ignored/x.yaml", "x: 1\n");
    repo.write("debug.log", "noise\n");
    // Written again with the same content: a new time, no change.
    repo.write("same.yaml", "name: same.yaml\n");
    let changed = changed_files(repo.dir(), "HEAD").unwrap();
    assert_eq!(
        list(changed),
        [
            "a.yaml",
            "b.yaml",
            "c.yaml",
            "renamed.yaml",
            "sub/new.yaml",
            "untracked.yaml"
        ]
    );
}

#[test]
fn staged_or_not_the_same_and_a_clean_tree_has_none() {
    let repo = committed("staged");
    assert!(changed_files(repo.dir(), "HEAD").unwrap().is_empty());
    repo.write("sub/d.yaml", "name: staged\n");
    repo.git(&["add", "sub/d.yaml"]);
    assert_eq!(list(changed_files(repo.dir(), "HEAD").unwrap()), ["sub/d.yaml"]);
    repo.commit("second");
    assert!(changed_files(repo.dir(), "HEAD").unwrap().is_empty());
    assert_eq!(list(changed_files(repo.dir(), "HEAD~1").unwrap()), ["sub/d.yaml"]);
}

#[test]
fn a_tracked_file_an_ignore_rule_covers_still_counts() {
    let repo = committed("tracked-ignored");
    repo.write("kept.log", "one\n");
    repo.git(&["add", "-f", "kept.log"]);
    repo.commit("a log kept on purpose");
    repo.write("kept.log", "two\n");
    assert_eq!(list(changed_files(repo.dir(), "HEAD").unwrap()), ["kept.log"]);
}

#[test]
fn paths_are_from_the_top_when_asked_from_a_subfolder() {
    let repo = committed("subfolder");
    repo.write("a.yaml", "name: changed\n");
    repo.write("sub/d.yaml", "name: changed\n");
    let changed = changed_files(&repo.dir().join("sub"), "HEAD").unwrap();
    assert_eq!(list(changed), ["a.yaml", "sub/d.yaml"]);
}

#[test]
fn a_link_is_compared_by_what_it_points_to() {
    let repo = committed("links");
    std::os::unix::fs::symlink("a.yaml", repo.dir().join("link.yaml")).unwrap();
    repo.commit("a link");
    assert!(changed_files(repo.dir(), "HEAD").unwrap().is_empty());
    std::fs::remove_file(repo.dir().join("link.yaml")).unwrap();
    std::os::unix::fs::symlink("b.yaml", repo.dir().join("link.yaml")).unwrap();
    assert_eq!(list(changed_files(repo.dir(), "HEAD").unwrap()), ["link.yaml"]);
}

#[test]
fn a_nested_repository_is_not_looked_into() {
    let repo = committed("nested");
    let inner = repo.dir().join("vendor/inner");
    std::fs::create_dir_all(&inner).unwrap();
    super::repo::git_in(&inner, &["init", "-q"]);
    std::fs::write(inner.join("x.yaml"), "x: 1\n").unwrap();
    assert!(changed_files(repo.dir(), "HEAD").unwrap().is_empty());
}
