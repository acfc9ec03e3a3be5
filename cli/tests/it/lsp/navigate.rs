//! Go to definition and find references over the protocol: on the
//! shipped examples (a Windsor project and a Bluelink blueprint) and on a
//! copy of the Windsor core template (v0.7.0, from the corpus beside the
//! repository). Each test gathers its answers, by case, in one expected
//! file.

use super::client::uri;
use super::expected;
use super::session::{Session, place_of};
use crate::support::examples;
use serde_json::{Value, json};
use std::time::Instant;

const AWS: &str = "contexts/_template/facets/provider-aws.yaml";
const DEV: &str = "contexts/_template/facets/option-dev.yaml";
const BASE: &str = "contexts/_template/blueprint.yaml";

/// The definition of what is `skip` UTF-16 units into the first `needle`
/// of `file` (as on disk).
fn definition(s: &mut Session, file: &str, needle: &str, skip: u32) -> Value {
    let (line, character) = place_of(&s.text(file), needle);
    s.at("textDocument/definition", file, line, character + skip)
}

/// The references to what is `skip` UTF-16 units into the first `needle`
/// of `file`, its declarations too when `declarations` is set.
fn references(s: &mut Session, file: &str, needle: &str, skip: u32, declarations: bool) -> Value {
    let (line, character) = place_of(&s.text(file), needle);
    let params = json!({
        "textDocument": { "uri": uri(&s.path(file)) },
        "position": { "line": line, "character": character + skip },
        "context": { "includeDeclaration": declarations },
    });
    s.client.request("textDocument/references", params)
}

/// Opens each of `files` as it is on disk.
fn open_all(s: &mut Session, files: &[&str]) {
    for file in files {
        let text = s.text(file);
        s.open(file, &text);
    }
}

#[test]
fn windsor_definitions_go_to_values_defaults_blocks_and_components() {
    let mut s = Session::over(&examples().join("windsor"));
    open_all(&mut s, &[AWS, DEV, BASE]);
    let found = json!({
        "value path, set in values.yaml": definition(&mut s, AWS, "cluster.workers.count}", 9),
        "condition, set in values.yaml": definition(&mut s, AWS, "provider == 'aws'", 2),
        "config block use": definition(&mut s, AWS, "cluster_config.subnets", 3),
        "dependsOn, a facet's component": definition(&mut s, AWS, "dependsOn: [network]", 13),
        "dependsOn, the base blueprint's component": definition(&mut s, AWS, "dependsOn: [backend]", 13),
        "dependsOn, a kustomization two facets declare": definition(&mut s, DEV, "dependsOn: [ingress]", 13),
        "a declaration": definition(&mut s, AWS, "name: network", 7),
    });
    expected::matches("definition-windsor", &found, &s.root);
    // Nothing there, a value a rule derives, a document not open.
    assert_eq!(definition(&mut s, AWS, "kind: Facet", 1), Value::Null);
    assert_eq!(definition(&mut s, AWS, "path: network/aws-vpc", 8), Value::Null);
    assert_eq!(definition(&mut s, BASE, "${context}", 3), Value::Null);
    let closed = "contexts/_template/facets/config-cluster.yaml";
    assert_eq!(definition(&mut s, closed, "cluster.name", 2), Value::Null);
}

#[test]
fn a_value_only_the_schema_defaults_goes_to_the_default() {
    let mut s = Session::over(&examples().join("windsor"));
    std::fs::write(
        s.path("contexts/local/values.yaml"),
        "provider: aws\ncluster: {name: sandbox}\n",
    )
    .unwrap();
    open_all(&mut s, &[AWS]);
    let found = definition(&mut s, AWS, "cluster.workers.count}", 17);
    expected::matches("definition-schema-default", &found, &s.root);
}

#[test]
fn windsor_references_of_components_and_config_blocks() {
    let mut s = Session::over(&examples().join("windsor"));
    open_all(&mut s, &[AWS, DEV]);
    let found = json!({
        "a component, from its declaration": references(&mut s, AWS, "name: network", 7, true),
        "a component, without its declaration": references(&mut s, AWS, "name: network", 7, false),
        "a kustomization, from a dependsOn": references(&mut s, DEV, "dependsOn: [ingress]", 13, true),
        "a config block, from a use": references(&mut s, AWS, "cluster_config.cluster_name", 2, true),
    });
    expected::matches("references-windsor", &found, &s.root);
    // A value path, nothing, a document not open: no references.
    assert_eq!(references(&mut s, AWS, "cluster.workers.count}", 9, true), json!([]));
    assert_eq!(references(&mut s, AWS, "kind: Facet", 1, true), json!([]));
    let closed = "contexts/_template/facets/config-cluster.yaml";
    assert_eq!(references(&mut s, closed, "name: cluster_config", 7, true), json!([]));
}

#[test]
fn bluelink_references_go_to_their_declarations() {
    let mut s = Session::over(&examples().join("bluelink"));
    let file = "blueprint.yaml";
    open_all(&mut s, &[file]);
    let found = json!({
        "variable": definition(&mut s, file, "${variables.environment}", 13),
        "value": definition(&mut s, file, "${values.prefix}", 10),
        "data source": definition(&mut s, file, "${datasources.network.vpc}", 2),
        "resource, read past an index": definition(&mut s, file, "${resources.queues[0]", 14),
        "child": definition(&mut s, file, "${children.storage.tableName}", 13),
        "child's export": definition(&mut s, file, "${children.storage.tableName}", 22),
        "export's field": definition(&mut s, file, "field: resources.saveOrderFunction", 20),
    });
    expected::matches("definition-bluelink", &found, &s.root);
    assert_eq!(definition(&mut s, file, "version:", 1), Value::Null);
    assert_eq!(definition(&mut s, file, "${elem}", 3), Value::Null);
    assert_eq!(
        references(&mut s, file, "${variables.environment}", 13, true),
        json!([])
    );
}

#[test]
fn the_core_template_navigates_blocks_systems_and_components() {
    let Some(mut s) = Session::over_core_template() else {
        return;
    };
    std::fs::create_dir_all(s.path("contexts/local")).unwrap();
    std::fs::write(
        s.path("contexts/local/values.yaml"),
        "platform: docker\ntopology: single-node\nephemeral: true\n",
    )
    .unwrap();
    let talos = "contexts/_template/facets/config-talos.yaml";
    let incus = "contexts/_template/facets/platform-incus.yaml";
    let cni = "contexts/_template/facets/option-cni.yaml";
    let observability = "contexts/_template/facets/addon-observability.yaml";
    let workstation = "contexts/_template/facets/option-workstation.yaml";
    let base = "contexts/_template/facets/platform-base.yaml";
    let aws = "contexts/_template/facets/platform-aws.yaml";
    open_all(&mut s, &[talos, incus, cni, observability, workstation, base, aws]);
    let found = json!({
        "value path, set in values.yaml": definition(&mut s, aws, "${!(ephemeral", 5),
        "a value a config block normalises": definition(&mut s, workstation, "when: platform == 'incus'", 7),
        "a config block over a value": definition(&mut s, talos, "topology == 'single-node'}", 1),
        "value path, a schema default": definition(&mut s, observability, "${timezone}", 4),
        "config block use": definition(&mut s, incus, "${talos_common.controlplane_disks}", 5),
        "dependsOn, a terraform component": definition(&mut s, cni, "- cluster", 3),
        "dependsOn, a flux system": definition(&mut s, observability, "- csi", 3),
        "dependsOn, a flux system's kustomization": definition(&mut s, cni, "- cni-install", 5),
    });
    expected::matches("definition-core", &found, &s.root);
    let found = json!({
        "a config block": references(&mut s, talos, "name: talos_common", 9, false),
        "a flux system": references(&mut s, cni, "- cni-install", 3, true),
        "a config block read over lines": references(&mut s, base, "name: topology", 7, true),
    });
    expected::matches("references-core", &found, &s.root);
    // Each answer loads the project and reads its facets again: timed
    // (printed, not asserted: the machine running the tests may be loaded).
    let mut times = [Vec::new(), Vec::new()];
    for _ in 0..10 {
        let start = Instant::now();
        definition(&mut s, incus, "${talos_common.controlplane_disks}", 5);
        times[0].push(start.elapsed());
        let start = Instant::now();
        references(&mut s, talos, "name: talos_common", 9, true);
        times[1].push(start.elapsed());
    }
    let [definitions, references] = times.map(|mut t| {
        t.sort();
        t[t.len() / 2]
    });
    eprintln!("bpvm lsp on windsor-core-v0.7.0: definition {definitions:?}, references {references:?} (medians of 10)");
}
