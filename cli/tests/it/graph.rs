//! `bpvm graph` on the shipped examples, compared with the drawings in
//! `tests/graph/` (Mermaid and DOT); components a `when` kept out drawn
//! dimmed with `--all`; the same text on every run.

use crate::support::{self, bpvm};
use std::path::Path;

fn graph(args: &[&str]) -> String {
    let out = bpvm()
        .arg("graph")
        .args(args)
        .current_dir(support::repo())
        .env_remove("WINDSOR_CONTEXT")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn expected(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/graph").join(name)).unwrap()
}

#[test]
fn the_examples_are_drawn_as_expected() {
    for (args, file) in [
        (&["--project", "examples/windsor"][..], "windsor.mmd"),
        (&["--project", "examples/windsor", "--format", "dot"], "windsor.dot"),
        (&["examples/bluelink/blueprint.yaml"], "bluelink.mmd"),
        (&["examples/bluelink/blueprint.yaml", "--format", "dot"], "bluelink.dot"),
    ] {
        let drawn = graph(args);
        assert_eq!(drawn, expected(file), "bpvm graph {}", args.join(" "));
        assert_eq!(graph(args), drawn, "a second run differs");
    }
}

#[test]
fn all_draws_what_a_when_kept_out() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
    std::fs::create_dir_all(p.join("contexts/local")).unwrap();
    std::fs::write(p.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(p.join("contexts/local/values.yaml"), "provider: aws\n").unwrap();
    std::fs::write(
        p.join("contexts/_template/facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform:\n- {name: vpc, path: vpc}\n\
         - {name: eks, path: eks, dependsOn: [vpc]}\n- {name: gke, path: gke, when: provider == 'gcp'}\n",
    )
    .unwrap();
    std::fs::write(
        p.join("contexts/_template/facets/gcp.yaml"),
        "kind: Facet\nmetadata: {name: gcp}\nwhen: provider == 'gcp'\nkustomize:\n- {name: gcs, path: gcs}\n",
    )
    .unwrap();
    let project = p.to_str().unwrap();
    let plain = graph(&["--project", project]);
    assert_eq!(
        plain,
        "flowchart LR\n  subgraph terraform[\"terraform\"]\n    n0[\"vpc\"]\n    n1[\"eks\"]\n  end\n  n0 --> n1\n"
    );
    let all = graph(&["--project", project, "--all"]);
    // The facet left out first, then the component left out by its own `when`.
    assert!(all.contains("    n3[\"gke\"]\n"), "{all}");
    assert!(
        all.contains("  subgraph kustomize[\"kustomize\"]\n    n2[\"gcs\"]\n  end\n"),
        "{all}"
    );
    assert!(
        all.contains(
            "  %% terraform gke: excluded by `provider == 'gcp'` (base, contexts/_template/facets/base.yaml)\n"
        ),
        "{all}"
    );
    assert!(all.contains("  class n2 excluded\n  class n3 excluded\n"), "{all}");
    let dot = graph(&["--project", project, "--all", "--format", "dot"]);
    assert!(
        dot.contains("n3 [label=\"gke\", style=dashed, color=gray, fontcolor=gray, tooltip=\"excluded by `provider == 'gcp'` (base, contexts/_template/facets/base.yaml)\"];"),
        "{dot}"
    );
}

#[test]
fn a_graph_of_a_broken_blueprint_is_its_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bp.yaml");
    std::fs::write(
        &file,
        "version: 2025-11-02\nresources:\n  a: {type: t, spec: {x: '${values.nope}'}}\n",
    )
    .unwrap();
    let out = bpvm().arg("graph").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bp.yaml:3:") && err.contains("resources.a.spec.x"),
        "{err}"
    );
}

/// A blueprint in the `.bp` language: values, a data source, a child
/// (itself `.bp`), `dependsOn`, a label selector, operators.
const ORDERS_BP: &str = r#"version "2025-11-02"
variable region: string { default = "eu-west-1" }
value prefix: string { value = "app-${variables.region}" }
data network: aws/vpc {
  filter "tags" has key "prod"
  export vpcId: string
}
include net "net.bp" {
  variables { region = variables.region }
}
resource table: aws/dynamodb/table {
  metadata { labels = { app = "orders" } }
  spec { name = "${values.prefix}-orders" }
}
resource fn: aws/lambda/function {
  dependsOn = [table]
  select by label { app = "orders" }
  spec {
    tableName = table.spec.name
    vpc = datasources.network.vpcId
    subnet = children.net.subnetId
    upper = to_upper(values.prefix) == "X"
  }
}
"#;

/// [`ORDERS_BP`] as a YAML author writes it.
const ORDERS_YAML: &str = r#"version: 2025-11-02
variables:
  region: {type: string, default: eu-west-1}
values:
  prefix: {type: string, value: "app-${variables.region}"}
datasources:
  network:
    type: aws/vpc
    filter: {field: tags, operator: has key, search: prod}
    exports: {vpcId: {type: string}}
include:
  net: {path: net.bp, variables: {region: "${variables.region}"}}
resources:
  table:
    type: aws/dynamodb/table
    metadata: {labels: {app: orders}}
    spec: {name: "${values.prefix}-orders"}
  fn:
    type: aws/lambda/function
    dependsOn: [table]
    linkSelector: {byLabel: {app: orders}}
    spec:
      tableName: ${resources.table.spec.name}
      vpc: ${datasources.network.vpcId}
      subnet: ${children.net.subnetId}
      upper: ${eq(to_upper(values.prefix), "X")}
"#;

#[test]
fn a_bp_blueprint_is_drawn_as_its_yaml_twin() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    write("orders.bp", ORDERS_BP);
    write("orders.yaml", ORDERS_YAML);
    write(
        "net.bp",
        "version \"2025-11-02\"\nvariable region: string {}\nresource subnet: aws/ec2/subnet {\n  spec { region = variables.region }\n}\nexport subnetId: string { field = subnet.spec.region }\n",
    );
    let draw = |file: &str, format: &str| {
        let out = bpvm()
            .arg("graph")
            .arg(dir.path().join(file))
            .args(["--format", format])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    for format in ["mermaid", "dot"] {
        let drawn = draw("orders.bp", format);
        assert_eq!(drawn, draw("orders.yaml", format), "--format {format}");
        assert!(drawn.contains("table") && drawn.contains("net"), "{drawn}");
    }
}
