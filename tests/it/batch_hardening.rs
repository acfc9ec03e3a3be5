//! Batch discovery under hostile trees (D8, D12): ignore files read under
//! the rules every other file is read under, and names that are not UTF-8
//! reported one by one instead of costing a whole project.

use crate::support::files::write;
use bpvm::batch::{Discovery, discover};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

fn blueprint() -> String {
    "version: 2023-04-20\nresources:\n  q: {type: aws/sqs/queue, spec: {name: orders}}\n".to_string()
}

fn ids(found: &Discovery) -> Vec<&str> {
    found.targets.iter().map(|t| t.id.as_str()).collect()
}

/// Discovery of `dir`, on a thread given `seconds` to finish: a discovery
/// that blocks fails the test instead of hanging it.
fn discover_within(dir: &Path, seconds: u64) -> Discovery {
    let (tx, rx) = mpsc::channel();
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(discover(&[&dir]));
    });
    rx.recv_timeout(Duration::from_secs(seconds))
        .expect("discovery did not finish: it waits on something")
}

#[test]
fn a_fifo_named_gitignore_is_reported_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "apps/api.yaml", &blueprint());
    write(root, "api.yaml", &blueprint());
    let fifo = root.join("apps/.gitignore");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let found = discover_within(root, 10);
    assert_eq!(ids(&found), ["api", "apps/api"]);
    let problems: Vec<String> = found.problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 1, "{problems:?}");
    let shown = format!("{}/apps/.gitignore: not read: ", root.display());
    assert!(problems[0].starts_with(&shown), "{problems:?}");
    assert!(
        problems[0].ends_with(
            "a FIFO; only regular files are read; its rules are not applied (make it a regular file or remove it)"
        ),
        "{problems:?}"
    );
}

#[test]
fn a_gitignore_linked_to_a_device_is_reported_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "api.yaml", &blueprint());
    std::os::unix::fs::symlink("/dev/zero", root.join(".gitignore")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join(".ignore")).unwrap();
    let found = discover_within(root, 10);
    assert_eq!(ids(&found), ["api"]);
    let problems: Vec<String> = found.problems.iter().map(ToString::to_string).collect();
    assert_eq!(problems.len(), 2, "{problems:?}");
    for (problem, name) in problems.iter().zip([".ignore", ".gitignore"]) {
        assert!(
            problem.starts_with(&format!("{}/{name}: not read: ", root.display())),
            "{problem}"
        );
        assert!(
            problem.ends_with("; its rules are not applied (make it a regular file or remove it)"),
            "{problem}"
        );
    }
}

#[test]
fn ignore_files_read_by_bpvm_keep_their_meaning() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for rel in [
        "a.yaml",
        "keep.yaml",
        "sub/b.yaml",
        "sub/c.yaml",
        "gen/d.yaml",
        "deep/x/e.yaml",
    ] {
        write(root, rel, &blueprint());
    }
    // `.ignore` comes before `.gitignore`, the nearest folder's rule
    // before its parent's, and `!` brings a file back.
    write(root, ".gitignore", "*.yaml\n!keep.yaml\ngen/\n");
    write(root, ".ignore", "!a.yaml\n");
    write(root, "sub/.gitignore", "!c.yaml\n");
    write(root, "deep/.gitignore", "!*.yaml\n");
    let found = discover(&[root]);
    assert!(found.problems.is_empty(), "{:?}", found.problems);
    assert_eq!(ids(&found), ["a", "deep/x/e", "keep", "sub/c"]);
}

#[test]
fn a_context_folder_not_named_in_utf8_costs_only_itself() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "infra/windsor.yaml", "toolsManager: aqua\n");
    write(
        root,
        "infra/contexts/_template/facets/base.yaml",
        "kind: Facet\nmetadata: {name: base}\n",
    );
    for name in ["dev", "prod"] {
        write(root, &format!("infra/contexts/{name}/values.yaml"), "name: x\n");
    }
    let odd = root.join("infra/contexts").join(OsStr::from_bytes(b"st\xffge"));
    std::fs::create_dir_all(&odd).unwrap();
    let found = discover(&[root]);
    assert_eq!(ids(&found), ["infra/dev", "infra/prod"]);
    let problems: Vec<String> = found.problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [format!(
            "{}/infra: contexts/st\u{FFFD}ge is not named in UTF-8, so it cannot be rendered as a context (rename it); the other contexts render",
            root.display()
        )]
    );
}

#[test]
fn a_blueprint_not_named_in_utf8_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "api.yaml", &blueprint());
    std::fs::write(root.join(OsStr::from_bytes(b"w\xffb.yaml")), blueprint()).unwrap();
    let found = discover(&[root]);
    assert_eq!(ids(&found), ["api"]);
    let problems: Vec<String> = found.problems.iter().map(ToString::to_string).collect();
    assert_eq!(
        problems,
        [format!(
            "{}/w\u{FFFD}b.yaml: is not named in UTF-8, so it cannot be a target (rename it)",
            root.display()
        )]
    );
}
