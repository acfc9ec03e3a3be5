//! The command line teaches: bare `bpvm` prints the whole help and
//! succeeds, every command's help has examples, and every example runs —
//! in a scratch folder holding a copy of the shipped `examples/`, in the
//! order the helps give them, each exiting 0. Completion scripts for every
//! shell and the manual pages come from the same definition.

use crate::support::{self, bpvm};
use std::process::Command;

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().expect("bpvm runs");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The commands `bpvm --help` lists (without `help`).
fn commands() -> Vec<String> {
    let commands = support::subcommands(&stdout(bpvm().arg("--help")));
    assert!(!commands.is_empty(), "a command list");
    commands
}

/// The examples of a help text: the lines after "Examples:", a trailing
/// `\` joining a line to the next.
fn examples(help: &str) -> Vec<String> {
    let Some(after) = help.split("\nExamples:\n").nth(1) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let mut joining = false;
    for line in after.lines().take_while(|l| l.starts_with("  ")) {
        let text = line.trim();
        let (text, more) = match text.strip_suffix('\\') {
            Some(t) => (t.trim_end(), true),
            None => (text, false),
        };
        match out.last_mut() {
            Some(last) if joining => {
                last.push(' ');
                last.push_str(text);
            }
            _ => out.push(text.to_string()),
        }
        joining = more;
    }
    out
}

#[test]
fn bare_bpvm_prints_the_whole_help_and_succeeds() {
    let out = bpvm().output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Render infrastructure blueprints"), "{text}");
    assert!(text.contains("Commands:\n  render"), "{text}");
    assert!(
        text.contains("\nExamples:\n  bpvm render --project examples/windsor"),
        "{text}"
    );
}

#[test]
fn every_command_has_examples_and_every_example_runs() {
    let scratch = support::scratch_examples();
    // As in the repository, the examples are committed (`bpvm diff` compares with a revision).
    support::commit_all(scratch.path());
    let path = support::path_with_bpvm();
    let mut helps = vec![stdout(bpvm().arg("--help"))];
    for command in commands() {
        let help = stdout(bpvm().args([command.as_str(), "--help"]));
        assert!(!examples(&help).is_empty(), "`bpvm {command} --help` has no examples");
        helps.push(help);
    }
    helps.push(stdout(bpvm().args(["batch", "merge-reports", "--help"])));
    let mut ran = 0;
    for example in helps.iter().flat_map(|h| examples(h)) {
        assert!(example.contains("bpvm "), "{example}");
        let out = Command::new("bash")
            .args(["-c", &example])
            .current_dir(scratch.path())
            .env("PATH", &path)
            .env("HOME", scratch.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`{example}` failed:\n{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 15, "only {ran} examples");
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = stdout(bpvm().args(["completions", shell]));
        for word in ["render", "batch", "project", "context", "merge-reports"] {
            assert!(script.contains(word), "{shell} completions lack {word}");
        }
    }
    // The bash script is valid bash.
    let script = stdout(bpvm().args(["completions", "bash"]));
    let out = Command::new("bash").args(["-n", "-c", &script]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn completions_name_an_unknown_shell() {
    let out = bpvm().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid value 'tcsh'") && err.contains("bash, elvish, fish, powershell, zsh"),
        "{err}"
    );
}

#[test]
fn manual_pages_for_bpvm_and_each_command() {
    let page = stdout(bpvm().arg("man"));
    assert!(page.contains(".TH bpvm 1"), "{page}");
    let dir = tempfile::tempdir().unwrap();
    stdout(bpvm().arg("man").arg("--out").arg(dir.path().join("man1")));
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("man1"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut want = vec!["bpvm.1".to_string()];
    want.extend(commands().iter().map(|c| format!("bpvm-{c}.1")));
    want.sort();
    assert_eq!(names, want);
    let render = std::fs::read_to_string(dir.path().join("man1/bpvm-render.1")).unwrap();
    assert!(render.contains(".TH bpvm-render 1"), "{render}");
    assert!(render.contains("bpvm render"), "{render}");
}
