//! Completion where a user types: value paths, config blocks and
//! functions in a facet's `${…}` and `when:`, field names at a facet's,
//! a flux system's and a test case's keys, references and functions in a
//! Bluelink substitution; on the shipped examples and on the Windsor core
//! template (v0.7.0, from the corpus beside the repository), each typed
//! into the open document and not saved.

use super::expected;
use super::session::{Session, place_of};
use crate::support::examples;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const FACET: &str = "contexts/_template/facets/provider-aws.yaml";

/// `text` with `typed` as a new line after the first line holding
/// `after`, and the place at the end of the new line.
fn typed_after(text: &str, after: &str, typed: &str) -> (String, u32, u32) {
    let (line, _) = place_of(text, after);
    let mut lines: Vec<&str> = text.split('\n').collect();
    lines.insert(line as usize + 1, typed);
    (lines.join("\n"), line + 1, typed.encode_utf16().count() as u32)
}

/// The completions at the end of `typed`, typed unsaved into `file`
/// after the line holding `after`.
fn complete(s: &mut Session, file: &str, after: &str, typed: &str) -> Value {
    let (text, line, character) = typed_after(&s.text(file), after, typed);
    s.open(file, &text);
    s.at("textDocument/completion", file, line, character)
}

#[test]
fn a_facets_expressions_complete_schema_paths_config_blocks_and_functions() {
    let mut s = Session::over(&examples().join("windsor"));
    let after = "node_group_size:";
    let found = json!({
        "after cluster.": complete(&mut s, FACET, after, "      zone: ${cluster."),
        "after cluster.workers. in a when": complete(&mut s, FACET, after, "      when: dev && cluster.workers.c"),
        "a config block's name": complete(&mut s, FACET, after, "      zone: ${cluster_c"),
        "a config block's keys": complete(&mut s, FACET, after, "      zone: ${cluster_config.s"),
        "a value Windsor sets": complete(&mut s, FACET, after, "      zone: ${project_r"),
        "a function": complete(&mut s, FACET, after, "      zone: ${upper(spli"),
        "a function taking a predicate": complete(&mut s, FACET, after, "      zone: ${len(filt"),
        "after a call": complete(&mut s, FACET, after, "      zone: ${keys(cluster)."),
        "in a string": complete(&mut s, FACET, after, "      zone: ${'cluster."),
    });
    expected::matches("completion-facet-expressions", &found, &s.root);
}

#[test]
fn a_config_block_typed_into_another_facet_and_not_saved_is_offered() {
    let mut s = Session::over(&examples().join("windsor"));
    let blocks = "contexts/_template/facets/config-cluster.yaml";
    let text = format!("{}  - name: zone_config\n    region: eu-west-1\n", s.text(blocks));
    s.open(blocks, &text);
    let found = complete(&mut s, FACET, "node_group_size:", "      zone: ${zone_config.");
    let labels: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    assert_eq!(labels, ["region"], "{found}");
    // Closed unsaved, the block is gone.
    let uri = super::client::uri(&s.path(blocks));
    s.client
        .notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    let found = complete(&mut s, FACET, "node_group_size:", "      zone: ${zone_config.");
    assert_eq!(found, json!([]));
}

#[test]
fn keys_complete_the_fields_of_components_and_test_cases() {
    let mut s = Session::over(&examples().join("windsor"));
    // The fields the mapping has already are left out.
    let component = complete(&mut s, FACET, "path: network/aws-vpc", "    ");
    let top = complete(&mut s, FACET, "kind: Facet", "");
    let test = "contexts/_template/tests/aws.test.yaml";
    let case = complete(&mut s, test, "  - name: no provider", "    ");
    let found = json!({ "component": component, "facet": top, "test case": case });
    expected::matches("completion-fields", &found, &s.root);
}

#[test]
fn a_v0_9_template_completes_block_values_schema_paths_and_flux_systems() {
    let mut s = Session::over(&examples().join("windsor-v0.9"));
    let facet = "contexts/_template/facets/platform-base.yaml";
    let after = "replicas: ${sizing.replicas}";
    let block = complete(&mut s, facet, after, "      zone: ${sizing.");
    let schema = complete(&mut s, facet, after, "      zone: ${network.");
    let text = format!("{}flux:\n  - name: monitoring\n    ", s.text(facet));
    s.open(facet, &text);
    let last = text.split('\n').count() as u32 - 1;
    let flux = s.at("textDocument/completion", facet, last, 4);
    let found = json!({ "a config block's value": block, "after network.": schema, "a flux system": flux });
    expected::matches("completion-v09", &found, &s.root);
}

#[test]
fn plain_text_and_documents_not_open_have_no_completions() {
    let mut s = Session::over(&examples().join("windsor"));
    let text = s.text(FACET);
    s.open(FACET, &text);
    let (line, character) = place_of(&text, "GitOps on AWS");
    assert_eq!(s.at("textDocument/completion", FACET, line, character), json!([]));
    // A value after its key, and a comment-free line past the end.
    let (line, character) = place_of(&text, "network/aws-vpc");
    assert_eq!(s.at("textDocument/completion", FACET, line, character + 3), json!([]));
    assert_eq!(s.at("textDocument/completion", FACET, 999, 0), json!([]));
    let closed = "contexts/_template/facets/config-cluster.yaml";
    assert_eq!(s.at("textDocument/completion", closed, 7, 4), json!([]));
}

#[test]
fn completion_parameters_that_do_not_parse_are_invalid_params() {
    let mut s = Session::over(&examples().join("windsor"));
    let response = s.client.call("textDocument/completion", json!({ "position": "here" }));
    assert_eq!(response["error"]["code"], -32602, "{response}");
    let message = response["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with("textDocument/completion: the parameters do not parse: invalid type: string \"here\", expected struct Position"),
        "{message}"
    );
}

#[test]
fn a_blueprints_substitutions_complete_references_and_core_functions() {
    let mut s = Session::over(&examples().join("bluelink"));
    let file = "blueprint.yaml";
    let after = "queueName:";
    let found = json!({
        "references": complete(&mut s, file, after, "      other: ${"),
        "after resources.": complete(&mut s, file, after, "      other: ${resources."),
        "a data source's exports": complete(&mut s, file, after, "      other: ${datasources.network."),
        "a core function": complete(&mut s, file, after, "      other: ${jsond"),
        "a resource's field": complete(&mut s, file, "  queues:", "    dep"),
    });
    expected::matches("completion-blueprint", &found, &s.root);
}

#[test]
fn the_core_template_completes_its_schema_flux_systems_and_test_cases() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    let facet = "contexts/_template/facets/option-cni.yaml";
    let after = "operator_replicas:";
    let schema = complete(&mut s, facet, after, "      x: ${cluster.");
    let block = complete(&mut s, facet, after, "      x: ${cluster_endpoint_fallback.");
    let function = complete(&mut s, facet, after, "      x: ${terraform_o");
    let flux = complete(&mut s, facet, "  - name: gateway", "    ");
    let test = "contexts/_template/tests/option-cni.test.yaml";
    let case = complete(&mut s, test, "  - name: default config", "    ");
    let found = json!({
        "after cluster.": schema,
        "a config block's keys": block,
        "a host function": function,
        "a flux system": flux,
        "a test case": case,
    });
    expected::matches("completion-core", &found, &s.root);
    // How long a completion of the schema's paths takes (printed, not
    // asserted: the machine running the tests may be loaded).
    let (text, line, character) = typed_after(&s.text(facet), after, "      x: ${cluster.");
    s.open(facet, &text);
    let mut times: Vec<Duration> = (0..10)
        .map(|_| {
            let start = Instant::now();
            s.at("textDocument/completion", facet, line, character);
            start.elapsed()
        })
        .collect();
    times.sort();
    eprintln!(
        "bpvm lsp on windsor-core-v0.7.0: completion after `cluster.` {:?} (median of 10)",
        times[5]
    );
}
