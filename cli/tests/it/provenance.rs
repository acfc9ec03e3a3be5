//! Where values come from: `bpvm explain` on a project written here (by
//! the v0.9 rules) says where every value it read came from (a values
//! file's line:column, a schema default, windsor.yaml, a config block, a
//! rule that derived it), explains a value of the context itself, names
//! an unknown path's closest neighbour, and traces a render that fails;
//! `bpvm values` prints the context's values with the same origins.

use crate::support::bpvm;
use std::path::{Path, PathBuf};
use std::process::Output;

const SCHEMA: &str = "\
type: object
properties:
  gitops:
    type: object
    properties:
      mode:
        type: string
        default: push
  token:
    type: string
    sensitive: true
";

const BASE: &str = "\
kind: Facet
metadata:
  name: platform-base
config:
  - name: network
    value:
      cidr: 10.0.0.0/16
terraform:
  - name: cluster
    path: cluster
    inputs:
      vpc_id: ${network.cidr}
      workers: ${cluster.workers.count}
      mode: ${gitops.mode}
      region: ${region}
      driver: ${cluster.driver}
";

const NEEDS: &str = "\
kind: Facet
metadata:
  name: needs
when: platform == 'aws'
requires:
  - paths: [cluster.endpoint]
    message: Set cluster.endpoint to the API address.
terraform:
  - name: dns
    path: dns
    inputs:
      endpoint: ${cluster.endpoint}
";

/// A project whose context `aws` sets its values in values.yaml and in
/// windsor.yaml; with `needs`, a facet whose requirement it does not meet.
fn project(dir: &Path, needs: bool) -> PathBuf {
    let facets = dir.join("contexts/_template/facets");
    std::fs::create_dir_all(&facets).unwrap();
    std::fs::create_dir_all(dir.join("contexts/aws")).unwrap();
    std::fs::write(
        dir.join("windsor.yaml"),
        "version: v1alpha1\ncontexts:\n  aws:\n    region: eu-west-1\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("contexts/aws/values.yaml"),
        "platform: aws\ncluster:\n  workers:\n    count: 3\ntoken: s3cret\n",
    )
    .unwrap();
    std::fs::write(dir.join("contexts/_template/schema.yaml"), SCHEMA).unwrap();
    std::fs::write(facets.join("platform-base.yaml"), BASE).unwrap();
    if needs {
        std::fs::write(facets.join("needs.yaml"), NEEDS).unwrap();
    }
    dir.to_path_buf()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    bpvm()
        .args(args)
        .current_dir(dir)
        .args(["--project", ".", "--context", "aws", "--rules", "v0.9"])
        .env_remove("WINDSOR_CONTEXT")
        .output()
        .unwrap()
}

fn stdout(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_value_read_says_where_it_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let p = project(dir.path(), false);
    for (input, read) in [
        (
            "vpc_id",
            "reads network.cidr = \"10.0.0.0/16\"  (config block network (contexts/_template/facets/platform-base.yaml:7:7))",
        ),
        (
            "workers",
            "reads cluster.workers.count = 3  (contexts/aws/values.yaml:4:5)",
        ),
        (
            "mode",
            "reads gitops.mode = \"push\"  (schema default (contexts/_template/schema.yaml:8:9))",
        ),
        ("region", "reads region = \"eu-west-1\"  (windsor.yaml:4:5)"),
        (
            "driver",
            "reads cluster.driver = \"eks\"  (derived: platform aws implies this cluster driver)",
        ),
    ] {
        let text = stdout(&p, &["explain", &format!("terraform.cluster.inputs.{input}")]);
        assert!(text.contains(&format!("        {read}\n")), "{input}: {text}");
    }
}

#[test]
fn a_value_of_the_context_is_explained_from_where_it_is_set() {
    let dir = tempfile::tempdir().unwrap();
    let p = project(dir.path(), false);
    assert_eq!(
        stdout(&p, &["explain", "gitops.mode"]),
        "gitops.mode = \"push\"\n  from schema default (contexts/_template/schema.yaml:8:9)\n"
    );
    assert_eq!(
        stdout(&p, &["explain", "cluster.workers"]),
        "cluster.workers = {\"count\":3,\"nodes\":{}}\n\
         \x20 cluster.workers.count from contexts/aws/values.yaml:4:5\n\
         \x20 cluster.workers.nodes from derived: a node pool's nodes are always a map\n"
    );
    let block = stdout(&p, &["explain", "network.cidr"]);
    assert!(
        block.starts_with(
            "network.cidr = \"10.0.0.0/16\"\n  from config block network (contexts/_template/facets/platform-base.yaml:7:7)\n  ✓ facet platform-base"
        ),
        "{block}"
    );
}

#[test]
fn an_unknown_path_is_an_error_naming_the_closest() {
    let dir = tempfile::tempdir().unwrap();
    let p = project(dir.path(), false);
    for (path, message) in [
        (
            "terraform.cluster.inputs.vpcid",
            "error: terraform.cluster.inputs.vpcid: terraform component \"cluster\" has no input \"vpcid\" (did you mean \"vpc_id\"?)\n",
        ),
        (
            "terraform.clustr.inputs.vpc_id",
            "error: terraform.clustr.inputs.vpc_id: terraform component \"clustr\" not found in the blueprint (did you mean \"cluster\"?)\n",
        ),
        (
            "gitops.mod",
            "error: gitops.mod: context \"aws\" has no value \"gitops.mod\": not in its values, the schema or a config block (did you mean \"gitops.mode\"?)\n",
        ),
        (
            "cluster.wrkers.count",
            "error: cluster.wrkers.count: context \"aws\" has no value \"cluster.wrkers.count\": not in its values, the schema or a config block (did you mean \"cluster.workers.count\"?)\n",
        ),
        (
            "network.cdr",
            "error: network.cdr: config block \"network\" has no key \"cdr\" (did you mean \"cidr\"?)\n",
        ),
    ] {
        let out = run(&p, &["explain", path]);
        assert_eq!(out.status.code(), Some(1), "{path}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), message, "{path}");
        assert!(out.stdout.is_empty(), "{path}");
    }
}

#[test]
fn a_failed_render_is_traced_as_far_as_it_got_and_warned() {
    let dir = tempfile::tempdir().unwrap();
    let p = project(dir.path(), true);
    let out = run(&p, &["explain", "terraform.cluster.inputs.workers"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "terraform.cluster.inputs.workers = 3\n\
         \x20 ! the render failed; this is the trace as far as it got (the failure is on stderr)\n\
         \x20 ! requires: facet needs (contexts/_template/facets/needs.yaml:6:5) needs cluster.endpoint, which is not set\n\
         \x20     Set cluster.endpoint to the API address.\n\
         \x20 ✓ facet platform-base (contexts/_template/facets/platform-base.yaml:13:7, ordinal 199, merge)\n\
         \x20     ${cluster.workers.count}\n\
         \x20       reads cluster.workers.count = 3  (contexts/aws/values.yaml:4:5)\n\
         \x20     gives 3\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "warning: the following required values are not set in values.yaml:\n\n  - cluster.endpoint\n\nNotes:\n\n  cluster.endpoint:\n    Set cluster.endpoint to the API address.\n"
    );
    // The facet waiting for its requirement is traced as it would give.
    let waiting = stdout(&p, &["explain", "terraform.dns.inputs.endpoint"]);
    assert!(waiting.contains("  ✓ facet needs (contexts/_template/facets/needs.yaml:12:7, ordinal 0, merge)\n      when `platform == 'aws'`: true\n"), "{waiting}");
    let strict = run(&p, &["explain", "--strict", "terraform.cluster.inputs.workers"]);
    assert_eq!(strict.status.code(), Some(1));
    let said = String::from_utf8_lossy(&strict.stderr);
    assert!(said.starts_with("error: the following required values"), "{said}");
    assert!(said.contains("(an error by --strict)"), "{said}");
}

/// `bpvm values` output without the lines naming the scratch folder.
fn portable(text: &str) -> String {
    text.lines()
        .filter(|l| {
            !l.starts_with("context_path:") && !l.starts_with("project_root:") && !l.starts_with("projectName:")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn values_prints_each_leaf_with_its_origin_as_a_comment() {
    let dir = tempfile::tempdir().unwrap();
    let p = project(dir.path(), false);
    assert_eq!(
        portable(&stdout(&p, &["values"])),
        "gitops:\n\
         \x20 mode: push  # schema default (contexts/_template/schema.yaml:8:9)\n\
         platform: aws  # contexts/aws/values.yaml:1:1\n\
         region: eu-west-1  # windsor.yaml:4:5\n\
         cluster:\n\
         \x20 workers:\n\
         \x20   count: 3  # contexts/aws/values.yaml:4:5\n\
         \x20   nodes: {}  # derived: a node pool's nodes are always a map\n\
         \x20 driver: eks  # derived: platform aws implies this cluster driver\n\
         \x20 controlplanes:\n\
         \x20   nodes: {}  # derived: a node pool's nodes are always a map\n\
         token: <sensitive>  # contexts/aws/values.yaml:5:1\n\
         context: aws  # derived: the context's name\n\
         workstation:\n\
         \x20 arch: amd64  # derived: the workstation's architecture, fixed (Windsor reads the host's)\n"
    );
    assert_eq!(
        stdout(&p, &["values", "--show-secrets", "token"]),
        "token: s3cret  # contexts/aws/values.yaml:5:1\n"
    );
    let out = run(&p, &["values", "cluster.wrkers"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: the context has no value \"cluster.wrkers\" (did you mean \"cluster.workers\"?)\n"
    );
}

#[test]
fn values_as_json_give_every_leaf_with_its_value_and_origin() {
    let dir = tempfile::tempdir().unwrap();
    let p = project(dir.path(), false);
    let text = stdout(&p, &["values", "-o", "json", "cluster.workers.count"]);
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        doc,
        serde_json::json!({
            "context": "aws",
            "values": {"cluster": {"workers": {"count": 3}}},
            "leaves": [{
                "path": "cluster.workers.count",
                "value": 3,
                "origin": {
                    "kind": "file",
                    "file": "contexts/aws/values.yaml",
                    "line": 4,
                    "column": 5,
                    "text": "contexts/aws/values.yaml:4:5"
                }
            }]
        })
    );
    let all: serde_json::Value = serde_json::from_str(&stdout(&p, &["values", "-o", "json"])).unwrap();
    let leaves = all["leaves"].as_array().unwrap();
    let of = |path: &str| leaves.iter().find(|l| l["path"] == path).unwrap()["origin"].clone();
    assert_eq!(of("gitops.mode")["kind"], "schema-default");
    assert_eq!(of("token")["kind"], "file");
    assert_eq!(all["values"]["token"], "<sensitive>");
    assert_eq!(
        of("cluster.driver"),
        serde_json::json!({"kind": "derived", "rule": "platform aws implies this cluster driver", "text": "derived: platform aws implies this cluster driver"})
    );
}

#[test]
fn values_of_the_shipped_example_by_the_seed_rules() {
    let out = bpvm()
        .args(["values", "--project", "examples/windsor", "cluster"])
        .current_dir(crate::support::repo())
        .env_remove("WINDSOR_CONTEXT")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        // Each file as it opens from where bpvm ran.
        "cluster:\n  workers:\n    count: 3  # examples/windsor/contexts/local/values.yaml:6:13\n  name: sandbox  # examples/windsor/contexts/local/values.yaml:5:3\n"
    );
}
