//! Diagnostics and test marks in colour on a terminal (forced here with
//! CLICOLOR_FORCE, as a terminal would have them), plain otherwise and
//! whenever NO_COLOR is set; the text is the same either way.

use crate::support;
use std::process::Output;

fn bpvm(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = support::bpvm();
    cmd.args(args)
        .current_dir(support::repo())
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// The text without its escape sequences.
fn plain(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut rest = &*s;
    while let Some(i) = rest.find('\x1b') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('m').map_or(rest.len(), |j| i + j + 1);
        rest = &rest[end..];
    }
    out + rest
}

#[test]
fn a_diagnostic_is_coloured_only_where_asked() {
    let args = ["eval", "provider == "];
    let piped = bpvm(&args, &[]);
    let forced = bpvm(&args, &[("CLICOLOR_FORCE", "1")]);
    let refused = bpvm(&args, &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]);
    let text = String::from_utf8(piped.stderr.clone()).unwrap();
    assert!(text.starts_with("error: 1:13: expected an expression"), "{text}");
    assert!(!text.contains('\x1b'));
    let coloured = String::from_utf8_lossy(&forced.stderr);
    assert!(
        coloured.starts_with("\x1b[1m\x1b[31merror\x1b[0m: 1:13"),
        "{coloured:?}"
    );
    assert!(coloured.contains("\x1b[1m\x1b[31m^\x1b[0m"), "{coloured:?}");
    assert_eq!(plain(&forced.stderr), text);
    assert_eq!(refused.stderr, piped.stderr);
    assert_eq!(forced.status.code(), Some(1));
}

/// An error placed in a file (`file:line:column: error: …`) and a
/// warning have their severity coloured after the place.
#[test]
fn a_severity_after_its_place_is_coloured() {
    let dir = tempfile::tempdir().unwrap();
    support::copy_tree(&support::examples().join("windsor"), dir.path());
    let values = dir.path().join("contexts/local/values.yaml");
    let was = std::fs::read_to_string(&values).unwrap();
    std::fs::write(&values, was.replacen("count: 3", "count: [3", 1)).unwrap();
    let project = dir.path().to_str().unwrap();
    let forced = bpvm(&["render", "--project", project], &[("CLICOLOR_FORCE", "1")]);
    let coloured = String::from_utf8_lossy(&forced.stderr);
    let place = format!("{project}/contexts/local/values.yaml:");
    assert!(coloured.starts_with(&place), "{coloured:?}");
    assert!(
        coloured.contains(": \x1b[1m\x1b[31merror\x1b[0m: invalid YAML"),
        "{coloured:?}"
    );
    let refused = dir.path().join("contexts/local/values.yaml");
    std::fs::write(&refused, was.replacen("dev: true", "dev: \"yes\"", 1)).unwrap();
    let forced = bpvm(&["render", "--project", project], &[("CLICOLOR_FORCE", "1")]);
    let coloured = String::from_utf8_lossy(&forced.stderr);
    assert!(
        coloured.contains(":2:1: \x1b[1m\x1b[33mwarning\x1b[0m: dev: "),
        "{coloured:?}"
    );
}

#[test]
fn test_marks_are_green_on_a_terminal() {
    let args = ["test", "--project", "examples/windsor"];
    let forced = bpvm(&args, &[("CLICOLOR_FORCE", "1")]);
    let stdout = String::from_utf8_lossy(&forced.stdout);
    assert!(stdout.contains("\x1b[32m✓\x1b[0m aws builds network"), "{stdout:?}");
    assert_eq!(
        plain(&forced.stdout),
        String::from_utf8(bpvm(&args, &[]).stdout).unwrap()
    );
}

/// A blueprint whose file name holds an ESC sequence (red text, then a
/// window title), with a syntax error, so the name is in the diagnostic.
fn hostile_blueprint(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("bad\x1b[31mred\x1b]0;owned\x07.yaml");
    std::fs::write(&path, "a: 1\nb: [\n").unwrap();
    path
}

#[test]
fn control_characters_from_file_names_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let path = hostile_blueprint(dir.path());
    let path = path.to_str().unwrap();
    for env in [&[("CLICOLOR_FORCE", "1")][..], &[]] {
        let out = bpvm(&["render", path], env);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let text = plain(&out.stderr);
        // Only the styling's own sequences are left raw.
        assert!(!text.contains(['\x1b', '\x07']), "{stderr:?}");
        assert!(
            text.contains("bad\\u{1b}[31mred\\u{1b}]0;owned\\u{7}.yaml:2:4: "),
            "{stderr:?}"
        );
        assert_eq!(out.status.code(), Some(1));
    }
}

#[test]
fn a_long_path_in_a_message_is_shown_by_its_two_ends() {
    let dir = tempfile::tempdir().unwrap();
    let mut deep = dir.path().to_path_buf();
    for i in 0..40 {
        deep.push(format!("folder-{i:02}-{}", "x".repeat(100)));
    }
    let missing = deep.join("blueprint.yaml");
    let out = bpvm(&["render", missing.to_str().unwrap()], &[]);
    let text = String::from_utf8(out.stderr).unwrap();
    assert!(text.starts_with("error: "), "{text}");
    assert!(text.contains("…"), "{text}");
    assert!(text.contains("/blueprint.yaml: cannot read the blueprint"), "{text}");
    assert!(text.len() < 400, "{} bytes: {text}", text.len());
}
