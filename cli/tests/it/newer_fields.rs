//! Fields a newer Windsor has: `render` and `test` print a warning line
//! per field on stderr (`batch` a note on the target) and pass it through; `--strict` makes each an
//! error; a field within two edits of a known one is always an error.

use crate::support::{Scratch, bpvm, run_in_project, scratch_dir};

/// A project whose facet is `facet`, with context `local` and a test
/// file of one case.
fn project(name: &str, facet: &str) -> Scratch {
    let dir = scratch_dir(name);
    let template = dir.join("contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::create_dir_all(template.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("contexts/local")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "context: local\n").unwrap();
    std::fs::write(template.join("facets/base.yaml"), facet).unwrap();
    std::fs::write(
        template.join("tests/base.test.yaml"),
        "cases:\n  - name: the network\n    expect: {terraform: [{name: network, path: network}]}\n",
    )
    .unwrap();
    dir
}

/// A facet with a field the seed format does not have.
const NEWER: &str = "kind: Facet\nmetadata: {name: base}\nterraform:\n  - name: network\n    lifecycle: {keep: '${never}'}\n    path: network\n";

/// The warning `render` and `test` print for it.
const WARNING: &str = "contexts/_template/facets/base.yaml:5:5: warning: terraform[network].lifecycle: unknown field \"lifecycle\": kept and passed into the blueprint as written\n";

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn render_warns_on_stderr_and_passes_the_field_through_as_written() {
    let dir = project("newer-render", NEWER);
    let out = run_in_project(&dir, &["render"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), WARNING);
    // After the known fields, `${…}` not evaluated.
    assert!(
        text(&out.stdout).contains("- name: network\n  path: network\n  lifecycle:\n    keep: ${never}\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn strict_makes_an_unknown_field_an_error() {
    let dir = project("newer-strict", NEWER);
    let commands: [&[&str]; 4] = [
        &["render", "--strict"],
        &["test", "--strict"],
        &["graph", "--strict"],
        &["explain", "terraform.network.path", "--strict"],
    ];
    for command in commands {
        let out = run_in_project(&dir, command);
        assert_eq!(out.status.code(), Some(1), "{command:?}: {}", text(&out.stdout));
        assert_eq!(
            text(&out.stderr),
            "contexts/_template/facets/base.yaml:5:5: error: terraform[network].lifecycle: unknown field \"lifecycle\": kept and passed into the blueprint as written (an error by --strict)\n",
            "{command:?}"
        );
        assert_eq!(text(&out.stdout), "", "{command:?}");
    }
}

#[test]
fn test_warns_on_stderr_and_runs_the_cases() {
    let dir = project("newer-test", NEWER);
    let out = run_in_project(&dir, &["test"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
    assert!(text(&out.stderr).starts_with(WARNING), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).ends_with("1 passed, 0 failed\n"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_near_miss_is_an_error_with_the_suggestion_even_without_strict() {
    let facet = "kind: Facet\nmetadata: {name: base}\nterraform:\n  - name: network\n    path: network\n    inptus: {cidr: 10.0.0.0/16}\n";
    let dir = project("newer-typo", facet);
    for command in ["render", "test"] {
        let out = run_in_project(&dir, &[command]);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(
            text(&out.stderr).starts_with(
                "contexts/_template/facets/base.yaml:6:5: error: terraform[network].inptus: unknown field \"inptus\" (did you mean \"inputs\"?)"
            ),
            "{command}: {}",
            text(&out.stderr)
        );
    }
}

/// A batch notes a newer Windsor's field on the target's record, as
/// `render` warns about it; `--strict` fails the target with it.
#[test]
fn batch_notes_the_field_and_strict_fails_the_target() {
    let dir = project("newer-batch", NEWER);
    for (strict, code) in [(false, Some(0)), (true, Some(1))] {
        let report = dir.join(format!("report-{strict}.json"));
        let mut command = bpvm();
        // Run in the project's folder: its files print as written in it.
        command.current_dir(&dir).args(["batch", ".", "--report"]).arg(&report);
        if strict {
            command.arg("--strict");
        }
        let out = command.output().unwrap();
        assert_eq!(out.status.code(), code, "{}", text(&out.stderr));
        let back = bpvm::batch::Report::from_json(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let local = back.records.iter().find(|r| r.id.ends_with("local")).unwrap();
        let warning = WARNING.trim_end();
        match strict {
            false => assert_eq!(local.notes, [warning]),
            true => assert_eq!(
                local.diagnostics,
                [warning.replacen(": warning: ", ": error: ", 1) + " (an error by --strict)"]
            ),
        }
    }
}
