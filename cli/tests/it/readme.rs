//! The README's first session, command by command: each `$ bpvm …` line
//! runs from the repository's root (through bash, for its pipes) and must
//! print exactly the lines shown under it (stdout and stderr together).
//! `cargo` lines are the reader's to run.

use crate::support;
use std::process::Command;

/// The commands of the README's "A first session" block, with the output
/// shown for each.
fn session() -> Vec<(String, String)> {
    let readme = std::fs::read_to_string(support::repo().join("README.md")).unwrap();
    let section = readme.split("## A first session\n").nth(1).expect("the section");
    let block = section
        .split("```text\n")
        .nth(1)
        .and_then(|b| b.split("\n```").next())
        .expect("its block");
    let mut out: Vec<(String, String)> = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("$ ") {
            Some(command) => out.push((command.to_string(), String::new())),
            None => {
                let (_, shown) = out.last_mut().expect("output after a command");
                shown.push_str(line);
                shown.push('\n');
            }
        }
    }
    out
}

#[test]
fn the_first_session_prints_what_the_readme_shows() {
    let path = support::path_with_bpvm();
    let mut ran = 0;
    for (command, shown) in session().into_iter().filter(|(c, _)| c.starts_with("bpvm ")) {
        let out = Command::new("bash")
            .args(["-c", &format!("{{ {command}; }} 2>&1")])
            .current_dir(support::repo())
            .env("PATH", &path)
            .env_remove("WINDSOR_CONTEXT")
            .env_remove("CLICOLOR_FORCE")
            .output()
            .unwrap();
        assert!(out.status.success(), "{command}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), shown, "`{command}`");
        ran += 1;
    }
    assert_eq!(ran, 7);
}
