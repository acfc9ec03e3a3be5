//! The root holds without races and skips nothing silently (D8, D12):
//! files are opened beneath the project's folder by the kernel, so a
//! folder swapped for a symlink while renders run never lets a render read
//! outside; a facet or test file that cannot be read is named, not left
//! out.

use crate::support::scratch::Scratch;
use bpvm::windsor::{Project, render, scope, test as wtest};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const FACETS: &str = "project/contexts/_template/facets";
const FILES: &str = "project/contexts/_template/files";

/// A Windsor project in `s/project` whose facet `base` has `inputs`.
fn project(s: &Scratch, inputs: &str) -> PathBuf {
    s.write("project/windsor.yaml", "version: v1alpha1\n");
    s.write("project/contexts/local/values.yaml", "provider: aws\n");
    s.write(&format!("{FACETS}/base.yaml"), &facet("base", inputs));
    s.0.join("project")
}

fn facet(name: &str, inputs: &str) -> String {
    format!("kind: Facet\nmetadata: {{name: {name}}}\nterraform: [{{path: {name}, inputs: {inputs}}}]\n")
}

/// Context `local` of `project` rendered: its blueprint as JSON, or the error.
fn render_of(project: &Project) -> Result<String, String> {
    let ctx = scope::context(project, "local", scope::Values::Files, true).map_err(|e| e.to_string())?;
    let out = render::render(project, "local", ctx, &render::Options::default()).map_err(|e| e.to_string())?;
    Ok(out.blueprint.to_json())
}

fn load_error(dir: &Path) -> String {
    match Project::load(dir) {
        Ok(_) => panic!("loaded, but an error was expected"),
        Err(e) => described(dir, &e),
    }
}

/// `errors` as another message holds them (without a severity), each
/// file relative to the project `dir` (messages name it as given).
fn described(dir: &Path, errors: &bpvm::windsor::Errors) -> String {
    let lines: Vec<String> = errors.0.iter().map(bpvm::windsor::Error::described).collect();
    lines.join("\n").replace(&format!("{}/", dir.display()), "")
}

/// Swaps `a` and `b` (a folder and a symlink) until `stop` is set.
fn swap_until(a: PathBuf, b: PathBuf, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut swaps = 0;
        while !stop.load(Ordering::Relaxed) {
            let cwd = rustix::fs::CWD;
            rustix::fs::renameat_with(cwd, &a, cwd, &b, rustix::fs::RenameFlags::EXCHANGE).unwrap();
            swaps += 1;
        }
        swaps
    })
}

#[test]
fn a_folder_swapped_for_a_link_out_while_renders_run_never_lets_one_read_outside() {
    let s = Scratch::new("root-race");
    // Beside facets/, not in it: a link out among the facets fails the load.
    let dir = project(&s, "{x: '${file(\"../files/data/value.txt\")}'}");
    s.write(&format!("{FILES}/data/value.txt"), "INSIDE");
    s.write("outside/value.txt", "OUTSIDE");
    s.link(&format!("{FILES}/swap"), &s.0.join("outside"));
    let project = Project::load(&dir).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let swapper = swap_until(s.0.join(FILES).join("data"), s.0.join(FILES).join("swap"), stop.clone());
    let (mut inside, mut refused, mut leaked) = (0, 0, 0);
    for _ in 0..1000 {
        match render_of(&project) {
            Ok(json) if json.contains("OUTSIDE") => leaked += 1,
            Ok(json) => {
                assert!(json.contains("INSIDE"), "{json}");
                inside += 1;
            }
            Err(e) => {
                assert!(!e.contains("OUTSIDE"), "{e}");
                refused += 1;
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let swaps = swapper.join().unwrap();
    eprintln!("1000 renders beside {swaps} swaps: {inside} read inside, {refused} refused, {leaked} read outside");
    assert_eq!(leaked, 0, "{leaked} of 1000 renders read the file outside the project");
    assert!(swaps > 0);
}

/// The message for a path that leads out of the project at `dir`.
fn outside(path: &str, dir: &Path) -> String {
    format!(
        "{path:?} is outside the project {} (files are read only inside it; symlinks are followed while they stay inside)",
        dir.display()
    )
}

#[test]
fn a_link_out_is_refused_alike_whether_its_target_exists_or_not_and_never_says_where_it_leads() {
    let s = Scratch::new("root-oracle");
    s.write("secret.txt", "SECRET");
    s.link(&format!("{FILES}/there"), &s.0.join("secret.txt"));
    s.link(&format!("{FILES}/nowhere"), &s.0.join("no-such-file.txt"));
    s.link(&format!("{FILES}/cwd"), Path::new("/proc/self/cwd"));
    let mut errors = String::new();
    for path in ["../files/there", "../files/nowhere", "../files/cwd/x"] {
        let dir = project(&s, &format!("{{a: '${{yaml(\"{path}\")}}'}}"));
        let e = render_of(&Project::load(&dir).unwrap()).unwrap_err();
        assert!(
            e.contains(&format!("yaml() path {}", outside(path, &dir))),
            "{path}: {e}"
        );
        errors += &e;
    }
    let cwd = std::env::current_dir().unwrap();
    for leak in ["secret.txt", "no-such-file", "SECRET", &cwd.display().to_string()] {
        assert!(!errors.contains(leak), "{leak}: {errors}");
    }
}

#[test]
fn a_facet_whose_name_is_not_utf8_is_named_not_skipped() {
    use std::os::unix::ffi::OsStrExt;
    let s = Scratch::new("root-nonutf8");
    let dir = project(&s, "{x: 1}");
    let name = std::ffi::OsStr::from_bytes(b"bad\xff.yaml");
    std::fs::write(s.0.join(FACETS).join(name), facet("bad", "{y: 2}")).unwrap();
    assert_eq!(
        load_error(&dir),
        "contexts/_template/facets/bad\u{fffd}.yaml: the name is not UTF-8 text, so it cannot be read as a project file (rename it)"
    );
}

#[test]
fn a_dangling_symlink_among_the_facets_is_named_not_skipped() {
    let s = Scratch::new("root-dangling");
    let dir = project(&s, "{x: 1}");
    s.link(&format!("{FACETS}/gone.yaml"), &s.0.join(FACETS).join("removed.yaml"));
    assert_eq!(
        load_error(&dir),
        "contexts/_template/facets/gone.yaml: a symlink that leads to nothing"
    );
}

#[test]
fn a_symlinked_folder_of_facets_inside_the_project_is_read() {
    let s = Scratch::new("root-linked-folder");
    let dir = project(&s, "{x: 1}");
    s.write("project/shared/facets/extra.yaml", &facet("extra", "{y: 2}"));
    s.link(&format!("{FACETS}/shared"), &s.0.join("project/shared/facets"));
    let project = Project::load(&dir).unwrap();
    let names: Vec<&str> = project.facets.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["base", "extra"]);
    let json = render_of(&project).unwrap();
    assert!(json.contains("\"y\":2"), "{json}");
}

#[test]
fn a_symlinked_folder_that_leads_out_or_round_is_refused_saying_why() {
    let s = Scratch::new("root-folder-out");
    let dir = project(&s, "{x: 1}");
    s.write("elsewhere/other.yaml", &facet("other", "{y: 2}"));
    s.link(&format!("{FACETS}/out"), &s.0.join("elsewhere"));
    assert_eq!(
        load_error(&dir),
        format!(
            "contexts/_template/facets/out: cannot read: {}",
            outside("contexts/_template/facets/out", &dir)
        )
    );
    std::fs::remove_file(s.0.join(FACETS).join("out")).unwrap();
    s.link(&format!("{FACETS}/round"), &s.0.join(FACETS));
    assert_eq!(
        load_error(&dir),
        "contexts/_template/facets/round: a symlink cycle: this folder is inside itself (remove the link that leads back)"
    );
}

#[test]
fn a_test_file_that_cannot_be_read_fails_the_suite_by_name() {
    use std::os::unix::ffi::OsStrExt;
    let s = Scratch::new("root-tests");
    let dir = project(&s, "{x: 1}");
    let tests = s.0.join("project/contexts/_template/tests");
    std::fs::create_dir_all(&tests).unwrap();
    let cases = "cases: [{name: fails, context: local, expect: {terraform: [{path: base, inputs: {x: 2}}]}}]\n";
    std::fs::write(tests.join(std::ffi::OsStr::from_bytes(b"bad\xff.test.yaml")), cases).unwrap();
    let project = Project::load(&dir).unwrap();
    let e = described(&dir, &wtest::discover(&project, &[]).unwrap_err());
    assert_eq!(
        e,
        "contexts/_template/tests/bad\u{fffd}.test.yaml: the name is not UTF-8 text, so it cannot be read as a project file (rename it)"
    );
    std::fs::remove_file(tests.join(std::ffi::OsStr::from_bytes(b"bad\xff.test.yaml"))).unwrap();
    std::os::unix::fs::symlink(tests.join("moved.test.yaml"), tests.join("gone.test.yaml")).unwrap();
    let e = described(&dir, &wtest::discover(&project, &[]).unwrap_err());
    assert_eq!(
        e,
        "contexts/_template/tests/gone.test.yaml: a symlink that leads to nothing"
    );
}
