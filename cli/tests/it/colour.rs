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
