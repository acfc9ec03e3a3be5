//! What users read says what it means: no user-facing Markdown and no
//! `--help` text names a design decision by an internal id (`W1`, `D10`,
//! `B3`: the file that defines them is not part of the repository) or
//! points into `../shared`, a folder beside the clone that users do not
//! have. Each difference is stated in full instead.

use crate::support::{self, bpvm};
use std::path::PathBuf;

/// The user-facing Markdown files: the root's and `docs/`'s.
fn markdown_files() -> Vec<PathBuf> {
    let repo = support::repo();
    let mut files = Vec::new();
    for dir in [repo.clone(), repo.join("docs")] {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            let is_markdown = path.extension().is_some_and(|e| e == "md");
            if is_markdown {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The words of `text` that look like a decision id, `\b[WDB][0-9]{1,2}\b`
/// (a word boundary before and after), and each `../shared`, with the
/// line they are on.
fn offending(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let word = |i: usize| chars.get(i).is_some_and(|c| c.is_alphanumeric() || *c == '_');
        for (i, c) in chars.iter().enumerate() {
            if !matches!(c, 'W' | 'D' | 'B') || (i > 0 && word(i - 1)) {
                continue;
            }
            let digits = chars[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
            if (1..=2).contains(&digits) && !word(i + 1 + digits) {
                let id: String = chars[i..=i + digits].iter().collect();
                found.push(format!("line {}: {id}: {line}", n + 1));
            }
        }
        if line.contains("../shared") {
            found.push(format!("line {}: ../shared: {line}", n + 1));
        }
    }
    found
}

#[test]
fn the_check_finds_ids_and_shared_paths_and_nothing_else() {
    let text = "as W1 says\n(D10)\nB3, B12.\nW100 0xB3 WD1 B3x `D2`\nsee ../shared/x\n";
    let found: Vec<String> = offending(text)
        .iter()
        .map(|f| f.split(':').take(2).collect::<Vec<_>>().join(":"))
        .collect();
    assert_eq!(
        found,
        [
            "line 1: W1",
            "line 2: D10",
            "line 3: B3",
            "line 3: B12",
            "line 4: D2",
            "line 5: ../shared"
        ]
    );
}

#[test]
fn no_user_facing_markdown_cites_a_decision_id_or_shared_path() {
    let files = markdown_files();
    assert!(files.iter().any(|f| f.ends_with("COMPATIBILITY.md")), "{files:?}");
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for found in offending(&text) {
            problems.push(format!("{}: {found}", file.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "state each difference in full:\n{}",
        problems.join("\n")
    );
}

fn help_of(words: &[String]) -> String {
    let out = bpvm().args(words).arg("--help").env("NO_COLOR", "1").output().unwrap();
    assert!(out.status.success(), "bpvm {words:?} --help");
    support::text(&out.stdout)
}

#[test]
fn no_help_text_cites_a_decision_id_or_shared_path() {
    let mut pending: Vec<Vec<String>> = vec![Vec::new()];
    let mut problems = Vec::new();
    let mut seen = 0;
    while let Some(words) = pending.pop() {
        let help = help_of(&words);
        seen += 1;
        for found in offending(&help) {
            problems.push(format!("bpvm {} --help: {found}", words.join(" ")));
        }
        for sub in support::subcommands(&help) {
            let mut deeper = words.clone();
            deeper.push(sub);
            pending.push(deeper);
        }
    }
    assert!(seen > 10, "only {seen} help texts");
    assert!(
        problems.is_empty(),
        "state each difference in full:\n{}",
        problems.join("\n")
    );
}
