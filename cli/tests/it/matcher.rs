//! The one pattern docs/ci.md gives for CI problem matchers and editors
//! reads the output of every command: applied to what `render`, `test`,
//! `check`, `explain`, `values`, `graph` and `batch` print for one
//! mistake in a Windsor project or a Bluelink blueprint, it finds the
//! same file, line and column in each — the file as it opens from where
//! bpvm ran.

use crate::support::{self, text};
use regex::Regex;
use std::path::Path;
use std::process::Command;

const PROJECT: &str = "some/dir";
const FACET: &str = "contexts/_template/facets/provider-aws.yaml";
const VALUES: &str = "contexts/local/values.yaml";

/// The pattern of docs/ci.md: the line of its `text` block, which its
/// GitHub problem matcher (the `json` block) gives too.
fn pattern() -> Regex {
    let docs = std::fs::read_to_string(support::repo().join("docs/ci.md")).unwrap();
    let line = docs
        .lines()
        .find(|l| l.starts_with(r"^\s*("))
        .expect("docs/ci.md gives the pattern");
    let json = docs
        .split("```json\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap();
    let matcher: serde_json::Value = serde_json::from_str(json).unwrap();
    let given = &matcher["problemMatcher"][0]["pattern"][0];
    assert_eq!(
        given["regexp"], line,
        "the problem matcher's pattern is the one the docs give"
    );
    let groups = [
        ("file", 1),
        ("line", 2),
        ("column", 3),
        ("severity", 4),
        ("code", 6),
        ("message", 7),
    ];
    for (name, group) in groups {
        assert_eq!(given[name], group, "{name}");
    }
    Regex::new(line).unwrap()
}

/// A folder holding, as `some/dir`, a copy of examples/windsor with
/// `from` replaced by `to` in `file`.
fn project(file: &str, from: &str, to: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join(PROJECT);
    std::fs::create_dir_all(&project).unwrap();
    support::copy_tree(&support::examples().join("windsor"), &project);
    let path = project.join(file);
    let was = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, was.replacen(from, to, 1)).unwrap();
    dir
}

/// Every command's output, stdout and stderr, run in `dir`.
fn outputs(dir: &Path) -> Vec<(&'static str, String)> {
    let commands: [(&str, &[&str]); 7] = [
        ("render", &["render", "--project", PROJECT]),
        ("test", &["test", "--project", PROJECT]),
        ("check", &["check", PROJECT]),
        (
            "explain",
            &["explain", "--project", PROJECT, "terraform.cluster.inputs.name"],
        ),
        ("values", &["values", "--project", PROJECT]),
        ("graph", &["graph", "--project", PROJECT]),
        ("batch", &["batch", PROJECT]),
    ];
    commands
        .iter()
        .map(|(name, args)| {
            let out = Command::new(support::BPVM)
                .current_dir(dir)
                .args(*args)
                .env("NO_COLOR", "1")
                .env_remove("WINDSOR_CONTEXT")
                .output()
                .unwrap();
            (*name, format!("{}{}", text(&out.stdout), text(&out.stderr)))
        })
        .collect()
}

/// What the pattern finds in `said`: each line's file, line, column and
/// severity.
fn found(pattern: &Regex, said: &str) -> Vec<(String, usize, usize, String)> {
    said.lines()
        .filter_map(|l| pattern.captures(l))
        .map(|c| {
            (
                c[1].to_string(),
                c[2].parse().unwrap(),
                c[3].parse().unwrap(),
                c[4].to_string(),
            )
        })
        .collect()
}

#[test]
fn the_docs_pattern_reads_an_error_of_every_command_at_one_place() {
    let pattern = pattern();
    let dir = project(FACET, r#"?? "10.0.0.0/16"}"#, r#"?? ("10.0.0.0/16"}"#);
    let file = format!("{PROJECT}/{FACET}");
    assert!(
        dir.path().join(&file).is_file(),
        "the printed path opens from where bpvm ran"
    );
    for (command, said) in outputs(dir.path()) {
        let places = found(&pattern, &said);
        assert!(!places.is_empty(), "{command}: the pattern finds nothing in:\n{said}");
        for (f, line, column, severity) in places {
            assert_eq!(
                (f.as_str(), line, column),
                (file.as_str(), 12, 45),
                "{command}:\n{said}"
            );
            assert_eq!(severity, "error", "{command}:\n{said}");
        }
    }
}

#[test]
fn the_docs_pattern_reads_a_warning_and_a_check_finding() {
    let pattern = pattern();
    let dir = project(VALUES, "dev: true", "dev: \"yes\"");
    let file = format!("{PROJECT}/{VALUES}");
    for (command, said) in outputs(dir.path())
        .into_iter()
        .filter(|(c, _)| ["render", "check"].contains(c))
    {
        let places = found(&pattern, &said);
        let at_value: Vec<_> = places.iter().filter(|(f, ..)| *f == file).collect();
        assert!(
            !at_value.is_empty(),
            "{command}: the pattern finds nothing in {file}:\n{said}"
        );
        for (_, line, column, severity) in at_value {
            assert_eq!((*line, *column), (2, 1), "{command}:\n{said}");
            assert!(
                ["warning", "error"].contains(&severity.as_str()),
                "{command}: {severity}"
            );
        }
    }
}

#[test]
fn the_docs_pattern_reads_a_bluelink_error_of_every_command_at_one_place() {
    let pattern = pattern();
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("apps/orders");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::write(
        app.join("blueprint.yaml"),
        "version: 2025-11-02\nvariables:\n  region: {type: string, default: eu-west-1}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      region: ${variables.regoin}\n",
    )
    .unwrap();
    let file = "apps/orders/blueprint.yaml";
    let commands: [(&str, &[&str]); 5] = [
        ("render", &["render", file]),
        ("check", &["check", "apps"]),
        ("explain", &["explain", "resources.fn.spec", file]),
        ("graph", &["graph", file]),
        ("batch", &["batch", "."]),
    ];
    for (command, args) in commands {
        let out = Command::new(support::BPVM)
            .current_dir(dir.path())
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
        let places = found(&pattern, &said);
        assert!(!places.is_empty(), "{command}: the pattern finds nothing in:\n{said}");
        for (f, line, column, severity) in places {
            assert_eq!((f.as_str(), line, column), (file, 8, 17), "{command}:\n{said}");
            assert_eq!(severity, "error", "{command}:\n{said}");
        }
    }
}
