//! `bpvm batch` isolates its targets (D10) and never writes over what it
//! reads (D12): a target that aborts its worker, runs past its deadline
//! or over its memory limit is that target's failed record, and every
//! other target still renders.

use crate::support::{bpvm, scratch_dir};
use std::path::Path;
use std::time::{Duration, Instant};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A Bluelink blueprint with one queue named `name`.
fn good(name: &str) -> String {
    format!("version: 2023-04-20\nresources:\n  q:\n    type: aws/sqs/queue\n    spec: {{name: {name}}}\n")
}

/// A variable file whose aliases expand to 3.1·10⁶ values (under the
/// 4·10⁶ a document may hold): hundreds of megabytes.
fn alias_bomb() -> String {
    let mut text = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n".to_string();
    for (name, previous) in [("b", "a"), ("c", "b"), ("d", "c"), ("e", "d"), ("f", "e")] {
        let items = vec![format!("*{previous}"); 10].join(", ");
        text.push_str(&format!("{name}: &{name} [{items}]\n"));
    }
    text.push_str("g: [*f, *f]\n");
    text
}

/// A Windsor project whose contexts `a` and `b` fold Jsonnet over a range
/// of 3·10⁸: minutes of work that only the deadline stops.
fn slow_project(root: &Path) {
    write(root, "slow/windsor.yaml", "version: v1alpha1\n");
    write(root, "slow/contexts/a/values.yaml", "provider: aws\n");
    write(root, "slow/contexts/b/values.yaml", "provider: aws\n");
    write(
        root,
        "slow/contexts/_template/facets/base.yaml",
        "kind: Facet\nmetadata: {name: base}\nterraform: [{path: p, inputs: {x: '${jsonnet(\"../configs/main.jsonnet\")}'}}]\n",
    );
    write(
        root,
        "slow/contexts/_template/configs/main.jsonnet",
        "std.foldl(function(a, b) a + b, std.range(0, 300000000), 0)\n",
    );
}

/// A process whose command line holds `word` and whose parent is a child
/// of `grandparent` (another test's processes are never taken), and that
/// parent.
fn process_with(word: &str, grandparent: u32) -> Option<(u32, u32)> {
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if !String::from_utf8_lossy(&cmdline).contains(word) {
            continue;
        }
        if let Some(parent) = parent_of(pid)
            && parent_of(parent) == Some(grandparent)
        {
            return Some((pid, parent));
        }
    }
    None
}

/// The parent of process `pid`, while it runs.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (name) state ppid …`: the name may hold spaces.
    let (_, after) = stat.rsplit_once(')')?;
    after.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn a_target_that_aborts_hangs_or_exhausts_memory_fails_alone() {
    let root = scratch_dir("batch-isolation");
    let src = root.join("src");
    write(&src, "a-good.yaml", &good("first"));
    write(&src, "c-memory.yaml", &good("memory"));
    write(&src, "c-memory.vars.yaml", &alias_bomb());
    write(&src, "z-good.yaml", &good("last"));
    slow_project(&src);
    let start = Instant::now();
    // One worker: it renders `slow/a` when Jsonnet starts under it.
    let batch = bpvm()
        .args(["batch", "src", "--out", "out", "--report", "report.json", "--jobs", "1"])
        .args(["--timeout", "10", "--memory-limit", "128"])
        .current_dir(&root)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // No input makes a worker abort any more (each limit is an error):
    // abort it from outside while it renders `slow/a`, as a crash would.
    let aborted = loop {
        if let Some((_, worker)) = process_with("jsonnet-worker", batch.id()) {
            // SAFETY: a plain kill(2) of a process this test started.
            break unsafe { libc::kill(worker as i32, libc::SIGABRT) } == 0;
        }
        if start.elapsed() > Duration::from_secs(60) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let run = batch.wait_with_output().unwrap();
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(aborted, "no worker was seen rendering slow/a\n{stderr}");
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    // Bounded by the deadline (10 s), not by the slow target's minutes.
    assert!(took < Duration::from_secs(40), "took {took:?}\n{stderr}");
    for (id, name) in [("a-good", "first"), ("z-good", "last")] {
        let text = std::fs::read_to_string(root.join(format!("out/{id}.yaml"))).expect(id);
        assert!(text.contains(name), "{text}");
    }
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    let cause = |id: &str| -> String {
        let records = report["records"].as_array().unwrap();
        let record = records
            .iter()
            .find(|r| r["id"] == id)
            .unwrap_or_else(|| panic!("{id}: {report}"));
        assert_eq!(record["status"], "failed", "{record}");
        record["diagnostics"][0].as_str().unwrap().to_string()
    };
    let abort = cause("slow/a");
    assert!(abort.starts_with("error: aborted by signal SIGABRT"), "{abort}");
    let memory = cause("c-memory");
    assert!(
        memory.starts_with("error: over the memory limit of 128 MiB (set --memory-limit MIB or BPVM_MEMORY_LIMIT_MIB)"),
        "{memory}"
    );
    // The worker that took over stops `slow/b` at the deadline.
    let slow = cause("slow/b");
    assert!(slow.contains("ran past"), "{slow}");
    assert!(slow.contains("10 s") && slow.contains("--timeout"), "{slow}");
    assert!(stderr.contains("2 rendered, 3 failed"), "{stderr}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_out_folder_that_holds_the_templates_is_refused() {
    let root = scratch_dir("batch-out-over-source");
    let source = good("kept");
    write(&root, "app/bp.yaml", &source);
    write(&root, "japp/bp.json", &source);
    for (app, out, format) in [("app", "app", "yaml"), ("japp", "japp", "json"), ("app", ".", "yaml")] {
        let run = bpvm()
            .args(["batch", app, "--out", out, "-o", format])
            .current_dir(&root)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "error: --out {out}: holds the searched folder {app}; the rendered files could overwrite what the batch reads"
            )),
            "{stderr}"
        );
        assert_eq!(std::fs::read_to_string(root.join("app/bp.yaml")).unwrap(), source);
        assert_eq!(std::fs::read_to_string(root.join("japp/bp.json")).unwrap(), source);
    }
    // A folder beside the templates is where output goes.
    let run = bpvm()
        .args(["batch", "app", "--out", "rendered"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn an_out_folder_with_a_file_the_batch_reads_is_refused() {
    // A manifest may list a blueprint anywhere under the searched folder,
    // the output folder too.
    let root = scratch_dir("batch-out-holds-listed");
    let source = good("kept");
    write(&root, "repo/rendered/bp.yaml", &source);
    write(
        &root,
        "repo/bpvm-batch.yaml",
        "targets:\n  - bluelink: rendered/bp.yaml\n",
    );
    let run = bpvm()
        .args(["batch", ".", "--out", "rendered"])
        .current_dir(root.join("repo"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("error: --out rendered: holds ./rendered/bp.yaml, which the batch reads"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(root.join("repo/rendered/bp.yaml")).unwrap(),
        source
    );
    let _ = std::fs::remove_dir_all(&root);
}

/// A blueprint written in the `.bp` language renders in a batch beside a
/// YAML one, with the variable file beside it, and the report names it.
#[test]
fn a_bp_blueprint_renders_beside_a_yaml_one() {
    let root = scratch_dir("batch-bp");
    write(&root, "src/queue.yaml", &good("from-yaml"));
    let bp = "version \"2023-04-20\"\nvariable env: string {}\n\
              resource q: aws/sqs/queue {\n  spec { name = \"from-bp-${variables.env}\" }\n}\n";
    write(&root, "src/topic.bp", bp);
    write(&root, "src/topic.prod.vars.yaml", "env: prod\n");
    let run = bpvm()
        .args(["batch", "src", "--out", "out", "--report", "report.json"])
        .current_dir(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("2 rendered, 0 failed"), "{stderr}");
    let out = |id: &str| std::fs::read_to_string(root.join(format!("out/{id}.yaml"))).expect(id);
    let topic = out("topic@prod");
    assert!(
        topic.contains("  q:\n    type: aws/sqs/queue\n    spec:\n      name: from-bp-prod\n"),
        "{topic}"
    );
    assert!(out("queue").contains("name: from-yaml"), "{}", out("queue"));
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("report.json")).unwrap()).unwrap();
    let ids: Vec<(&str, &str)> = report["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r["status"].as_str().unwrap()))
        .collect();
    assert_eq!(ids, [("queue", "ok"), ("topic@prod", "ok")]);
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_cache_whose_key_cannot_be_read_is_refused_before_anything_is_written() {
    let root = scratch_dir("batch-cache-key");
    write(&root, "app/bp.yaml", &good("orders"));
    std::fs::create_dir_all(root.join("cache/key")).unwrap();
    let run = bpvm()
        .args(["batch", "app", "--out", "out", "--cache", "cache"])
        .current_dir(&root)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "error: --cache cache: cannot open it: cache/key: Is a directory (os error 21)\n"
    );
    assert!(!root.join("out").exists());
}

/// Workers send each target's manifest back only when the run needs it:
/// a JSON report has one per target, from a render or from the cache.
#[test]
fn a_json_report_has_each_targets_manifest_with_or_without_the_cache() {
    let root = scratch_dir("batch-manifests");
    write(&root, "repo/a.yaml", &good("a"));
    write(&root, "repo/b.yaml", &good("b"));
    let report = |args: &[&str]| -> serde_json::Value {
        let out = bpvm()
            .args(["batch", "repo", "--report", "r.json"])
            .args(args)
            .current_dir(&root)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_str(&std::fs::read_to_string(root.join("r.json")).unwrap()).unwrap()
    };
    // Each record's manifest names the blueprint it rendered.
    let files = |r: &serde_json::Value| -> Vec<Vec<String>> {
        let records = r["records"].as_array().unwrap();
        let names = |rec: &serde_json::Value| {
            rec["manifest"]["inputs"]["files"]
                .as_object()
                .map(|f| f.keys().cloned().collect())
        };
        records.iter().map(|rec| names(rec).unwrap_or_default()).collect()
    };
    let plain = report(&[]);
    let cold = report(&["--cache", "cache"]);
    let warm = report(&["--cache", "cache"]);
    assert_eq!(files(&plain), [["a.yaml"], ["b.yaml"]]);
    assert_eq!(files(&cold), files(&plain));
    assert_eq!(files(&warm), files(&plain));
    assert!(
        warm["records"].as_array().unwrap().iter().all(|r| r["cached"] == true),
        "{warm}"
    );
}
