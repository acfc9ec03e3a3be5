//! Hover on a facet's `${…}` and `when:`, in the context `bpvm render`
//! chooses, then in one the editor selects.

use super::expected;
use super::session::{Session, place_of};
use crate::support::examples;
use serde_json::{Value, json};

const FACET: &str = "contexts/_template/facets/provider-aws.yaml";

#[test]
fn hover_shows_the_value_what_it_read_and_whether_the_facet_is_included() {
    let mut s = Session::over(&examples().join("windsor"));
    let text = s.text(FACET);
    s.open(FACET, &text);
    let (line, character) = place_of(&text, "cluster.workers.count}");
    let inside = s.at("textDocument/hover", FACET, line, character + 3);
    expected::matches("hover-substitution", &inside, &s.root);
    let (line, _) = place_of(&text, "when:");
    let when = s.at("textDocument/hover", FACET, line, 8);
    expected::matches("hover-when", &when, &s.root);
    // Outside any expression: nothing.
    assert_eq!(s.at("textDocument/hover", FACET, 0, 1), Value::Null);
}

#[test]
fn a_selected_context_is_the_one_hover_evaluates_in() {
    let mut s = Session::over(&examples().join("windsor"));
    std::fs::create_dir_all(s.path("contexts/onprem")).unwrap();
    std::fs::write(s.path("contexts/onprem/values.yaml"), "provider: none\n").unwrap();
    let text = s.text(FACET);
    s.open(FACET, &text);
    let done = s.client.request(
        "workspace/executeCommand",
        json!({ "command": "bpvm.selectContext", "arguments": ["onprem"] }),
    );
    assert_eq!(done, Value::Null);
    let (line, _) = place_of(&text, "when:");
    let hover = s.at("textDocument/hover", FACET, line, 8);
    expected::matches("hover-selected-context", &hover, &s.root);
    // A context the project does not have: the hover says so.
    let params = json!({ "command": "bpvm.selectContext", "arguments": ["staging"] });
    s.client.request("workspace/executeCommand", params);
    let hover = s.at("textDocument/hover", FACET, line, 8);
    expected::matches("hover-unknown-context", &hover, &s.root);
}
