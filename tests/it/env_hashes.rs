//! How `bpvm batch` notes the environment variables `env()` reads: by
//! name, with the value hashed under a key (`blake3::keyed_hash`) — the
//! render cache's own, kept in its file `key`, or one made for a run
//! without a cache — so that neither a value nor its plain hash is ever
//! written to a report or a cache, and a guess of a value cannot be
//! checked against a hash without the key.

use super::batch::bpvm;
use super::vcs::repo::Repo;
use crate::support::scratch::Scratch;
use bpvm::batch::{Cache, Report};
use bpvm::runtime::root::inputs::{hash_env, hash_value};
use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The variable the facets read, and the secret it holds.
const TOKEN: &str = "BPVM_ENV_HASH_TEST_TOKEN";
const SECRET: &str = "hunter2";

/// Two Windsor projects (`one`, `two`) of two contexts each, under
/// `root/repo`; each facet reads `TOKEN` but writes no part of it.
fn projects(root: &Path) {
    for project in ["one", "two"] {
        let dir = root.join("repo").join(project);
        let files = [
            ("windsor.yaml", "version: v1alpha1\n"),
            (
                "contexts/_template/facets/token.yaml",
                "kind: Facet\nmetadata:\n  name: token\nterraform:\n  - name: app\n    path: app\n    inputs:\n      \
                 has_token: ${env(\"BPVM_ENV_HASH_TEST_TOKEN\") != nil}\n",
            ),
            ("contexts/dev/values.yaml", "size: 1\n"),
            ("contexts/prod/values.yaml", "size: 2\n"),
        ];
        for (rel, text) in files {
            let path = dir.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
    }
}

/// `bpvm batch repo --jobs 2 --report NAME.json ARGS` in `root` with the
/// variable set to `value`: the report.
fn batch(root: &Path, name: &str, args: &[&str], value: &str) -> Report {
    let report = format!("{name}.json");
    let out = Command::new(bpvm())
        .args(["batch", "repo", "--jobs", "2", "--out", name, "--report", &report])
        .args(args)
        .env(TOKEN, value)
        .current_dir(root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Report::from_json(&std::fs::read_to_string(root.join(&report)).unwrap()).unwrap()
}

/// The hash each target's manifest gives the variable.
fn hashes(report: &Report) -> BTreeSet<String> {
    report
        .records
        .iter()
        .map(|r| {
            let env = &r.manifest.as_ref().unwrap().inputs.env;
            assert_eq!(env.keys().collect::<Vec<_>>(), [TOKEN], "{}", r.id);
            env[TOKEN].clone().unwrap()
        })
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn cached(report: &Report) -> usize {
    report.records.iter().filter(|r| r.cached).count()
}

/// Every file beneath `dir` (or `dir` itself, a file).
fn files(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        out.extend(files(&entry.unwrap().path()));
    }
    out
}

/// Asserts that no file at or beneath `at` holds the secret, its plain
/// BLAKE3 hash (in hex or as bytes), or `more`.
fn holds_none(at: &Path, more: &[&str]) {
    let plain = hash_value(SECRET.as_bytes());
    let plain_hex = hex(&plain);
    let mut words: Vec<&[u8]> = vec![SECRET.as_bytes(), plain_hex.as_bytes(), &plain];
    words.extend(more.iter().map(|m| m.as_bytes()));
    for file in files(at) {
        let bytes = std::fs::read(&file).unwrap();
        for word in &words {
            let found = bytes.windows(word.len()).any(|w| w == *word);
            assert!(!found, "{} holds {:?}", file.display(), String::from_utf8_lossy(word));
        }
    }
}

#[test]
fn neither_a_value_nor_its_plain_hash_reaches_a_report_or_the_cache() {
    let dir = Scratch::new("env-hash-secret");
    let root = dir.0.as_path();
    projects(root);
    let report = batch(root, "cold", &["--cache", "cache"], SECRET);
    assert_eq!((report.records.len(), cached(&report)), (4, 0), "{report:?}");
    // The hash is the cache key's: every target, in either worker, names it.
    let key = Cache::open(&root.join("cache")).unwrap().key();
    let keyed = hex(&hash_env(&key, SECRET.as_bytes()));
    assert_eq!(hashes(&report), BTreeSet::from([keyed]));
    let warm = batch(root, "warm", &["--cache", "cache"], SECRET);
    assert_eq!(cached(&warm), 4, "{warm:?}");
    batch(root, "alone", &[], SECRET);
    for at in ["cache", "cold.json", "warm.json", "alone.json", "cold", "alone"] {
        holds_none(&root.join(at), &[]);
    }
}

#[test]
fn the_cache_key_is_made_once_private_and_kept() {
    let dir = Scratch::new("env-hash-key");
    let root = dir.0.as_path();
    projects(root);
    // Two batches start on a new cache at once: both use one key, so a
    // third finds every entry whichever of them stored it.
    let start = |out: &str| {
        Command::new(bpvm())
            .args(["batch", "repo", "--cache", "cache", "--out", out])
            .env(TOKEN, SECRET)
            .current_dir(root)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap()
    };
    let (mut one, mut two) = (start("one"), start("two"));
    assert!(one.wait().unwrap().success() && two.wait().unwrap().success());
    let key = root.join("cache/key");
    let text = std::fs::read_to_string(&key).unwrap();
    assert!(
        text.len() == 65 && text.ends_with('\n') && text[..64].bytes().all(|b| b.is_ascii_hexdigit()),
        "{text:?}"
    );
    let mode = std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    let third = batch(root, "third", &["--cache", "cache"], SECRET);
    assert_eq!(cached(&third), 4, "{third:?}");
    assert_eq!(std::fs::read_to_string(&key).unwrap(), text, "the key is kept");
    // A changed value misses, and hits from then on.
    let changed = batch(root, "changed", &["--cache", "cache"], "hunter3");
    assert_eq!(cached(&changed), 0, "{changed:?}");
    let again = batch(root, "again", &["--cache", "cache"], "hunter3");
    assert_eq!(cached(&again), 4, "{again:?}");
}

#[test]
fn a_damaged_key_is_replaced_and_its_entries_miss_once() {
    let dir = Scratch::new("env-hash-damaged");
    let root = dir.0.as_path();
    projects(root);
    batch(root, "cold", &["--cache", "cache"], SECRET);
    let key = root.join("cache/key");
    let before = std::fs::read_to_string(&key).unwrap();
    std::fs::write(&key, "not a key\n").unwrap();
    let again = batch(root, "again", &["--cache", "cache"], SECRET);
    assert_eq!(cached(&again), 0, "{again:?}");
    let after = std::fs::read_to_string(&key).unwrap();
    assert!(after.len() == 65 && after != before, "{after:?}");
    let third = batch(root, "third", &["--cache", "cache"], SECRET);
    assert_eq!(cached(&third), 4, "{third:?}");
}

#[test]
fn reports_without_a_cache_hash_under_a_key_of_their_own_run() {
    let dir = Scratch::new("env-hash-run");
    let root = dir.0.as_path();
    projects(root);
    let one = hashes(&batch(root, "one", &[], SECRET));
    let two = hashes(&batch(root, "two", &[], SECRET));
    // One hash for the four targets of a run (two templates, two worker
    // processes), another in the next run.
    assert_eq!((one.len(), two.len()), (1, 1), "{one:?} {two:?}");
    assert_ne!(one, two);
    assert!(!root.join("cache").exists());
}

#[test]
fn affected_targets_use_the_cache_manifests_of_targets_that_read_variables() {
    let repo = Repo::new("env-hash-affected");
    projects(repo.dir());
    repo.commit("start");
    let run = |args: &[&str]| -> Output {
        let out = Command::new(bpvm())
            .args(["batch", "repo", "--cache", "cache"])
            .args(args)
            .env(TOKEN, SECRET)
            .current_dir(repo.dir())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        out
    };
    run(&["--out", "out"]);
    // A file in dev's folder that no render reads: a template loaded alone
    // counts every file there, a current manifest shows it is not read.
    repo.write("repo/one/contexts/dev/notes.txt", "nothing reads this\n");
    let listed = run(&["--affected-by", "HEAD", "--list"]);
    assert_eq!(
        String::from_utf8_lossy(&listed.stdout),
        "",
        "the manifests were current"
    );
    // A value that no longer hashes as stored: no manifest is current.
    let out = Command::new(bpvm())
        .args(["batch", "repo", "--cache", "cache", "--affected-by", "HEAD", "--list"])
        .env(TOKEN, "hunter3")
        .current_dir(repo.dir())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "one/dev\n");
}
