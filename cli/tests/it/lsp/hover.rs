//! Hover on a facet's `${…}` and `when:`, in the context `bpvm render`
//! chooses, then in one the editor selects; on a blueprint's `${…}`,
//! rendered with the files beside it; on a key of a context's values,
//! described by the schema.

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

const BLUEPRINT: &str = "blueprint.yaml";

#[test]
fn hover_on_a_blueprint_substitution_shows_its_rendered_value_or_why_it_has_none() {
    let mut s = Session::over(&examples().join("bluelink"));
    let text = s.text(BLUEPRINT);
    s.open(BLUEPRINT, &text);
    // Rendered with the variables and data sources files beside it.
    let (line, character) = place_of(&text, "values.prefix}-save-order");
    let value = s.at("textDocument/hover", BLUEPRINT, line, character + 2);
    expected::matches("hover-blueprint-value", &value, &s.root);
    // In a resource with `each`: its first item; the `each` itself.
    let (line, character) = place_of(&text, "elem}");
    let item = s.at("textDocument/hover", BLUEPRINT, line, character);
    let (line, character) = place_of(&text, "values.events}");
    let each = s.at("textDocument/hover", BLUEPRINT, line, character + 2);
    expected::matches("hover-blueprint-each", &json!([item, each]), &s.root);
    // A child's export the provider sets: no value before deployment.
    let (line, character) = place_of(&text, "children.storage.endpoint}");
    let deferred = s.at("textDocument/hover", BLUEPRINT, line, character + 2);
    expected::matches("hover-blueprint-deferred", &deferred, &s.root);
    // Without the files beside it, the variables' defaults: a required
    // variable has none, and the render says so.
    std::fs::remove_file(s.path("blueprint.vars.yaml")).unwrap();
    let (line, character) = place_of(&text, "variables.region}");
    let unset = s.at("textDocument/hover", BLUEPRINT, line, character + 2);
    expected::matches("hover-blueprint-no-vars", &unset, &s.root);
    // A variables file that is not a mapping: the hover says which and why.
    std::fs::write(s.path("blueprint.vars.yaml"), "- production\n").unwrap();
    let bad = s.at("textDocument/hover", BLUEPRINT, line, character + 2);
    let shown = bad["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("blueprint.vars.yaml: expected a mapping of variable names to values, found list"),
        "{shown}"
    );
    // A key, not a substitution: nothing; nor a `${…}` in a comment.
    assert_eq!(s.at("textDocument/hover", BLUEPRINT, 6, 2), Value::Null);
    std::fs::write(
        s.path("blueprint.vars.yaml"),
        "environment: production\ndatabasePassword: x\n",
    )
    .unwrap();
    let commented = format!("# reads ${{variables.region}}\n{text}");
    s.change(BLUEPRINT, &commented);
    assert_eq!(s.at("textDocument/hover", BLUEPRINT, 0, 12), Value::Null);
}

#[test]
fn hover_on_a_values_key_shows_what_the_schema_says_of_it() {
    let mut s = Session::over(&examples().join("windsor"));
    let values = "contexts/local/values.yaml";
    let text = s.text(values);
    s.open(values, &text);
    let provider = s.at("textDocument/hover", values, 0, 3);
    let (line, _) = place_of(&text, "cluster:");
    let cluster = s.at("textDocument/hover", values, line, 2);
    expected::matches("hover-values-key", &json!([provider, cluster]), &s.root);
    // A value, and a key the schema does not declare: nothing.
    assert_eq!(s.at("textDocument/hover", values, 0, 12), Value::Null);
    let (line, _) = place_of(&text, "dns:");
    assert_eq!(s.at("textDocument/hover", values, line, 1), Value::Null);
    // Nested keys, in the editor's unsaved text.
    let mut s = Session::over(&examples().join("windsor-v0.9"));
    let edited = "platform: docker\nworkers:\n  count: 3\n";
    s.open(values, edited);
    let count = s.at("textDocument/hover", values, 2, 4);
    expected::matches("hover-values-nested-key", &count, &s.root);
}

#[test]
fn hover_on_a_core_template_values_key_follows_its_refs() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    let values = "contexts/lab/values.yaml";
    std::fs::create_dir_all(s.path("contexts/lab")).unwrap();
    let text = "id: lab\nplatform: metal\nsecrets:\n  onepassword:\n    vaults: {}\n";
    std::fs::write(s.path(values), text).unwrap();
    s.open(values, text);
    let id = s.at("textDocument/hover", values, 0, 1);
    let platform = s.at("textDocument/hover", values, 1, 1);
    let vaults = s.at("textDocument/hover", values, 4, 6);
    expected::matches("core-values-hover", &json!([id, platform, vaults]), &s.root);
}
