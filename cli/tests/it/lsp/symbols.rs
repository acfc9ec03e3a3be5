//! The outline of a facet and of a Bluelink blueprint.

use super::expected;
use super::session::Session;
use crate::support::examples;
use serde_json::json;

#[test]
fn a_facets_components_kustomizations_and_config_blocks() {
    let mut s = Session::over(&examples().join("windsor"));
    let facet = "contexts/_template/facets/provider-aws.yaml";
    let text = s.text(facet);
    s.open(facet, &text);
    let uri = super::client::uri(&s.path(facet));
    let found = s
        .client
        .request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    expected::matches("symbols-facet", &found, &s.root);
}

#[test]
fn a_blueprints_variables_values_resources_and_exports() {
    let mut s = Session::over(&examples().join("bluelink"));
    let file = "blueprint.yaml";
    let text = s.text(file);
    s.open(file, &text);
    let uri = super::client::uri(&s.path(file));
    let found = s
        .client
        .request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    expected::matches("symbols-blueprint", &found, &s.root);
}
