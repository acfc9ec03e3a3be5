//! Every example in the user docs runs: README.md, the other Markdown
//! files at the root and `docs/*.md`, one test per file.
//!
//! The convention the docs follow:
//! each file runs in a fresh folder holding a copy of `examples/`, with
//! `bpvm` on `PATH`, its blocks in order. A ```` ```console ```` block's
//! `$ ` lines are commands (`bash -c`, stdout and stderr together), each
//! followed by exactly what it prints, ending with `[exit N]` when it
//! exits non-zero. A block right after a `<!-- file: PATH -->` line is
//! written to PATH before the next block runs. Other blocks are shown,
//! not run; a `$ ` line in one of them is a mistake, as is a marker not
//! followed by a block.

use crate::support;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One runnable piece of a Markdown file, with the 1-based line it is on.
#[derive(Debug, PartialEq)]
enum Step {
    /// A `$ ` line of a console block and the lines shown under it.
    Command {
        line: usize,
        command: String,
        shown: String,
    },
    /// A block marked `<!-- file: PATH -->`: its text goes to PATH.
    File { line: usize, path: String, text: String },
}

/// A fenced block: its info string, first line number and content.
struct Fence {
    info: String,
    line: usize,
    lines: Vec<(usize, String)>,
}

/// The steps of a Markdown text, or every place it breaks the convention.
fn steps(text: &str) -> Result<Vec<Step>, Vec<String>> {
    let mut steps = Vec::new();
    let mut wrong = Vec::new();
    let mut marker: Option<(usize, String)> = None;
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    while let Some((n, line)) = lines.next() {
        if let Some((at, path)) = marker.take() {
            if !line.trim_start().starts_with("```") {
                wrong.push(format!(
                    "line {at}: `<!-- file: {path} -->` is not followed by a fenced block"
                ));
            }
            if let Some(fence) = open_fence(n, line, &mut lines) {
                steps.push(Step::File {
                    line: fence.line,
                    path,
                    text: body(&fence),
                });
            }
            continue;
        }
        if let Some(path) = file_marker(line) {
            marker = Some((n, path));
        } else if let Some(fence) = open_fence(n, line, &mut lines) {
            if fence.info == "console" {
                console(&fence, &mut steps, &mut wrong);
            } else if let Some((at, _)) = fence.lines.iter().find(|(_, l)| l.starts_with("$ ")) {
                wrong.push(format!(
                    "line {at}: a `$ ` command in a ```{} block (only ```console blocks run)",
                    fence.info
                ));
            }
        }
    }
    if let Some((at, path)) = marker {
        wrong.push(format!(
            "line {at}: `<!-- file: {path} -->` is not followed by a fenced block"
        ));
    }
    if wrong.is_empty() { Ok(steps) } else { Err(wrong) }
}

/// `PATH` of a `<!-- file: PATH -->` line.
fn file_marker(line: &str) -> Option<String> {
    let inner = line.trim().strip_prefix("<!-- file:")?.strip_suffix("-->")?;
    Some(inner.trim().to_string())
}

/// The fenced block opening at `line` (line number `n`), read to its
/// closing fence; content lines lose the opening fence's indentation.
fn open_fence<'a>(n: usize, line: &str, rest: &mut impl Iterator<Item = (usize, &'a str)>) -> Option<Fence> {
    let indent = line.len() - line.trim_start().len();
    let ticks = line.trim_start().chars().take_while(|&c| c == '`').count();
    let info = line.trim_start()[ticks..].trim().to_string();
    // As in CommonMark, a backtick fence's info string holds no backtick
    // (a line starting ```` ```mermaid ```` is inline code).
    if ticks < 3 || info.contains('`') {
        return None;
    }
    let mut lines = Vec::new();
    for (m, text) in rest.by_ref() {
        let trimmed = text.trim();
        if trimmed.len() >= ticks && trimmed.chars().all(|c| c == '`') {
            break;
        }
        let cut = text.len() - text.trim_start().len();
        lines.push((m, text[cut.min(indent)..].to_string()));
    }
    Some(Fence {
        info,
        line: n + 1,
        lines,
    })
}

/// A block's text, every line ending in a newline.
fn body(fence: &Fence) -> String {
    fence.lines.iter().map(|(_, l)| format!("{l}\n")).collect()
}

/// The commands of a console block, each with the lines shown under it.
fn console(fence: &Fence, steps: &mut Vec<Step>, wrong: &mut Vec<String>) {
    let mut current: Option<Step> = None;
    for (n, text) in &fence.lines {
        if let Some(command) = text.strip_prefix("$ ") {
            steps.extend(current.take());
            current = Some(Step::Command {
                line: *n,
                command: command.to_string(),
                shown: String::new(),
            });
        } else if let Some(Step::Command { shown, .. }) = current.as_mut() {
            shown.push_str(text);
            shown.push('\n');
        } else {
            wrong.push(format!("line {n}: a ```console block must start with a `$ ` command"));
            return;
        }
    }
    steps.extend(current);
}

/// What `command` prints in `dir`, stdout and stderr together, with
/// `[exit N]` after it when it fails.
fn printed(dir: &Path, command: &str) -> String {
    let out = Command::new("bash")
        .args(["-c", &format!("{{ {command}\n}} 2>&1")])
        .current_dir(dir)
        .env("PATH", support::path_with_bpvm())
        .env_remove("WINDSOR_CONTEXT")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("BPVM_MEMORY_LIMIT_MIB")
        .env_remove("BPVM_TIMEOUT_SECONDS")
        .output()
        .unwrap();
    let mut text = support::text(&out.stdout);
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    match out.status.code() {
        Some(0) => {}
        Some(n) => text.push_str(&format!("[exit {n}]\n")),
        None => text.push_str("[exit killed by a signal]\n"),
    }
    text
}

/// Runs the Markdown file at `relative` (from the repository's root) and
/// returns each way it failed.
fn run_file(relative: &str) -> Vec<String> {
    let text = std::fs::read_to_string(support::repo().join(relative)).unwrap();
    let steps = match steps(&text) {
        Ok(steps) => steps,
        Err(wrong) => return wrong.into_iter().map(|w| format!("{relative}, {w}")).collect(),
    };
    let scratch = support::scratch_examples();
    let mut failures = Vec::new();
    for step in steps {
        match step {
            Step::File { path, text, .. } => {
                let target = scratch.path().join(&path);
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::write(target, text).unwrap();
            }
            Step::Command { line, command, shown } => {
                let got = printed(scratch.path(), &command);
                if got != shown {
                    failures.push(format!("{relative}:{line}: $ {command}\n{}", difference(&shown, &got)));
                }
            }
        }
    }
    failures
}

/// A unified diff of what the docs show against what was printed.
fn difference(shown: &str, printed: &str) -> String {
    similar::TextDiff::from_lines(shown, printed)
        .unified_diff()
        .header("shown in the docs", "printed")
        .to_string()
}

/// Runs the files and fails with every difference found. A named file
/// not written yet has nothing to run.
fn check(files: &[&str]) {
    let present = files.iter().filter(|f| support::repo().join(f).is_file());
    let failures: Vec<String> = present.flat_map(|f| run_file(f)).collect();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// Every user-facing Markdown file: README.md, the root's others, docs/.
fn markdown_files() -> Vec<String> {
    let mut files = vec!["README.md".to_string()];
    for folder in ["", "docs"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(support::repo().join(folder))
            .map(|dir| dir.filter_map(|e| Some(e.ok()?.path())).collect())
            .unwrap_or_default();
        found.sort();
        for path in found.into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let relative = if folder.is_empty() {
                name
            } else {
                format!("{folder}/{name}")
            };
            if relative != "README.md" {
                files.push(relative);
            }
        }
    }
    files
}

/// Each file's test: the file's name as the test's (`docs::cli`).
macro_rules! docs_tests {
    ($($name:ident: $file:literal,)*) => {
        /// The files with a test of their own.
        const NAMED: &[&str] = &[$($file),*];
        $(
            #[test]
            fn $name() {
                check(&[$file]);
            }
        )*
    };
}

docs_tests! {
    readme: "README.md",
    install: "docs/install.md",
    cli: "docs/cli.md",
    configuration: "docs/configuration.md",
    editors: "docs/editors.md",
    checks: "docs/checks.md",
    discovery: "docs/discovery.md",
    ci: "docs/ci.md",
    library: "docs/library.md",
    performance: "docs/performance.md",
    compatibility: "COMPATIBILITY.md",
    security: "SECURITY.md",
    architecture: "ARCHITECTURE.md",
    contributing: "CONTRIBUTING.md",
}

/// Any other Markdown file at the root or in `docs/`.
#[test]
fn every_other_file() {
    let others: Vec<String> = markdown_files()
        .into_iter()
        .filter(|f| !NAMED.contains(&f.as_str()))
        .collect();
    check(&others.iter().map(String::as_str).collect::<Vec<_>>());
}

#[test]
fn a_console_block_is_commands_and_what_they_print() {
    let text = "```console\n$ bpvm eval '1 + 1'\n2\n$ false\n[exit 1]\n```\n";
    let command = |line: usize, command: &str, shown: &str| Step::Command {
        line,
        command: command.into(),
        shown: shown.into(),
    };
    assert_eq!(
        steps(text),
        Ok(vec![
            command(2, "bpvm eval '1 + 1'", "2\n"),
            command(4, "false", "[exit 1]\n")
        ])
    );
}

#[test]
fn a_marked_block_is_a_file() {
    let text = "<!-- file: a/b.yaml -->\n  ```yaml\n  k: v\n  ```\n";
    let file = Step::File {
        line: 3,
        path: "a/b.yaml".into(),
        text: "k: v\n".into(),
    };
    assert_eq!(steps(text), Ok(vec![file]));
}

#[test]
fn a_command_outside_a_console_block_is_refused() {
    let text = "text\n\n```text\n$ bpvm check infra\nok\n```\n";
    assert_eq!(
        steps(text),
        Err(vec![
            "line 4: a `$ ` command in a ```text block (only ```console blocks run)".into()
        ])
    );
}

#[test]
fn a_file_marker_without_a_block_is_refused() {
    let wrong = |n: usize| format!("line {n}: `<!-- file: x.yaml -->` is not followed by a fenced block");
    assert_eq!(
        steps("<!-- file: x.yaml -->\n\n```yaml\nk: v\n```\n"),
        Err(vec![wrong(1)])
    );
    assert_eq!(steps("text\n<!-- file: x.yaml -->\n"), Err(vec![wrong(2)]));
}

#[test]
fn a_console_block_starts_with_a_command() {
    let text = "```console\noutput first\n$ true\n```\n";
    assert_eq!(
        steps(text),
        Err(vec!["line 2: a ```console block must start with a `$ ` command".into()])
    );
}
