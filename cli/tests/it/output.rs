//! `--out` writes only the regular file it names: a planted symlink, a
//! special file, a missing folder or an interrupted run never makes bpvm
//! overwrite anything else or leave a temporary file behind, and a replaced
//! file keeps its mode.

use crate::support::{self, BPVM};
use std::fs;
use std::io::Write;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Long enough for a debug build to render the large project below.
const DEADLINE: Duration = Duration::from_secs(120);

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("bpvm-output-").tempdir().unwrap()
}

fn windsor_example() -> PathBuf {
    support::examples().join("windsor")
}

/// `program args…` rendering the Windsor example to `out`.
fn render_to(program: &str, out: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.args(["render", "--project"])
        .arg(windsor_example())
        .arg("--out")
        .arg(out);
    cmd
}

/// Waits for `child`, killing it and failing the test if it hangs.
fn finish(mut child: Child) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > DEADLINE {
            let _ = child.kill();
            panic!("bpvm did not finish within {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.wait_with_output().unwrap()
}

fn run(mut cmd: Command) -> Output {
    finish(cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap())
}

/// What `--out` holds when rendering the Windsor example: stdout, after a
/// first line naming its source.
fn expected() -> String {
    let mut cmd = Command::new(BPVM);
    cmd.args(["render", "--project"]).arg(windsor_example());
    let out = run(cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // A file written with --out begins with a line naming its source.
    let source = format!("{} (context local)", windsor_example().display());
    bpvm::batch::rendered_header(&source) + &String::from_utf8(out.stdout).unwrap()
}

/// The names in `dir`, sorted: a leftover temporary file shows up here.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o7777
}

fn refused(out: &Output, path: &Path, what: &str) {
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "error: --out {}: is {what}; bpvm writes only regular files\n",
            path.display()
        )
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn a_symlink_at_the_old_temporary_name_is_not_followed() {
    let dir = scratch();
    let victim = dir.path().join("victim");
    fs::write(&victim, "victim\n").unwrap();
    let out = dir.path().join("out.yaml");
    // Earlier versions wrote through `.out.yaml.<pid>.tmp`. The shell holds
    // the pid bpvm will run under (exec keeps it) until the trap is set.
    let mut cmd = Command::new("sh");
    cmd.args(["-c", r#"read go; exec "$0" "$@""#, BPVM, "render", "--project"])
        .arg(windsor_example())
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let planted = dir.path().join(format!(".out.yaml.{}.tmp", child.id()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    child.stdin.take().unwrap().write_all(b"go\n").unwrap();
    let result = finish(child);

    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    assert_eq!(fs::read_to_string(&victim).unwrap(), "victim\n");
    assert_eq!(fs::read_link(&planted).unwrap(), victim);
    assert!(fs::symlink_metadata(&out).unwrap().file_type().is_file());
    assert_eq!(fs::read_to_string(&out).unwrap(), expected());
    assert_eq!(
        names(dir.path()),
        [planted.file_name().unwrap().to_str().unwrap(), "out.yaml", "victim"]
    );
}

#[test]
fn out_onto_a_symlink_is_refused_and_neither_link_nor_target_changes() {
    let dir = scratch();
    let target = dir.path().join("target.yaml");
    fs::write(&target, "mine\n").unwrap();
    let link = dir.path().join("link.yaml");
    std::os::unix::fs::symlink(&target, &link).unwrap();

    refused(&run(render_to(BPVM, &link)), &link, "a symbolic link");
    assert_eq!(fs::read_link(&link).unwrap(), target);
    assert_eq!(fs::read_to_string(&target).unwrap(), "mine\n");
    assert_eq!(names(dir.path()), ["link.yaml", "target.yaml"]);
}

#[test]
fn out_onto_a_directory_is_refused() {
    let dir = scratch();
    let folder = dir.path().join("out.yaml");
    fs::create_dir(&folder).unwrap();

    refused(&run(render_to(BPVM, &folder)), &folder, "a directory");
    assert!(fs::symlink_metadata(&folder).unwrap().is_dir());
    assert_eq!(names(dir.path()), ["out.yaml"]);
    assert!(names(&folder).is_empty());
}

#[test]
fn out_onto_a_fifo_is_refused_without_opening_it() {
    let dir = scratch();
    let fifo = dir.path().join("out.yaml");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());

    // Opening a FIFO with no reader would block: `finish` fails on a hang.
    refused(&run(render_to(BPVM, &fifo)), &fifo, "a FIFO");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(names(dir.path()), ["out.yaml"]);
}

#[test]
fn out_onto_a_device_is_refused() {
    let null = Path::new("/dev/null");
    refused(&run(render_to(BPVM, null)), null, "a character device");
    assert!(fs::symlink_metadata(null).unwrap().file_type().is_char_device());
}

#[test]
fn a_missing_folder_is_named() {
    let dir = scratch();
    let out = dir.path().join("nope/out.yaml");
    let result = run(render_to(BPVM, &out));
    assert_eq!(result.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&result.stderr),
        format!(
            "error: --out {}: the folder {} does not exist\n",
            out.display(),
            dir.path().join("nope").display()
        )
    );
    assert!(names(dir.path()).is_empty());
}

/// Renders over an existing file of mode `before` and checks the new
/// content has it too, with nothing else left in the folder.
fn replaces_keeping(before: u32) {
    let dir = scratch();
    let out = dir.path().join("out.yaml");
    fs::write(&out, "old\n").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(before)).unwrap();

    let result = run(render_to(BPVM, &out));
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    assert_eq!(fs::read_to_string(&out).unwrap(), expected());
    assert_eq!(mode(&out), before, "mode {:o}", mode(&out));
    assert_eq!(names(dir.path()), ["out.yaml"]);
}

#[test]
fn a_read_only_file_is_replaced_and_stays_read_only() {
    replaces_keeping(0o444);
}

#[test]
fn a_group_readable_file_keeps_its_mode() {
    replaces_keeping(0o640);
}

#[test]
fn a_new_file_gets_the_mode_the_umask_allows() {
    let dir = scratch();
    let out = dir.path().join("out.yaml");
    let mut cmd = Command::new("sh");
    // 002 tells the umask's result (0664) from the usual 0644 and from the
    // 0600 a temporary file is made with.
    cmd.args(["-c", r#"umask 002; exec "$0" "$@""#, BPVM, "render", "--project"])
        .arg(windsor_example())
        .arg("--out")
        .arg(&out);
    let result = run(cmd);
    assert!(result.status.success(), "{}", String::from_utf8_lossy(&result.stderr));
    assert_eq!(mode(&out), 0o664, "mode {:o}", mode(&out));
    assert_eq!(names(dir.path()), ["out.yaml"]);
}

#[test]
fn a_failed_render_leaves_the_file_and_the_folder_as_they_were() {
    let dir = scratch();
    let project = windsor_project(dir.path(), "terraform: [{path: p, inputs: {x: '${1 + }'}}]\n");
    let out = dir.path().join("out.yaml");
    fs::write(&out, "old\n").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o600)).unwrap();

    let mut cmd = Command::new(BPVM);
    cmd.args(["render", "--project"]).arg(&project).arg("--out").arg(&out);
    let result = run(cmd);
    assert_eq!(result.status.code(), Some(1));
    let message = String::from_utf8_lossy(&result.stderr);
    let file = project.join("contexts/_template/facets/only.yaml");
    assert!(
        message.starts_with(&format!("{}:3:42: error: ", file.display())),
        "{message}"
    );
    assert!(
        message.contains("terraform[p].inputs.x: expected an expression"),
        "{message}"
    );
    assert_eq!(fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(mode(&out), 0o600);
    assert_eq!(names(dir.path()), ["out.yaml", "project"]);
}

/// A one-facet Windsor project in `parent/project`; `body` follows the
/// facet's metadata.
fn windsor_project(parent: &Path, body: &str) -> PathBuf {
    let project = parent.join("project");
    let facets = project.join("contexts/_template/facets");
    fs::create_dir_all(&facets).unwrap();
    fs::create_dir_all(project.join("contexts/local")).unwrap();
    fs::write(project.join("windsor.yaml"), "context: local\n").unwrap();
    fs::write(
        facets.join("only.yaml"),
        format!("kind: Facet\nmetadata: {{name: only}}\n{body}"),
    )
    .unwrap();
    project
}

fn signal(name: &str, pid: u32) {
    let sent = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success(), "kill -{name} {pid}");
}

/// Interrupts a large render with `name` while its temporary file exists
/// and checks bpvm removed that file, exited with `code` and left the old
/// output as it was.
fn interrupted_mid_write(name: &str, code: i32) {
    let dir = scratch();
    // Three 20 MB strings: writing and syncing them takes long enough to
    // be caught in the act.
    let big = r#"terraform: [{path: big, inputs: {a: '${repeat("a", 20000000)}', b: '${repeat("b", 20000000)}', c: '${repeat("c", 20000000)}'}}]
"#;
    let project = windsor_project(dir.path(), big);
    let out = dir.path().join("out.yaml");
    let settled = ["out.yaml", "project"];
    for _attempt in 0..5 {
        fs::write(&out, "old\n").unwrap();
        let mut cmd = Command::new(BPVM);
        cmd.args(["render", "--project"])
            .arg(&project)
            .arg("--out")
            .arg(&out)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = cmd.spawn().unwrap();
        let pid = child.id();
        let start = Instant::now();
        // Wait for the temporary file, then freeze bpvm so that the signal
        // is sure to arrive while it is still there.
        let caught = loop {
            if names(dir.path()) != settled {
                signal("STOP", pid);
                if names(dir.path()) != settled {
                    break true;
                }
                signal("CONT", pid);
            }
            if start.elapsed() > DEADLINE || fs::read_to_string(&out).is_ok_and(|t| t != "old\n") {
                break false;
            }
            std::thread::sleep(Duration::from_millis(1));
        };
        if !caught {
            // The rename beat the poll: try again.
            finish(child);
            continue;
        }
        signal(name, pid);
        signal("CONT", pid);
        let result = finish(child);
        assert_eq!(
            result.status.code(),
            Some(code),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
        assert_eq!(names(dir.path()), settled);
        assert_eq!(fs::read_to_string(&out).unwrap(), "old\n");
        return;
    }
    panic!("never caught bpvm while its temporary file existed");
}

#[test]
fn sigterm_mid_write_removes_the_temporary_file() {
    interrupted_mid_write("TERM", 143);
}

#[test]
fn sigint_mid_write_removes_the_temporary_file() {
    interrupted_mid_write("INT", 130);
}
