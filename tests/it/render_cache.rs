//! The render cache (`bpvm batch --cache DIR`) over a generated monorepo:
//! Windsor projects in both formats (one with a facet that reads `env()`
//! and a file read by `jsonnet()`), a Bluelink blueprint with an include
//! and a data file. A cached run writes what a fresh render writes, byte
//! for byte; each kind of change misses exactly the targets that read
//! it; a damaged, truncated or misplaced entry, or one of the old layout,
//! is rendered again; two batches share one cache.
//!
//! Run through the `bpvm` binary, as users run it (its worker processes,
//! and Jsonnet in a worker of its own); the bpvm version, which the
//! binary cannot be told, through the library.

use super::batch::{bpvm, copy_tree, examples, tree};
use crate::support::files::write;
use crate::support::scratch::Scratch;
use bpvm::batch::{Cache, Options, Report, Target, discover, run, take_cached};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

/// The variable the facet `tagged` reads with `env()`.
const TAG: &str = "BPVM_CACHE_TEST_TAG";

const WINDSOR: [&str; 2] = ["platform/local", "platform/prod"];
const LEGACY: [&str; 2] = ["legacy/local", "legacy/staging"];
const ORDERS: &str = "apps/orders/blueprint";

fn monorepo(root: &Path) {
    let platform = root.join("repo/platform");
    copy_tree(&examples().join("windsor"), &platform);
    write(
        &platform,
        "contexts/prod/values.yaml",
        "provider: aws\ncluster: {name: prod, workers: {count: 6}}\n",
    );
    write(
        &platform,
        "contexts/_template/facets/tagged.yaml",
        "kind: Facet\napiVersion: blueprints.windsorcli.dev/v1alpha1\nmetadata:\n  name: tagged\n\
         kustomize:\n  - name: tagging\n    substitutions:\n      tag: ${env(\"BPVM_CACHE_TEST_TAG\") ?? \"none\"}\n",
    );
    // The Jsonnet file imports another: what an import reads is an input.
    let configs = platform.join("contexts/_template/configs");
    let jsonnet = std::fs::read_to_string(configs.join("cluster.jsonnet")).unwrap();
    let jsonnet = jsonnet.replacen("\":6443\"", "\":\" + (import \"port.libsonnet\").port", 1);
    assert!(jsonnet.contains("import"), "{jsonnet}");
    write(&configs, "cluster.jsonnet", &jsonnet);
    write(&configs, "port.libsonnet", "{port: 6443}\n");
    copy_tree(&examples().join("windsor-v0.9"), &root.join("repo/legacy"));
    copy_tree(&examples().join("bluelink"), &root.join("repo/apps/orders"));
}

/// `bpvm batch repo --out OUT --cache cache --report REPORT` in `root`,
/// with `args` added and the tag variable set to `tag`.
fn batch(root: &Path, out: &str, args: &[&str], tag: &str) -> (Report, Output) {
    let report = root.join(format!("{out}.json"));
    let mut cmd = Command::new(bpvm());
    cmd.args(["batch", "repo", "--out", out, "--report"])
        .arg(&report)
        .args(args)
        .env(TAG, tag)
        .current_dir(root);
    let output = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(output.status.success(), "{text}");
    let report = Report::from_json(&std::fs::read_to_string(&report).unwrap()).unwrap();
    (report, output)
}

fn cached(root: &Path, out: &str, args: &[&str], tag: &str) -> Report {
    let mut all = vec!["--cache", "cache"];
    all.extend_from_slice(args);
    batch(root, out, &all, tag).0
}

/// The ids of the targets that were rendered, not taken from the cache.
fn rendered(report: &Report) -> BTreeSet<String> {
    report
        .records
        .iter()
        .filter(|r| !r.cached)
        .map(|r| r.id.clone())
        .collect()
}

fn ids(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Output written from the cache is byte for byte the fresh render's.
fn same_as_fresh(root: &Path, out: &str, args: &[&str], tag: &str) {
    let fresh = format!("{out}-fresh");
    batch(root, &fresh, args, tag);
    assert_eq!(tree(&root.join(out)), tree(&root.join(&fresh)), "{out}");
}

#[test]
fn a_cached_run_writes_what_a_fresh_render_writes() {
    let dir = Scratch::new("cache-same");
    monorepo(&dir.0);
    let cold = cached(&dir.0, "cold", &[], "a");
    assert_eq!(cold.records.len(), 5, "{cold:?}");
    assert!(cold.records.iter().all(|r| !r.cached && r.manifest.is_some()));
    let (warm, output) = batch(&dir.0, "warm", &["--cache", "cache"], "a");
    assert!(warm.records.iter().all(|r| r.cached), "{warm:?}");
    let summary = String::from_utf8_lossy(&output.stderr);
    assert!(summary.contains("5 rendered (5 from cache), 0 failed"), "{summary}");
    for (c, w) in cold.records.iter().zip(&warm.records) {
        assert_eq!(c.manifest, w.manifest);
    }
    same_as_fresh(&dir.0, "warm", &[], "a");
    // The manifest names what was read, relative to the searched folder.
    let local = &warm.records.iter().find(|r| r.id == WINDSOR[0]).unwrap();
    let read = &local.manifest.as_ref().unwrap().inputs;
    for file in [
        "platform/windsor.yaml",
        "platform/contexts/local/values.yaml",
        "platform/contexts/_template/configs/cluster.jsonnet",
        "platform/contexts/_template/configs/port.libsonnet",
        "platform/contexts/_template/facets/tagged.yaml",
    ] {
        assert!(read.files.contains_key(file), "{file}: {read:?}");
    }
    // Its own context folder is looked at; which others there are is not
    // an input (see the `context` step below).
    assert_eq!(read.paths["platform/contexts/local"], "folder", "{read:?}");
    assert!(!read.folders.contains_key("platform/contexts"), "{read:?}");
    assert_eq!(read.env.keys().collect::<Vec<_>>(), [TAG]);
    let hash = read.env[TAG].as_deref().unwrap();
    assert!(hash.len() == 64 && hash != "a", "never the value itself: {hash}");
}

/// Applies `change` and runs the cached batch: exactly `expected` render,
/// and what is written is what a fresh render writes.
fn misses(root: &Path, step: &str, change: impl FnOnce(&Path), args: &[&str], tag: &str, expected: &[&str]) {
    change(root);
    let report = cached(root, step, args, tag);
    assert_eq!(rendered(&report), ids(expected), "{step}");
    same_as_fresh(root, step, args, tag);
}

fn edit(root: &Path, rel: &str, from: &str, to: &str) {
    let path = root.join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{rel}: {from}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn each_change_misses_exactly_the_targets_that_read_it() {
    let dir = Scratch::new("cache-misses");
    let root = dir.0.as_path();
    monorepo(root);
    cached(root, "start", &[], "a");
    let none: &[&str] = &[];
    misses(root, "nothing", |_| {}, &[], "a", none);
    // The body of a facet prod leaves out (`when: dev == true`): a hit
    // for prod, a miss for local, which includes it; its condition: both.
    let facet = "repo/platform/contexts/_template/facets/option-dev.yaml";
    misses(
        root,
        "facet",
        |r| edit(r, facet, "replicas: \"1\"", "replicas: \"2\""),
        &[],
        "a",
        &[WINDSOR[0]],
    );
    misses(
        root,
        "condition",
        |r| edit(r, facet, "when: dev == true", "when: dev == true && true"),
        &[],
        "a",
        &WINDSOR,
    );
    let values = "repo/platform/contexts/prod/values.yaml";
    misses(
        root,
        "values",
        |r| edit(r, values, "count: 6", "count: 7"),
        &[],
        "a",
        &[WINDSOR[1]],
    );
    let jsonnet = "repo/platform/contexts/_template/configs/cluster.jsonnet";
    misses(
        root,
        "jsonnet",
        |r| edit(r, jsonnet, "https://", "http://"),
        &[],
        "a",
        &WINDSOR,
    );
    let import = "repo/platform/contexts/_template/configs/port.libsonnet";
    misses(root, "import", |r| edit(r, import, "6443", "6444"), &[], "a", &WINDSOR);
    misses(root, "env", |_| {}, &[], "b", &WINDSOR);
    let legacy = "repo/legacy/contexts/staging/values.yaml";
    misses(
        root,
        "legacy",
        |r| std::fs::write(r.join(legacy), std::fs::read_to_string(r.join(legacy)).unwrap() + "\n").unwrap(),
        &[],
        "b",
        &[LEGACY[1]],
    );
    let include = "repo/apps/orders/storage.yaml";
    misses(
        root,
        "include",
        |r| {
            std::fs::write(
                r.join(include),
                std::fs::read_to_string(r.join(include)).unwrap() + "\n",
            )
            .unwrap()
        },
        &[],
        "b",
        &[ORDERS],
    );
    let data = "repo/apps/orders/blueprint.datasources.yaml";
    misses(
        root,
        "data",
        |r| std::fs::write(r.join(data), std::fs::read_to_string(r.join(data)).unwrap() + "\n").unwrap(),
        &[],
        "b",
        &[ORDERS],
    );
    let all = [WINDSOR[0], WINDSOR[1], LEGACY[0], LEGACY[1], ORDERS];
    misses(root, "strict", |_| {}, &["--strict"], "b", &all);
    misses(root, "json", |_| {}, &["-o", "json"], "b", &all);
    // A new context folder: a new target; the others depend on their own
    // folders, not on which other contexts there are.
    let context = "repo/platform/contexts/dev/values.yaml";
    misses(
        root,
        "context",
        |r| write(r, context, "provider: aws\n"),
        &["-o", "json"],
        "b",
        &["platform/dev"],
    );
    misses(root, "again", |_| {}, &["-o", "json"], "b", none);
}

/// The entries of the cache in `root`: path and bytes, in name order.
fn entries(root: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(root.join("cache/entries"))
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect();
    all.sort();
    all
}

/// An entry's parts: its first line's words, manifest, notes and text.
fn parts(bytes: &[u8]) -> (Vec<String>, &[u8], &[u8], &[u8]) {
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let head: Vec<String> = std::str::from_utf8(&bytes[..end])
        .unwrap()
        .split(' ')
        .map(str::to_string)
        .collect();
    assert_eq!((head.len(), head[0].as_str()), (5, "bpvm-cache-entry-3"), "{head:?}");
    let body = &bytes[end + 1..];
    let (manifest, rest) = body.split_at(head[3].parse().unwrap());
    let (notes, text) = rest.split_at(head[4].parse().unwrap());
    (head, manifest, notes, text)
}

/// A cached run after `damage`: every target renders again and what is
/// written is what a fresh render writes; the run after it takes every
/// target from the cache (the entries were written over).
fn rendered_again_after(root: &Path, damage: impl FnOnce(&Path)) {
    monorepo(root);
    cached(root, "cold", &[], "a");
    damage(root);
    let again = cached(root, "again", &[], "a");
    assert!(again.records.iter().all(|r| !r.cached), "{again:?}");
    same_as_fresh(root, "again", &[], "a");
    let third = cached(root, "third", &[], "a");
    assert!(third.records.iter().all(|r| r.cached), "{third:?}");
    same_as_fresh(root, "third", &[], "a");
}

#[test]
fn one_file_per_target_holds_its_manifest_and_raw_output() {
    let dir = Scratch::new("cache-layout");
    let root = dir.0.as_path();
    monorepo(root);
    let cold = cached(root, "cold", &[], "a");
    let mut subs: Vec<_> = std::fs::read_dir(root.join("cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    subs.sort();
    assert_eq!(subs, ["entries", "key", "tmp"]);
    let entries = entries(root);
    assert_eq!(entries.len(), cold.records.len());
    for (path, bytes) in &entries {
        let (head, manifest, _, text) = parts(bytes);
        // Named by the target's identity, which the entry repeats.
        assert_eq!(path.file_name().unwrap().to_str().unwrap(), head[2]);
        let manifest: bpvm::batch::Manifest = serde_json::from_slice(manifest).unwrap();
        let record = cold.records.iter().find(|r| r.id == manifest.target).unwrap();
        // The report's manifest is the entry's but for the hashes of the
        // bytes of the facets left out, which the cache alone keeps.
        let mut reported = manifest.clone();
        for entry in reported.inputs.facets_left_out.values_mut() {
            assert!(entry.bytes.take().is_some(), "{}", manifest.target);
        }
        assert_eq!(record.manifest.as_ref(), Some(&reported));
        // The output as rendered, raw: the written file is it after the
        // line that marks it as rendered.
        let written = std::fs::read_to_string(root.join("cold").join(format!("{}.yaml", manifest.target))).unwrap();
        let (mark, render) = written.split_once('\n').unwrap();
        assert!(mark.starts_with("# Rendered by bpvm from "), "{written}");
        assert_eq!(std::str::from_utf8(text).unwrap(), render, "{}", manifest.target);
    }
}

#[test]
fn a_damaged_entry_is_rendered_again_and_written_over() {
    let dir = Scratch::new("cache-damaged");
    rendered_again_after(&dir.0, |root| {
        for (path, mut bytes) in entries(root) {
            let last = bytes.len() - 3;
            bytes[last] ^= 0x20;
            std::fs::write(&path, bytes).unwrap();
        }
    });
}

#[test]
fn a_truncated_entry_is_rendered_again() {
    let dir = Scratch::new("cache-truncated");
    rendered_again_after(&dir.0, |root| {
        let entries = entries(root);
        assert_eq!(entries.len(), 5);
        for (n, (path, bytes)) in entries.iter().enumerate() {
            let (head, manifest, notes, _) = parts(bytes);
            let line = head.join(" ").len() + 1;
            // Empty, in the first line, in the manifest, in the text, the
            // last byte gone.
            let cut = [
                0,
                10,
                line + manifest.len() / 2,
                line + manifest.len() + notes.len() + 1,
                bytes.len() - 1,
            ][n];
            std::fs::write(path, &bytes[..cut]).unwrap();
        }
    });
}

#[test]
fn an_entry_under_another_targets_name_is_not_served() {
    let dir = Scratch::new("cache-foreign");
    let root = dir.0.as_path();
    monorepo(root);
    cached(root, "cold", &[], "a");
    let entries = entries(root);
    let target = |bytes: &[u8]| {
        serde_json::from_slice::<bpvm::batch::Manifest>(parts(bytes).1)
            .unwrap()
            .target
    };
    let local = |bytes: &[u8]| target(bytes) == WINDSOR[0];
    let (_, own) = entries.iter().find(|(_, bytes)| local(bytes)).unwrap();
    for (path, bytes) in &entries {
        if !local(bytes) {
            std::fs::write(path, own).unwrap();
        }
    }
    let again = cached(root, "again", &[], "a");
    let mut others = ids(&[WINDSOR[1], LEGACY[0], LEGACY[1], ORDERS]);
    assert_eq!(rendered(&again), others, "{again:?}");
    same_as_fresh(root, "again", &[], "a");
    let third = cached(root, "third", &[], "a");
    others.clear();
    assert_eq!(rendered(&third), others, "{third:?}");
}

#[test]
fn entries_of_the_old_layout_miss_and_are_removed() {
    let dir = Scratch::new("cache-old-layout");
    let root = dir.0.as_path();
    monorepo(root);
    cached(root, "cold", &[], "a");
    // Layout 1: the manifest in `index/<identity>.json`, the output in
    // `objects/<manifest key>` after a checksum line. Every output here
    // is one no render writes: served, it would show.
    for sub in ["index", "objects"] {
        std::fs::create_dir(root.join("cache").join(sub)).unwrap();
    }
    for (path, bytes) in entries(root) {
        let (head, manifest, _, _) = parts(&bytes);
        let index = root.join("cache/index").join(format!("{}.json", head[2]));
        std::fs::write(index, manifest).unwrap();
        let key = serde_json::from_slice::<serde_json::Value>(manifest).unwrap()["key"]
            .as_str()
            .unwrap()
            .to_string();
        let body = br#"{"text":"stale: layout 1\n","notes":[]}"#;
        let mut object = format!("bpvm-cache-object-1 {}\n", blake3::hash(body).to_hex()).into_bytes();
        object.extend_from_slice(body);
        std::fs::write(root.join("cache/objects").join(key), object).unwrap();
        std::fs::remove_file(path).unwrap();
    }
    let again = cached(root, "again", &[], "a");
    assert!(again.records.iter().all(|r| !r.cached), "{again:?}");
    same_as_fresh(root, "again", &[], "a");
    for sub in ["index", "objects"] {
        assert!(!root.join("cache").join(sub).exists(), "{sub} is removed");
    }
    let third = cached(root, "third", &[], "a");
    assert!(third.records.iter().all(|r| r.cached), "{third:?}");
}

#[test]
fn two_batches_share_one_cache_at_the_same_time() {
    let dir = Scratch::new("cache-shared");
    let root = dir.0.as_path();
    monorepo(root);
    batch(root, "fresh", &[], "a");
    for round in 0..3 {
        if round == 0 {
            let _ = std::fs::remove_dir_all(root.join("cache"));
        }
        let start = |out: &str| {
            Command::new(bpvm())
                .args(["batch", "repo", "--jobs", "2", "--cache", "cache", "--out", out])
                .env(TAG, "a")
                .current_dir(root)
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        };
        let (mut one, mut two) = (start("one"), start("two"));
        assert!(one.wait().unwrap().success() && two.wait().unwrap().success());
        assert_eq!(tree(&root.join("one")), tree(&root.join("fresh")), "round {round}");
        assert_eq!(tree(&root.join("two")), tree(&root.join("fresh")), "round {round}");
    }
    let left: Vec<_> = std::fs::read_dir(root.join("cache/tmp")).unwrap().collect();
    assert!(left.is_empty(), "no temporary file is left behind");
}

#[test]
fn another_bpvm_version_misses() {
    let dir = Scratch::new("cache-version");
    monorepo(&dir.0);
    let targets: Vec<Target> = discover(&[dir.0.join("repo")]).into_result().unwrap();
    let cache = Cache::open(&dir.0.join("cache")).unwrap();
    let options = |version: &str| Options {
        cache: Some(cache.clone()),
        bpvm_version: Some(version.to_string()),
        ..Options::default()
    };
    let cached = |records: &[bpvm::batch::Record]| records.iter().filter(|r| r.cached).count();
    assert_eq!(cached(&run(&targets, &options("1.0.0"), &())), 0);
    assert_eq!(cached(&run(&targets, &options("1.0.0"), &())), targets.len());
    assert_eq!(cached(&run(&targets, &options("1.0.1"), &())), 0);
    let back = run(&targets, &options("1.0.1"), &());
    assert_eq!(cached(&back), targets.len());
    assert!(back.iter().all(|r| r.manifest.as_ref().unwrap().bpvm == "1.0.1"));
}

#[test]
fn eviction_keeps_the_cache_under_its_bound() {
    let dir = Scratch::new("cache-evict");
    let root = dir.0.as_path();
    monorepo(root);
    cached(root, "cold", &["--cache-max-mb", "0"], "a");
    let left = std::fs::read_dir(root.join("cache/entries")).unwrap().count();
    assert_eq!(left, 0, "a bound of 0 MB keeps nothing");
    let again = cached(root, "again", &[], "a");
    assert!(again.records.iter().all(|r| !r.cached));
}

#[test]
fn taking_from_the_cache_leaves_exactly_the_targets_to_render() {
    let dir = Scratch::new("cache-take");
    monorepo(&dir.0);
    let targets: Vec<Target> = discover(&[dir.0.join("repo")]).into_result().unwrap();
    let cache = Cache::open(&dir.0.join("cache")).unwrap();
    let options = |cache: Cache| Options {
        cache: Some(cache),
        ..Options::default()
    };
    let ids = |left: &[Target]| left.iter().map(|t| t.id.clone()).collect::<BTreeSet<_>>();
    let (hits, left) = take_cached(&targets, &options(cache.clone()), &());
    assert!(hits.is_empty(), "an empty cache has nothing: {hits:?}");
    assert_eq!(left, targets, "every target is left, in its order");

    // A cache that only stores renders and stores, but never serves.
    let stored = run(&targets, &options(cache.clone().storing_only()), &());
    assert!(stored.iter().all(|r| !r.cached && r.manifest.is_some()));
    assert!(
        run(&targets, &options(cache.clone().storing_only()), &())
            .iter()
            .all(|r| !r.cached)
    );

    edit(
        &dir.0,
        "repo/platform/contexts/prod/values.yaml",
        "count: 6",
        "count: 7",
    );
    let (hits, left) = take_cached(&targets, &options(cache.clone()), &());
    assert_eq!(
        ids(&left),
        ids(&targets
            .iter()
            .filter(|t| t.id == "platform/prod")
            .cloned()
            .collect::<Vec<_>>())
    );
    assert_eq!(hits.len(), targets.len() - 1);
    assert!(hits.iter().all(|r| r.cached && r.manifest.is_some()));
    let fresh: Vec<_> = run(&targets, &Options::default(), &())
        .into_iter()
        .filter(|r| r.id != "platform/prod")
        .collect();
    let statuses =
        |records: &[bpvm::batch::Record]| records.iter().map(|r| (r.id.clone(), r.status)).collect::<Vec<_>>();
    assert_eq!(statuses(&hits), statuses(&fresh));
}

#[test]
fn a_hit_marks_an_entry_used_once_an_hour_at_most() {
    let dir = Scratch::new("cache-used");
    monorepo(&dir.0);
    let targets: Vec<Target> = discover(&[dir.0.join("repo")]).into_result().unwrap();
    let options = Options {
        cache: Some(Cache::open(&dir.0.join("cache")).unwrap()),
        ..Options::default()
    };
    run(&targets, &options, &());
    let now = std::time::SystemTime::now();
    let ago = |minutes: u64| now - std::time::Duration::from_secs(minutes * 60);
    let entries: Vec<_> = std::fs::read_dir(dir.0.join("cache/entries"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), targets.len());
    let set = |path: &Path, time| std::fs::File::open(path).unwrap().set_modified(time).unwrap();
    let time = |path: &Path| std::fs::metadata(path).unwrap().modified().unwrap();
    let (old, recent) = entries.split_at(entries.len() / 2);
    old.iter().for_each(|p| set(p, ago(61)));
    recent.iter().for_each(|p| set(p, ago(59)));
    assert!(run(&targets, &options, &()).iter().all(|r| r.cached));
    for path in old {
        assert!(
            time(path) >= now,
            "an entry over an hour old is marked used: {}",
            path.display()
        );
    }
    for path in recent {
        assert_eq!(
            time(path),
            ago(59),
            "an entry used within the hour is left: {}",
            path.display()
        );
    }
}
