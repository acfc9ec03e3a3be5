//! The Windsor core template (v0.7.0, from the corpus beside the
//! repository) as an editor edits it: a mistake made in a facet found at
//! its place and cleared once fixed, one-character changes checked again
//! each time, and hover on a `${…}`. How fast the server answers is
//! measured by `cargo bench -p bpvm-lsp --bench edit`, not here.

use super::expected;
use super::session::{Session, place_of};
use serde_json::json;

const GATEWAY: &str = "contexts/_template/facets/option-gateway.yaml";
const CNI: &str = "contexts/_template/facets/option-cni.yaml";

#[test]
fn a_mistake_in_a_facet_of_the_core_template_is_found_then_cleared() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    let text = s.text(GATEWAY);
    s.open(GATEWAY, &text);
    let clean = s.diagnostics(&[GATEWAY]);
    assert_eq!(clean[0]["diagnostics"], json!([]), "{clean}");
    let edited = text.replacen("${dns.domain}", "${dns.domian}", 1);
    assert_ne!(edited, text);
    s.change(GATEWAY, &edited);
    let found = s.diagnostics(&[GATEWAY]);
    expected::matches("core-misspelt", &found, &s.root);
    s.change(GATEWAY, &text);
    let cleared = s.diagnostics(&[GATEWAY]);
    assert_eq!(cleared[0]["diagnostics"], json!([]), "{cleared}");
}

#[test]
fn one_character_changes_to_a_facet_of_the_core_template_are_each_checked() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    let text = s.text(CNI);
    s.open(CNI, &text);
    let first = s.diagnostics(&[CNI]);
    expected::matches("core-facet", &first, &s.root);
    for i in 0..5 {
        // A comment one character longer each time: the findings stay.
        let edited = format!("{text}#{}\n", "x".repeat(i + 1));
        s.change(CNI, &edited);
        assert_eq!(s.diagnostics(&[CNI]), first, "change {i}");
    }
}

#[test]
fn hover_on_a_substitution_of_the_core_template() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    // The template ships no context: hover evaluates in `local`.
    std::fs::create_dir_all(s.path("contexts/local")).unwrap();
    std::fs::write(s.path("contexts/local/values.yaml"), "platform: docker\n").unwrap();
    let text = s.text(GATEWAY);
    s.open(GATEWAY, &text);
    let (line, character) = place_of(&text, "${dns.domain}");
    let hover = s.at("textDocument/hover", GATEWAY, line, character + 6);
    expected::matches("core-hover", &hover, &s.root);
}

#[test]
fn the_outline_of_a_facet_of_the_core_template() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    let text = s.text(CNI);
    s.open(CNI, &text);
    let uri = super::client::uri(&s.path(CNI));
    let found = s
        .client
        .request("textDocument/documentSymbol", json!({ "textDocument": { "uri": uri } }));
    expected::matches("core-symbols", &found, &s.root);
}
