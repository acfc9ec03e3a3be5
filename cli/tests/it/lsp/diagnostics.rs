//! Diagnostics as `bpvm check` finds them, for the text being edited:
//! published for each file of the template with findings, cleared when
//! they are gone, placed in UTF-16 columns, with quick fixes.

use super::expected;
use super::session::{Session, place_of};
use crate::support::examples;
use serde_json::{Value, json};

const FACET: &str = "contexts/_template/facets/provider-aws.yaml";

#[test]
fn a_misspelt_path_in_an_unsaved_facet_is_found_fixed_and_cleared() {
    let mut s = Session::over(&examples().join("windsor"));
    let saved = s.text(FACET);
    let edited = saved.replace("dependsOn: [network]", "dependsOn: [netwrk]");
    assert_ne!(saved, edited);
    s.open(FACET, &edited);
    let found = s.diagnostics(&[FACET]);
    expected::matches("facet-misspelt", &found, &s.root);
    let actions = fixes(&mut s, &found[0]);
    expected::matches("facet-misspelt-fix", &actions, &s.root);
    // On disk nothing changed: only the editor's text was checked.
    assert_eq!(s.text(FACET), saved);
    s.change(FACET, &saved);
    let cleared = s.diagnostics(&[FACET]);
    assert_eq!(cleared[0]["diagnostics"], json!([]), "{cleared}");
}

#[test]
fn columns_are_utf16_code_units_after_non_ascii_text() {
    let mut s = Session::over(&examples().join("windsor"));
    let edited = s.text(FACET).replace(
        "workers: ${cluster.workers.count}",
        "workers: \"é😀 ${strng(cluster.workers.count)}\"",
    );
    s.open(FACET, &edited);
    let found = s.diagnostics(&[FACET]);
    let range = &found[0]["diagnostics"][0]["range"];
    let (line, character) = place_of(&edited, "strng(");
    assert_eq!(
        range["start"],
        json!({ "line": line, "character": character }),
        "{found}"
    );
}

#[test]
fn values_the_schema_refuses_are_published_on_the_values_file() {
    let mut s = Session::over(&examples().join("windsor"));
    let values = "contexts/local/values.yaml";
    let text = s.text(values).replace("dev: true", "dev: maybe");
    s.open(values, &text);
    let found = s.diagnostics(&[values]);
    expected::matches("values-refused", &found, &s.root);
}

#[test]
fn a_bluelink_blueprint_is_checked_as_edited() {
    let mut s = Session::over(&examples().join("bluelink"));
    let file = "blueprint.yaml";
    let text = s.text(file);
    let edited = text.replacen("variables.environment", "variables.enviroment", 1);
    assert_ne!(text, edited);
    s.open(file, &edited);
    let found = s.diagnostics(&[file]);
    expected::matches("blueprint-misspelt", &found, &s.root);
    let actions = fixes(&mut s, &found[0]);
    expected::matches("blueprint-misspelt-fix", &actions, &s.root);
}

/// The code actions for the diagnostics of `published` (one file's).
fn fixes(s: &mut Session, published: &Value) -> Value {
    let diagnostics = &published["diagnostics"];
    s.client.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": published["uri"] },
            "range": diagnostics[0]["range"],
            "context": { "diagnostics": diagnostics },
        }),
    )
}
