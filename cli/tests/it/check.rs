//! `bpvm check` as a user runs it: exit statuses, the three formats,
//! `--deny-warnings`, and what a path that cannot be searched says.

use crate::support::{self, bpvm};
use std::path::Path;
use std::process::Output;

fn check(args: &[&str], dir: &Path) -> Output {
    bpvm()
        .arg("check")
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A project in `dir/infra` whose one facet has `when`.
fn project(dir: &Path, when: &str) {
    let template = dir.join("infra/contexts/_template");
    std::fs::create_dir_all(template.join("facets")).unwrap();
    std::fs::write(dir.join("infra/windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(
        template.join("schema.yaml"),
        "type: object\nadditionalProperties: false\nproperties:\n  ha: {type: boolean, default: false}\n",
    )
    .unwrap();
    std::fs::write(
        template.join("facets/ha.yaml"),
        format!("kind: Facet\nmetadata: {{name: ha}}\nwhen: {when}\n"),
    )
    .unwrap();
}

#[test]
fn a_clean_template_passes() {
    let out = check(&["examples/windsor"], &support::repo());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "no problems in 1 template\n");
}

#[test]
fn warnings_pass_unless_denied_and_errors_fail() {
    let dir = tempfile::tempdir().unwrap();
    project(dir.path(), "hq == true");
    let out = check(&["infra"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).starts_with(
            "infra/contexts/_template/facets/ha.yaml:3:7: warning[unknown-path]: hq: no such property\nhelp: did you mean ha?\n"
        ),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(check(&["infra", "--deny-warnings"], dir.path()).status.code(), Some(1));
    // Found when its folder is searched, though it has no context to
    // render (as a template repository has none).
    let out = check(&["--deny-warnings"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("infra/contexts/_template/facets/ha.yaml:3:7: warning[unknown-path]"),
        "{}",
        text(&out.stdout)
    );

    project(dir.path(), "ha == 'yes'");
    let out = check(&["infra", "--format", "json"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = &doc["findings"];
    assert_eq!(findings[0]["rule"], "type-mismatch");
    assert_eq!(findings[0]["file"], "infra/contexts/_template/facets/ha.yaml");
    assert_eq!(
        (findings[0]["line"].as_u64(), findings[0]["column"].as_u64()),
        (Some(3), Some(7))
    );

    let out = check(&["infra", "--format", "sarif"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(log["runs"][0]["results"][0]["ruleId"], "type-mismatch");
}

#[test]
fn a_path_that_cannot_be_searched_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = check(&["no-such-folder"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    assert!(
        text(&out.stderr).starts_with("no-such-folder: error: cannot search: "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_fifo_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("pipe"))
        .status()
        .unwrap();
    assert!(made.success());
    let out = check(&["pipe"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "pipe: error: is a FIFO (named pipe), not a folder to search\n"
    );
}

#[test]
fn a_dependency_cycle_is_an_error_at_its_dependson() {
    let dir = tempfile::tempdir().unwrap();
    let facets = dir.path().join("contexts/_template/facets");
    std::fs::create_dir_all(&facets).unwrap();
    std::fs::create_dir_all(dir.path().join("contexts/local")).unwrap();
    std::fs::write(dir.path().join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(
        facets.join("base.yaml"),
        "kind: Facet\nmetadata:\n  name: base\nterraform:\n  - path: a\n    dependsOn: [b]\n  - path: b\n    dependsOn: [a]\n",
    )
    .unwrap();
    let out = check(&["."], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).starts_with(
            "contexts/_template/facets/base.yaml:6:17: error[dependency-cycle]: terraform components depend on each other in a cycle: a → b → a\n"
        ),
        "{}",
        text(&out.stdout)
    );
    let render = crate::support::bpvm()
        .args(["render", "--project", "."])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(render.status.code(), Some(1));
    assert_eq!(
        text(&render.stderr),
        "contexts/_template/facets/base.yaml:6:5: error: terraform[a].dependsOn: dependency cycle: a → b → a\n"
    );
}

#[test]
fn a_blueprint_reference_to_an_undefined_name_says_once_what_was_meant() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("blueprint.yaml"),
        "version: 2023-04-20\nvariables:\n  region: {type: string}\nresources:\n  fn:\n    type: aws/lambda/function\n    spec:\n      region: ${variables.regoin}\n",
    )
    .unwrap();
    let out = check(&["blueprint.yaml"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "blueprint.yaml:8:17: error[invalid-template]: variables.regoin is not defined\n\
         help: did you mean variables.region?\n  \
           |\n\
         8 |       region: ${variables.regoin}\n  \
           |                 ^\n\
         \n\
         1 error in 1 template: invalid-template 1\n"
    );
    let out = check(&["blueprint.yaml", "--format", "json"], dir.path());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let findings = &doc["findings"];
    assert_eq!(findings[0]["message"], "variables.regoin is not defined");
    assert_eq!(findings[0]["suggestion"], "variables.region");
}

/// A `.bp` blueprint, given or found in a folder, is checked at the
/// line:column of its own text, inside the expressions written there.
#[test]
fn a_bp_blueprint_is_checked_at_its_own_positions() {
    let dir = tempfile::tempdir().unwrap();
    let bp = "version \"2023-04-20\"\nvariable debug: boolean {}\n\
              resource fn: aws/lambda/function {\n  condition = variables.debug && len(variables.debug) == 0\n  spec {}\n}\n";
    std::fs::create_dir_all(dir.path().join("app")).unwrap();
    std::fs::write(dir.path().join("app/fn.bp"), bp).unwrap();
    let expected = "app/fn.bp:4:34: error[type-mismatch]: len() argument 1 must be a string, an array or an object, got boolean\n  |\n4 |   condition = variables.debug && len(variables.debug) == 0\n  |                                  ^^^^^^^^^^^^^^^^^^^^\n";
    for path in ["app/fn.bp", "app"] {
        let out = check(&[path], dir.path());
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        assert!(text(&out.stdout).starts_with(expected), "{}", text(&out.stdout));
    }
}
