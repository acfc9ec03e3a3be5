//! `--watch` (render, test, batch): a saved input runs again what it
//! affects, a file nothing read runs nothing, a save burst runs once, bpvm's
//! own output is not a change, Ctrl-C ends with status 130. Each test runs
//! `bpvm` as a child that a guard kills however the test ends, and every
//! wait is bounded.

use crate::support::{BPVM, bpvm, text};
use std::io::Read;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long any one awaited output may take (a debug build on a busy
/// machine): far more than it needs, never forever.
const PATIENCE: Duration = Duration::from_secs(10);

/// A `bpvm --watch` child and what it printed so far; killed when dropped.
struct Watching {
    child: Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Watching {
    /// `bpvm ARGS` in `dir`, without colour.
    fn start(dir: &Path, args: &[&str]) -> Watching {
        let mut child = std::process::Command::new(BPVM)
            .current_dir(dir)
            .args(args)
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = collect(child.stdout.take().unwrap());
        let stderr = collect(child.stderr.take().unwrap());
        Watching { child, stdout, stderr }
    }

    fn stdout(&self) -> String {
        self.stdout.lock().unwrap().clone()
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits until `done` holds of (stdout, stderr); panics with both
    /// after [`PATIENCE`].
    fn until(&self, what: &str, done: impl Fn(&str, &str) -> bool) {
        let start = Instant::now();
        while !done(&self.stdout(), &self.stderr()) {
            assert!(
                start.elapsed() < PATIENCE,
                "waited {PATIENCE:?} for {what}\nstdout:\n{}\nstderr:\n{}",
                self.stdout(),
                self.stderr()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until stderr has `needle` `times` times.
    fn until_stderr(&self, needle: &str, times: usize) {
        self.until(&format!("{times} × {needle:?} on stderr"), |_, e| {
            e.matches(needle).count() >= times
        });
    }

    /// Waits until stdout has `needle` `times` times.
    fn until_stdout(&self, needle: &str, times: usize) {
        self.until(&format!("{times} × {needle:?} on stdout"), |o, _| {
            o.matches(needle).count() >= times
        });
    }
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A reader thread appending what `from` gives to the returned text.
fn collect(mut from: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let into = Arc::clone(&text);
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = from.read(&mut buffer) {
            into.lock().unwrap().push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    });
    text
}

const FACET: &str = "kind: Facet\nmetadata: {name: base}\nwhen: provider == 'aws'\n\
terraform: [{name: vpc, path: vpc, inputs: {cidr: '${cidr}'}}]\n";

/// A Windsor project in a scratch folder: the context `local` (its `cidr`
/// is `cidr`) and a test case that expects 10.1.0.0/16.
fn project(cidr: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    lay_out(dir.path(), cidr);
    dir
}

/// The files of [`project`] in `dir`.
fn lay_out(dir: &Path, cidr: &str) {
    write(dir, "windsor.yaml", "context: local\n");
    write(dir, "contexts/local/values.yaml", &values(cidr));
    write(dir, "contexts/_template/facets/base.yaml", FACET);
    write(
        dir,
        "contexts/_template/tests/base.test.yaml",
        "cases:\n  - name: the cidr is passed on\n    values: {provider: aws, cidr: 10.1.0.0/16}\n\
         \x20   expect:\n      terraform: [{name: vpc, inputs: {cidr: 10.1.0.0/16}}]\n",
    );
}

fn values(cidr: &str) -> String {
    format!("provider: aws\ncidr: {cidr}\n")
}

/// Writes `text` to `rel` under `dir`, making its folders.
fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The lines of `text` that say a run happened again.
fn reruns(text: &str) -> usize {
    text.lines().filter(|l| l.contains(" again")).count()
}

#[test]
fn render_renders_again_when_a_file_it_read_is_saved_and_not_for_others() {
    let dir = project("10.0.0.0/16");
    let w = Watching::start(dir.path(), &["render", "--project", ".", "--watch"]);
    w.until_stderr("(Ctrl-C to stop)", 1);
    assert!(w.stdout().contains("cidr: 10.0.0.0/16"), "{}", w.stdout());
    assert!(w.stderr().starts_with("watching "), "{}", w.stderr());
    // Nothing reads it: one quiet line, no render.
    write(dir.path(), "README.md", "notes\n");
    w.until_stderr("changed: README.md (not read; nothing to do)", 1);
    write(dir.path(), "contexts/local/values.yaml", &values("10.9.0.0/16"));
    w.until_stdout("cidr: 10.9.0.0/16", 1);
    w.until_stderr("(Ctrl-C to stop)", 2);
    let stderr = w.stderr();
    assert!(
        stderr.contains(" changed: contexts/local/values.yaml; rendering again\n"),
        "{stderr}"
    );
    assert_eq!(reruns(&stderr), 1, "{stderr}");
    assert_eq!(w.stdout().matches("kind: Blueprint").count(), 2, "{}", w.stdout());
}

#[test]
fn an_editor_save_burst_renders_once() {
    let dir = project("10.0.0.0/16");
    let w = Watching::start(dir.path(), &["render", "--project", ".", "--watch"]);
    w.until_stderr("(Ctrl-C to stop)", 1);
    // As editors save: a temporary file written, renamed over the file,
    // then the file touched up again, all within milliseconds.
    let file = dir.path().join("contexts/local/values.yaml");
    let temporary = dir.path().join("contexts/local/.values.yaml.swp");
    std::fs::write(&temporary, values("10.7.0.0/16")).unwrap();
    std::fs::rename(&temporary, &file).unwrap();
    std::fs::write(&file, values("10.8.0.0/16")).unwrap();
    w.until_stderr("(Ctrl-C to stop)", 2);
    // Longer than a burst's quiet time: a second run would have begun.
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(reruns(&w.stderr()), 1, "{}", w.stderr());
    let last = w
        .stdout()
        .rsplit("kind: Blueprint")
        .next()
        .unwrap_or_default()
        .to_string();
    assert!(last.contains("cidr: 10.8.0.0/16"), "{last}");
    assert_eq!(w.stdout().matches("kind: Blueprint").count(), 2, "{}", w.stdout());
}

#[test]
fn a_failed_render_is_printed_and_watching_goes_on_until_it_is_mended() {
    let dir = project("10.0.0.0/16");
    std::fs::remove_file(dir.path().join("windsor.yaml")).unwrap();
    let out = dir.path().join("out.yaml");
    let w = Watching::start(
        dir.path(),
        &["render", "--project", ".", "--out", "out.yaml", "--watch"],
    );
    w.until_stderr("(Ctrl-C to stop)", 1);
    assert!(w.stderr().starts_with("error: "), "{}", w.stderr());
    assert!(!out.exists());
    // The project never loaded: a change anywhere in its folder retries.
    write(dir.path(), "windsor.yaml", "context: local\n");
    w.until_stderr("(Ctrl-C to stop)", 2);
    w.until("out.yaml written", |_, _| {
        std::fs::read_to_string(&out).is_ok_and(|t| t.contains("cidr: 10.0.0.0/16"))
    });
    // A mistake in a facet: the error as every command prints it, and
    // the file written before stays.
    write(
        dir.path(),
        "contexts/_template/facets/base.yaml",
        &FACET.replace("${cidr}", "${cidr +}"),
    );
    w.until_stderr("(Ctrl-C to stop)", 3);
    let stderr = w.stderr();
    let error = stderr.lines().rev().find(|l| l.contains("error:")).unwrap();
    assert!(error.contains("contexts/_template/facets/base.yaml:4:"), "{stderr}");
    write(dir.path(), "contexts/_template/facets/base.yaml", FACET);
    write(dir.path(), "contexts/local/values.yaml", &values("10.5.0.0/16"));
    w.until("out.yaml written again", |_, _| {
        std::fs::read_to_string(&out).is_ok_and(|t| t.contains("cidr: 10.5.0.0/16"))
    });
    // Writing out.yaml (in the project's folder) is no change.
    w.until_stderr("(Ctrl-C to stop)", 4);
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(w.stderr().matches("(Ctrl-C to stop)").count(), 4, "{}", w.stderr());
    assert!(!w.stderr().contains("out.yaml"), "{}", w.stderr());
}

#[test]
fn test_runs_the_cases_again_when_a_facet_is_saved() {
    let dir = project("10.0.0.0/16");
    let w = Watching::start(dir.path(), &["test", "--project", ".", "--watch"]);
    w.until_stdout("1 passed, 0 failed", 1);
    w.until_stderr("(Ctrl-C to stop)", 1);
    write(
        dir.path(),
        "contexts/_template/facets/base.yaml",
        &FACET.replace("${cidr}", "x${cidr}"),
    );
    w.until_stdout("0 passed, 1 failed", 1);
    let stderr = w.stderr();
    assert!(
        stderr.contains(" changed: contexts/_template/facets/base.yaml; testing again\n"),
        "{stderr}"
    );
}

#[test]
fn batch_renders_again_only_the_targets_a_change_affects_and_new_ones() {
    // The output folder is in the folder searched, beside the project.
    let dir = tempfile::tempdir().unwrap();
    lay_out(&dir.path().join("infra"), "10.0.0.0/16");
    write(dir.path(), "infra/contexts/prod/values.yaml", &values("10.2.0.0/16"));
    let w = Watching::start(dir.path(), &["batch", ".", "--out", "rendered", "--test", "--watch"]);
    w.until_stderr("(Ctrl-C to stop)", 1);
    let summary = "2 rendered, 0 failed";
    assert!(w.stderr().contains(summary), "{}", w.stderr());
    let rendered =
        |name: &str| std::fs::read_to_string(dir.path().join("rendered/infra").join(name)).unwrap_or_default();
    write(dir.path(), "infra/contexts/prod/values.yaml", &values("10.3.0.0/16"));
    w.until_stderr("(Ctrl-C to stop)", 2);
    let stderr = w.stderr();
    let again = " changed: infra/contexts/prod/values.yaml; rendering 1 target again\n1 rendered, 0 failed";
    assert!(stderr.contains(again), "{stderr}");
    assert!(rendered("prod.yaml").contains("cidr: 10.3.0.0/16"));
    assert!(rendered("local.yaml").contains("cidr: 10.0.0.0/16"));
    // A new context folder: the listed contexts/ changed, and a new target.
    write(dir.path(), "infra/contexts/stage/values.yaml", &values("10.4.0.0/16"));
    w.until_stderr("(Ctrl-C to stop)", 3);
    w.until("stage.yaml rendered", |_, _| {
        rendered("stage.yaml").contains("cidr: 10.4.0.0/16")
    });
    // A test file: the project's cases run again, no target renders.
    let case = std::fs::read_to_string(dir.path().join("infra/contexts/_template/tests/base.test.yaml")).unwrap();
    write(
        dir.path(),
        "infra/contexts/_template/tests/base.test.yaml",
        &case.replace("10.1.0.0/16}}", "10.6.0.0/16}}"),
    );
    w.until_stderr("(Ctrl-C to stop)", 4);
    let stderr = w.stderr();
    assert!(stderr.contains("; testing 1 project again\n"), "{stderr}");
    assert!(stderr.contains("\n0 rendered, 0 failed in "), "{stderr}");
    assert!(stderr.contains("; 1 test cases, 1 failed\n"), "{stderr}");
    // The output written in the searched folder set off nothing.
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(reruns(&w.stderr()), 3, "{}", w.stderr());
    assert!(!w.stderr().contains("rendered/"), "{}", w.stderr());
}

#[test]
fn ctrl_c_stops_watching_with_status_130() {
    let dir = project("10.0.0.0/16");
    let mut w = Watching::start(dir.path(), &["render", "--project", ".", "--watch"]);
    w.until_stderr("(Ctrl-C to stop)", 1);
    let pid = i32::try_from(w.child.id()).unwrap();
    // SAFETY: signalling our own child, which the guard still holds.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = w.child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < PATIENCE, "still running after Ctrl-C");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
}

#[test]
fn watch_with_options_it_cannot_keep_is_refused() {
    let dir = project("10.0.0.0/16");
    for shard in [
        ["--shard", "1/2"],
        ["--shard-index", "0/2"],
        ["--affected-by", "HEAD"],
        ["--changed-files", "changed.txt"],
    ] {
        let out = bpvm()
            .current_dir(dir.path())
            .args(["batch", ".", "--watch"])
            .args(shard)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "error: the argument '--watch' cannot be used with '{}",
                shard[0]
            )),
            "{stderr}"
        );
    }
}

#[test]
fn a_bluelink_render_renders_again_when_its_variable_file_is_saved() {
    // The file --vars names is read by the command line, not the
    // blueprint's root: it is watched all the same.
    let dir = tempfile::tempdir().unwrap();
    let blueprint = "version: 2023-04-20\nvariables:\n  name: {type: string}\n\
        resources:\n  q:\n    type: aws/sqs/queue\n    spec: {name: '${variables.name}'}\n";
    write(dir.path(), "app/q.yaml", blueprint);
    write(dir.path(), "vars/q.yaml", "name: orders\n");
    let args = ["render", "app/q.yaml", "--vars", "vars/q.yaml", "--watch"];
    let w = Watching::start(dir.path(), &args);
    w.until_stdout("name: orders", 1);
    w.until_stderr("(Ctrl-C to stop)", 1);
    write(dir.path(), "vars/q.yaml", "name: billing\n");
    w.until_stdout("name: billing", 1);
    assert!(
        w.stderr().contains(" changed: vars/q.yaml; rendering again\n"),
        "{}",
        w.stderr()
    );
}
