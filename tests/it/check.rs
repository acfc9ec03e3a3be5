//! `bpvm check` on the templates of the corpus and of the repository, and
//! its rules as `docs/checks.md` lists them. (Each rule's own cases, under
//! `tests/check/<language>/`, are tests of the case harness,
//! `tests/harness/checks.rs`.)

use crate::support::shared;
use std::path::Path;

/// The corpus templates' findings are exactly those listed in
/// `tests/check/corpus/<template>.txt` (each is explained in
/// `docs/checks.md`): a change to what the checker finds on real
/// templates is seen, and reviewed, here.
#[test]
fn the_corpus_templates_give_the_findings_listed() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in ["windsor-core-aae5e79e", "windsor-core-v0.7.0"] {
        let dir = repo.join("../shared/corpus").join(name);
        if !shared::present(&dir) {
            return;
        }
        let listed = std::fs::read_to_string(repo.join(format!("tests/check/corpus/{name}.txt"))).unwrap();
        let report = bpvm::check::check(&[&dir]).unwrap();
        let got: Vec<String> = report.templates[0].findings.iter().map(|f| f.to_string()).collect();
        let listed: Vec<&str> = listed.lines().collect();
        assert_eq!(got, listed, "{name}");
        assert_eq!(
            report.count(bpvm::check::Severity::Error),
            listed.iter().filter(|l| l.contains(": error[")).count()
        );
    }
}

/// What ships is clean: the examples have no finding at all.
#[test]
fn the_shipped_examples_have_no_findings() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let report = bpvm::check::check(&[&examples]).unwrap();
    assert!(
        report.templates.len() >= 3,
        "{:?}",
        report.templates.iter().map(|t| &t.folder).collect::<Vec<_>>()
    );
    let found: Vec<String> = report.findings().map(|(path, f)| format!("{path}: {f}")).collect();
    assert!(found.is_empty(), "{found:#?}");
}

/// Every rule is in the table of `docs/checks.md`, with its severity and
/// summary, and nothing else is.
#[test]
fn the_docs_list_every_rule() {
    let docs = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/checks.md")).unwrap();
    let rules = bpvm::check::rules();
    for rule in &rules {
        let row = format!("| `{}` | {} | {} |", rule.id, rule.severity.name(), rule.summary);
        assert!(docs.contains(&row), "docs/checks.md has no row\n{row}");
    }
    let severities = [" | error | ", " | warning | ", " | note | "];
    let rows = docs
        .lines()
        .filter(|l| l.starts_with("| `") && severities.iter().any(|s| l.contains(s)))
        .count();
    assert_eq!(rows, rules.len(), "docs/checks.md lists rules that are not");
}

/// Many templates are checked on every core, and the report keeps the
/// order they were found in, run after run.
#[test]
fn many_templates_report_in_the_order_found() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..12 {
        let template = dir.path().join(format!("p{i:02}/contexts/_template"));
        std::fs::create_dir_all(template.join("facets")).unwrap();
        std::fs::write(dir.path().join(format!("p{i:02}/windsor.yaml")), "version: v1alpha1\n").unwrap();
        let facet =
            format!("kind: Facet\nmetadata: {{name: f}}\nterraform:\n  - name: a\n    dependsOn: [missing{i}]\n");
        std::fs::write(template.join("facets/f.yaml"), facet).unwrap();
    }
    let seen: Vec<String> = (0..3)
        .map(|_| {
            let report = bpvm::check::check(&[dir.path()]).unwrap();
            report
                .findings()
                .map(|(path, f)| format!("{path}: {}", f.message))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    assert!(
        seen[0].lines().count() == 12 && seen.iter().all(|s| *s == seen[0]),
        "{seen:#?}"
    );
    let first = seen[0].lines().next().unwrap();
    assert!(
        first.ends_with(
            "p00/contexts/_template/facets/f.yaml: \"missing0\" names no terraform component of the template"
        ),
        "{first}"
    );
}
