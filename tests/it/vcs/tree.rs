//! `tree_at`: a revision's folder written out, and what is refused.

use super::repo::Repo;
use bpvm::vcs::{Error, Written, tree_at};
use std::os::unix::fs::symlink;
use std::path::Path;

/// Every file under `dir` (links as `-> target`), sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(dir).unwrap().display().to_string();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_symlink() {
                out.push(format!("{rel} -> {}", std::fs::read_link(&path).unwrap().display()));
            } else if meta.is_dir() {
                folders.push(path);
            } else {
                out.push(format!("{rel}: {}", std::fs::read_to_string(&path).unwrap().trim()));
            }
        }
    }
    out.sort();
    out
}

/// `infra/` with files, a nested folder and a link inside it, committed;
/// then the work tree changed.
fn repo(name: &str) -> Repo {
    let repo = Repo::new(name);
    repo.write("infra/windsor.yaml", "id: infra\n");
    repo.write("infra/contexts/dev/values.yaml", "size: 1\n");
    repo.write("top.yaml", "top: true\n");
    symlink("contexts/dev/values.yaml", repo.dir().join("infra/values.yaml")).unwrap();
    repo.commit("first");
    repo.write("infra/contexts/dev/values.yaml", "size: 2\n");
    repo.write("infra/untracked.yaml", "no\n");
    repo
}

#[test]
fn a_folder_of_a_revision_round_trips() {
    let repo = repo("tree-round-trip");
    let into = repo.dir().join("../tree-round-trip-out");
    let _ = std::fs::remove_dir_all(&into);
    let written = tree_at(repo.dir(), "HEAD", "infra", &into).unwrap();
    assert_eq!(
        written,
        Written {
            files: 2,
            links: 1,
            bytes: 18
        }
    );
    assert_eq!(
        listing(&into),
        [
            "contexts/dev/values.yaml: size: 1",
            "values.yaml -> contexts/dev/values.yaml",
            "windsor.yaml: id: infra"
        ]
    );
    assert_eq!(std::fs::read_to_string(into.join("values.yaml")).unwrap(), "size: 1\n");
    std::fs::remove_dir_all(&into).unwrap();
}

#[test]
fn the_whole_repository_into_an_empty_folder() {
    let repo = repo("tree-whole");
    let into = crate::support::scratch::Scratch::new("tree-out-whole");
    tree_at(&repo.dir().join("infra"), "HEAD", "", &into.0).unwrap();
    assert_eq!(listing(&into.0).len(), 4);
    assert!(into.0.join("top.yaml").is_file());
    let again = tree_at(repo.dir(), "HEAD", "", &into.0).unwrap_err();
    assert_eq!(
        again.to_string(),
        format!(
            "{}: not empty: a revision is written into a new or empty folder",
            into.0.display()
        )
    );
}

#[test]
fn a_link_out_of_the_folder_is_refused() {
    let repo = repo("tree-link-out");
    symlink("../top.yaml", repo.dir().join("infra/up.yaml")).unwrap();
    symlink("/etc/passwd", repo.dir().join("absolute.yaml")).unwrap();
    repo.commit("links out");
    let into = crate::support::scratch::Scratch::new("tree-out-link");
    let e = tree_at(repo.dir(), "HEAD", "infra", &into.0.join("a")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "infra/up.yaml: a link to \"../top.yaml\", outside infra: not written"
    );
    // From the top, ../top.yaml is inside; /etc/passwd never is.
    let e = tree_at(repo.dir(), "HEAD", "", &into.0.join("b")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "absolute.yaml: a link to \"/etc/passwd\", outside the repository: not written"
    );
    assert!(!into.0.join("b/absolute.yaml").exists());
}

#[test]
fn a_folder_the_revision_lacks() {
    let repo = repo("tree-missing");
    let into = crate::support::scratch::Scratch::new("tree-out-missing");
    let e = tree_at(repo.dir(), "HEAD", "platform", &into.0.join("x")).unwrap_err();
    assert_eq!(e.to_string(), "platform: no such folder in revision \"HEAD\"");
    let e = tree_at(repo.dir(), "HEAD", "top.yaml", &into.0.join("y")).unwrap_err();
    assert!(matches!(e, Error::Refused { .. }), "{e}");
    let e = tree_at(repo.dir(), "nope", "infra", &into.0.join("z")).unwrap_err();
    assert!(matches!(e, Error::UnknownRevision { .. }), "{e}");
}

#[test]
fn the_top_is_found_from_a_folder_in_it() {
    let repo = Repo::new("top");
    repo.write("platform/aws/windsor.yaml", "");
    let top = bpvm::vcs::top(&repo.dir().join("platform/aws")).unwrap();
    assert_eq!(top.canonicalize().unwrap(), repo.dir());
    assert!(top.is_absolute());
    let outside = tempfile::tempdir().unwrap();
    assert!(matches!(
        bpvm::vcs::top(outside.path()),
        Err(Error::NotARepository { .. })
    ));
}
