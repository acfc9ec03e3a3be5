//! Which context `bpvm render` renders without `--context`, in Windsor's
//! order: `.windsor/context`, then `WINDSOR_CONTEXT`, then windsor.yaml's
//! `context:` (the seed format's), then `local`; `--explain` says which.

use crate::support::bpvm;
use std::path::Path;
use std::process::Output;

/// A project with the contexts local, staging and prod, each rendering its
/// own name into `inputs.name`.
fn project(windsor_yaml: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
    std::fs::write(p.join("windsor.yaml"), windsor_yaml).unwrap();
    for name in ["local", "staging", "prod"] {
        std::fs::create_dir_all(p.join("contexts").join(name)).unwrap();
        std::fs::write(p.join("contexts").join(name).join("values.yaml"), "x: 1\n").unwrap();
    }
    std::fs::write(
        p.join("contexts/_template/facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform: [{path: vpc, inputs: {name: '${context}'}}]\n",
    )
    .unwrap();
    dir
}

fn render(dir: &Path, env: Option<&str>, args: &[&str]) -> Output {
    let mut cmd = bpvm();
    // In the project's folder: files print as written in it.
    cmd.current_dir(dir)
        .args(["render", "--explain", "--project", "."])
        .args(args);
    match env {
        Some(v) => cmd.env("WINDSOR_CONTEXT", v),
        None => cmd.env_remove("WINDSOR_CONTEXT"),
    };
    cmd.output().unwrap()
}

/// The context rendered and the `--explain` line that says why.
fn chosen(dir: &Path, env: Option<&str>, args: &[&str]) -> (String, String) {
    let out = render(dir, env, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let name = stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("name: ").filter(|_| l.starts_with("    ")))
        .unwrap_or_else(|| panic!("no input name in\n{stdout}"))
        .to_string();
    (name, stderr.lines().next().unwrap_or("").to_string())
}

#[test]
fn the_default_is_local() {
    let dir = project("version: v1alpha1\n");
    assert_eq!(
        chosen(dir.path(), None, &[]),
        ("local".into(), "context: local (chosen by the default)".into())
    );
}

#[test]
fn windsor_yaml_then_the_environment_then_the_remembered_context() {
    let dir = project("version: v1alpha1\ncontext: staging\n");
    let said = |name: &str, by: &str| (name.to_string(), format!("context: {name} (chosen by {by})"));
    assert_eq!(chosen(dir.path(), None, &[]), said("staging", "windsor.yaml context:"));
    assert_eq!(chosen(dir.path(), Some("prod"), &[]), said("prod", "WINDSOR_CONTEXT"));
    assert_eq!(
        chosen(dir.path(), Some(""), &[]),
        said("staging", "windsor.yaml context:")
    );
    std::fs::create_dir_all(dir.path().join(".windsor")).unwrap();
    // As `windsor set context` writes it: the name, no newline.
    std::fs::write(dir.path().join(".windsor/context"), "local").unwrap();
    assert_eq!(chosen(dir.path(), Some("prod"), &[]), said("local", ".windsor/context"));
    assert_eq!(
        chosen(dir.path(), Some("prod"), &["--context", "staging"]),
        said("staging", "--context")
    );
    // An empty file is no choice.
    std::fs::write(dir.path().join(".windsor/context"), "\n").unwrap();
    assert_eq!(chosen(dir.path(), Some("prod"), &[]), said("prod", "WINDSOR_CONTEXT"));
}

#[test]
fn a_context_that_is_not_there_names_what_chose_it() {
    let dir = project("version: v1alpha1\n");
    let out = render(dir.path(), Some("qa"), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: no context \"qa\": the project has: local, prod, staging (the context was chosen by WINDSOR_CONTEXT)\n"
    );
}

#[cfg(unix)]
#[test]
fn a_remembered_context_outside_the_project_is_refused() {
    let dir = project("version: v1alpha1\n");
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("context"), "prod").unwrap();
    std::os::unix::fs::symlink(outside.path(), dir.path().join(".windsor")).unwrap();
    let out = render(dir.path(), None, &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(".windsor/context: error: ") && err.contains("is outside the"),
        "{err}"
    );
}
