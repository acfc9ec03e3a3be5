//! `bpvm explain PATH` on the shipped Windsor example and on a project
//! written here: every contribution in fold order with its place, its
//! conditions, what it gave and what its expression read; errors for paths
//! it does not know.

use crate::support::{self, bpvm};
use std::process::Output;

/// `bpvm explain --project . PATH` run in the project's folder (`project`,
/// from the repository's root): its files print as written in it.
fn explain(project: &str, path: &str) -> Output {
    bpvm()
        .args(["explain", "--project", ".", path])
        .current_dir(support::repo().join(project))
        .env_remove("WINDSOR_CONTEXT")
        .output()
        .unwrap()
}

fn stdout(project: &str, path: &str) -> String {
    let out = explain(project, path);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_later_facet_overrides_an_earlier_one() {
    assert_eq!(
        stdout("examples/windsor", "kustomize.ingress.substitutions.replicas"),
        "kustomize.ingress.substitutions.replicas = \"1\"\n\
         \x20 ↷ overridden: facet aws (contexts/_template/facets/provider-aws.yaml:35:7, ordinal 200, merge)\n\
         \x20     when `provider == 'aws'`: true\n\
         \x20     ${dev ? 1 : 3}\n\
         \x20       reads dev = true  (contexts/local/values.yaml:2:1)\n\
         \x20     gives 1\n\
         \x20 ✓ facet dev (contexts/_template/facets/option-dev.yaml:11:7, ordinal 300, merge)\n\
         \x20     when `dev == true`: true\n\
         \x20     gives \"1\"\n"
    );
}

#[test]
fn a_config_block_shows_what_its_expression_read() {
    assert_eq!(
        stdout("examples/windsor", "cluster_config.cluster_name"),
        "cluster_config.cluster_name = \"sandbox\"\n\
         \x20 from config block cluster_config (contexts/_template/facets/config-cluster.yaml:9:5)\n\
         \x20 ✓ facet cluster-config (contexts/_template/facets/config-cluster.yaml:9:5, ordinal 100, merge)\n\
         \x20     when `provider != 'none'`: true\n\
         \x20     ${cluster.name ?? context}\n\
         \x20       reads cluster.name = \"sandbox\"  (contexts/local/values.yaml:5:3)\n\
         \x20       reads context = \"local\"  (derived: the context's name)\n\
         \x20     gives \"sandbox\"\n"
    );
}

#[test]
fn list_contributions_all_count_and_deferred_values_say_so() {
    let components = stdout("examples/windsor", "kustomize.ingress.components");
    assert!(
        components.starts_with(
            "kustomize.ingress.components = [\"nginx\",\"nginx/dashboard\",\"nginx/debug\"]\n  ✓ facet aws"
        ),
        "{components}"
    );
    assert!(
        components.contains("  ✓ facet dev (contexts/_template/facets/option-dev.yaml:9:5, ordinal 300, merge)\n"),
        "{components}"
    );
    let deferred = stdout("examples/windsor", "terraform.gitops.inputs.webhook_url");
    assert!(
        deferred.starts_with("terraform.gitops.inputs.webhook_url = (deferred) \"${terraform_output("),
        "{deferred}"
    );
}

#[test]
fn excluded_contributions_say_which_condition_was_false() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
    std::fs::create_dir_all(p.join("contexts/local")).unwrap();
    std::fs::write(p.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(p.join("contexts/local/values.yaml"), "size: 2\n").unwrap();
    std::fs::write(
        p.join("contexts/_template/facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform:\n- name: eks\n  path: eks\n  inputs:\n    nodes: ${size + missing.count ?? 0}\n",
    )
    .unwrap();
    std::fs::write(
        p.join("contexts/_template/facets/option-big.yaml"),
        "kind: Facet\nmetadata: {name: big}\nwhen: size > 5\nterraform:\n- {name: eks, path: eks, inputs: {nodes: 10}}\n",
    )
    .unwrap();
    let text = stdout(p.to_str().unwrap(), "terraform.eks.inputs.nodes");
    assert_eq!(
        text,
        "terraform.eks.inputs.nodes = 2\n\
         \x20 ✓ facet base (contexts/_template/facets/base.yaml:7:5, ordinal 0, merge)\n\
         \x20     ${size + missing.count ?? 0}\n\
         \x20       reads size = 2  (contexts/local/values.yaml:1:1)\n\
         \x20       reads missing.count (not set)\n\
         \x20     gives 2\n\
         \x20 – excluded: facet big (contexts/_template/facets/option-big.yaml:5:35, ordinal 300, merge)\n\
         \x20     when `size > 5`: false\n\
         \x20     gives 10\n"
    );
}

#[test]
fn paths_it_does_not_know_are_errors() {
    for (path, message) in [
        (
            "terraform.cluster",
            "error: invalid terraform path \"terraform.cluster\": expected terraform.<id>.inputs.<key>\n",
        ),
        (
            "terraform.nope.inputs.x",
            "error: terraform.nope.inputs.x: terraform component \"nope\" not found in the blueprint\n",
        ),
        (
            "kustomize.ingress.path",
            "error: invalid kustomize path \"kustomize.ingress.path\": expected kustomize.<name>.substitutions.<key> or kustomize.<name>.components\n",
        ),
        (
            "nope.x",
            "error: nope.x: context \"local\" has no value \"nope.x\": not in its values, the schema or a config block\n",
        ),
        (
            "a..b",
            "error: invalid path \"a..b\": expected terraform.<id>.inputs.<key>, kustomize.<name>.substitutions.<key>, kustomize.<name>.components, flux.<name>.dependsOn, flux.<name>.install.components, flux.<name>.install.substitutions.<key>, substitutions.<key>, configMaps.values-common.<key>, <config block>.<key> or a value of the context (cluster.workers.count)\n",
        ),
    ] {
        let out = explain("examples/windsor", path);
        assert_eq!(out.status.code(), Some(1), "{path}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), message, "{path}");
        assert!(out.stdout.is_empty());
    }
}

fn bluelink(args: &[&str]) -> Output {
    bpvm()
        .arg("explain")
        .args(args)
        .args([
            "--vars",
            "examples/bluelink/blueprint.vars.yaml",
            "--datasources",
            "examples/bluelink/blueprint.datasources.yaml",
        ])
        .current_dir(support::repo())
        .output()
        .unwrap()
}

#[test]
fn a_bluelink_value_shows_its_substitutions_and_what_they_read() {
    let out = bluelink(&[
        "resources.saveOrderFunction.spec.environment",
        "examples/bluelink/blueprint.yaml",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.ends_with(
            "  resources.saveOrderFunction.spec.environment.variables.DATABASE_URL (examples/bluelink/blueprint.yaml:79:25)\n\
             \x20     postgres://orders:${variables.databasePassword}@${children.storage.endpoint}/orders\n\
             \x20       reads variables.databasePassword = \"********\"\n\
             \x20       reads children.storage.endpoint (deferred: ${resources.database.spec.endpoint})\n\
             \x20 resources.saveOrderFunction.spec.environment.variables.REGION (examples/bluelink/blueprint.yaml:80:19)\n\
             \x20     ${variables.region}\n\
             \x20       reads variables.region = \"eu-west-1\"\n"
        ),
        "{text}"
    );
    // An item of `each` is explained by the substitution written once for all.
    let item = bluelink(&["resources.queues[1].spec.queueName", "examples/bluelink/blueprint.yaml"]);
    assert_eq!(
        String::from_utf8_lossy(&item.stdout),
        "resources.queues[1].spec.queueName = \"orders-production-paid\"\n\
         \x20 resources.queues.spec.queueName (examples/bluelink/blueprint.yaml:60:18)\n\
         \x20     ${values.prefix}-${elem}\n\
         \x20       reads values.prefix = \"orders-production\"\n\
         \x20       reads elem = \"paid\"\n"
    );
}

#[test]
fn a_bluelink_path_that_is_not_there_is_an_error() {
    let out = bluelink(&["resources.nope.spec", "examples/bluelink/blueprint.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: \"resources.nope.spec\" is not in the blueprint (resources has no \"nope\", or it has no such field)\n"
    );
    // An index past the items of an `each` names nothing either.
    let past = bluelink(&["resources.queues[9].spec.queueName", "examples/bluelink/blueprint.yaml"]);
    assert_eq!(past.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&past.stderr),
        "error: resources.queues[9] is not in the blueprint: resources.queues has 3 items (each), queues[0] to queues[2]\n"
    );
    let flags = bpvm()
        .args(["explain", "values.prefix", "--var", "a=1"])
        .current_dir(support::repo())
        .output()
        .unwrap();
    assert_eq!(flags.status.code(), Some(2));
}

/// A Windsor v0.9 project: a flux system defined by two facets (one kept
/// out by its condition), and the facets' substitutions.
fn v09_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
    std::fs::create_dir_all(p.join("contexts/local")).unwrap();
    std::fs::write(p.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
    support::v09_form(p);
    std::fs::write(
        p.join("contexts/local/values.yaml"),
        "domain: example.com\nreplicas: 2\n",
    )
    .unwrap();
    let head = "kind: Facet\napiVersion: blueprints.windsorcli.dev/v1alpha1\n";
    std::fs::write(
        p.join("contexts/_template/facets/option-web.yaml"),
        format!(
            "{head}metadata:\n  name: web\nsubstitutions:\n  domain: ${{domain}}\nflux:\n  - name: web\n    dependsOn: [dns-install]\n    \
             install:\n      components: [nginx]\n      substitutions:\n        replicas: ${{string(replicas)}}\n    \
             resources:\n      - name: app\n        components: [app, '${{replicas > 1 ? \"app/ha\" : \"app/single\"}}']\n  \
             - name: dns\n    install:\n      components: [coredns]\n  \
             - name: policy\n    globalDependency: true\n    install:\n      components: [kyverno]\n"
        ),
    )
    .unwrap();
    std::fs::write(
        p.join("contexts/_template/facets/option-big.yaml"),
        format!("{head}metadata:\n  name: big\nwhen: replicas > 5\nflux:\n  - name: web\n    install:\n      components: [nginx/ha]\n"),
    )
    .unwrap();
    dir
}

#[test]
fn flux_systems_and_substitutions_are_explained() {
    let dir = v09_project();
    let project = dir.path().to_str().unwrap();
    assert_eq!(
        stdout(project, "flux.web.install.components"),
        "flux.web.install.components = [\"nginx\"]\n\
         \x20 – excluded: facet big (contexts/_template/facets/option-big.yaml:9:7, ordinal 300, merge)\n\
         \x20     when `replicas > 5`: false\n\
         \x20     gives [\"nginx/ha\"]\n\
         \x20 ✓ facet web (contexts/_template/facets/option-web.yaml:11:7, ordinal 300, merge)\n\
         \x20     gives [\"nginx\"]\n"
    );
    assert_eq!(
        stdout(project, "flux.web.install.substitutions.replicas"),
        "flux.web.install.substitutions.replicas = \"2\"\n\
         \x20 ✓ facet web (contexts/_template/facets/option-web.yaml:13:9, ordinal 300, merge)\n\
         \x20     ${string(replicas)}\n\
         \x20       reads replicas = 2  (contexts/local/values.yaml:2:1)\n\
         \x20     gives \"2\"\n"
    );
    assert_eq!(
        stdout(project, "flux.web.dependsOn"),
        "flux.web.dependsOn = [\"dns-install\",\"policy-install\"]\n\
         \x20 ✓ facet web (contexts/_template/facets/option-web.yaml:9:5, ordinal 300, merge)\n\
         \x20     gives [\"dns-install\"]\n\
         \x20 + \"policy-install\": added by Windsor after composing (a bare system name becomes its install tier, \
         systems without dependencies wait for the CRD layer, everything waits for global-dependency systems)\n"
    );
    for path in ["flux.web.resources.app.components", "flux.web.resources.0.components"] {
        assert_eq!(
            stdout(project, path),
            format!(
                "{path} = [\"app\",\"app/ha\"]\n\
                 \x20 ✓ facet web (contexts/_template/facets/option-web.yaml:16:9, ordinal 300, merge)\n\
                 \x20     gives [\"app\",\"app/ha\"]\n"
            )
        );
    }
    let common = stdout(project, "configMaps.values-common.domain");
    assert!(
        common.contains("  ✓ facet web (contexts/_template/facets/option-web.yaml:6:3, ordinal 300, merge)\n"),
        "{common}"
    );
    let context = stdout(project, "configMaps.values-common.CONTEXT");
    assert!(
        context.starts_with("configMaps.values-common.CONTEXT = \"local\"\n  no facet sets it: Windsor does"),
        "{context}"
    );
    let out = explain(project, "flux.nope.dependsOn");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: flux.nope.dependsOn: flux system \"nope\" not found in the blueprint\n"
    );
    let out = explain(project, "configMaps.values-web.x");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: invalid configMaps path"));
}

#[test]
fn a_cycle_is_the_renders_failure_warned_beside_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("contexts/_template/facets")).unwrap();
    std::fs::create_dir_all(p.join("contexts/local")).unwrap();
    std::fs::write(p.join("windsor.yaml"), "version: v1alpha1\n").unwrap();
    std::fs::write(p.join("contexts/local/values.yaml"), "x: 1\n").unwrap();
    std::fs::write(
        p.join("contexts/_template/facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nconfig:\n  - name: a\n    x: ${b.x}\n  - name: b\n    x: ${a.x}\n",
    )
    .unwrap();
    // As Windsor's explain: the trace, and the render's failure a warning.
    let out = explain(p.to_str().unwrap(), "a.x");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "warning: config[a]: config blocks read each other in a cycle: a → b → a\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "a.x = (empty)\n\
         \x20 ! the render failed; this is the trace as far as it got (the failure is on stderr)\n\
         \x20 ✓ facet base (contexts/_template/facets/base.yaml:5:5, ordinal 0, merge)\n\
         \x20     ${b.x}\n\
         \x20       reads b.x (not set)\n\
         \x20     gives (empty)\n"
    );
}

/// A `.bp` blueprint is explained at the line:column of its own text,
/// each expression shown as the substitution it stands for.
#[test]
fn a_bp_blueprint_is_explained_at_its_own_positions() {
    let dir = tempfile::tempdir().unwrap();
    let bp = "version \"2025-11-02\"\nvariable region: string { default = \"eu-west-1\" }\n\
              value prefix: string { value = \"app-${variables.region}\" }\n\
              resource table: aws/dynamodb/table {\n  spec { name = \"${values.prefix}-orders\" }\n}\n\
              resource fn: aws/lambda/function {\n  spec {\n    tableName = table.spec.name\n    \
              upper = to_upper(values.prefix) == \"X\"\n  }\n}\n";
    std::fs::write(dir.path().join("orders.bp"), bp).unwrap();
    let out = bpvm()
        .args(["explain", "resources.fn.spec", "orders.bp", "--var", "region=us-east-1"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "resources.fn.spec = {\"tableName\":\"app-us-east-1-orders\",\"upper\":false}\n\
         \x20 resources.fn.spec.tableName (orders.bp:9:17)\n\
         \x20     ${resources.table.spec.name}\n\
         \x20       reads resources.table.spec.name = \"app-us-east-1-orders\"\n\
         \x20 resources.fn.spec.upper (orders.bp:10:13)\n\
         \x20     ${eq(to_upper(values.prefix), \"X\")}\n\
         \x20       reads values.prefix = \"app-us-east-1\"\n"
    );
    let value = bpvm()
        .args(["explain", "values.prefix", "orders.bp"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&value.stdout),
        "values.prefix = {\"type\":\"string\",\"value\":\"app-eu-west-1\"}\n\
         \x20 values.prefix.value (orders.bp:3:32)\n\
         \x20     app-${variables.region}\n\
         \x20       reads variables.region = \"eu-west-1\"\n"
    );
}
