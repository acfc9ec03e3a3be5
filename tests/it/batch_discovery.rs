//! Batch discovery over a generated monorepo: which targets are found,
//! what they are named, in which order, with which files; what
//! `bpvm-batch.yaml` lists and how its mistakes are reported.

use crate::support::files::write;
use bpvm::batch::{Discovery, Files, Kind, Target, discover, shard};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A Windsor project at `rel` with `contexts`.
fn project(root: &Path, rel: &str, config: &str, contexts: &[&str]) {
    write(root, &format!("{rel}/{config}"), "toolsManager: aqua\n");
    write(
        root,
        &format!("{rel}/contexts/_template/blueprint.yaml"),
        "kind: Blueprint\n",
    );
    write(
        root,
        &format!("{rel}/contexts/_template/facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\n",
    );
    for c in contexts {
        write(
            root,
            &format!("{rel}/contexts/{c}/values.yaml"),
            &format!("name: {c}\n"),
        );
    }
}

fn blueprint(version: &str) -> String {
    format!("version: {version}\nresources:\n  q: {{type: aws/sqs/queue, spec: {{name: orders}}}}\n")
}

fn ids(found: &Discovery) -> Vec<&str> {
    found.targets.iter().map(|t| t.id.as_str()).collect()
}

fn problems(found: &Discovery) -> Vec<String> {
    found.problems.iter().map(ToString::to_string).collect()
}

/// The monorepo: Windsor projects, Bluelink blueprints with variable
/// sets, data and an include-only child, and everything discovery must
/// pass over.
fn monorepo(root: &Path) {
    write(root, ".gitignore", "generated/\n*.tmp.yaml\n");
    project(root, "platform/aws", "windsor.yaml", &["staging", "production", "dev"]);
    project(root, "platform/gcp", "windsor.yml", &["prod", "local"]);
    // Inside a project: neither its blueprints nor a nested project count.
    write(root, "platform/aws/terraform/bp.yaml", &blueprint("2023-04-20"));
    project(root, "platform/aws/nested", "windsor.yaml", &["x"]);
    // Not a project: no contexts/_template/.
    write(root, "platform/half/windsor.yaml", "");
    write(root, "platform/half/contexts/prod/values.yaml", "");

    let orders = "version: 2023-04-20\nvariables:\n  env: {type: string, default: dev}\ninclude:\n  queue: {path: ./parts/../parts/queue.yaml}\n  dynamic: {path: '${variables.env}.yaml'}\nresources:\n  q: {type: aws/sqs/queue, spec: {name: orders}}\n";
    write(root, "apps/orders/blueprint.yaml", orders);
    write(root, "apps/orders/blueprint.vars.yaml", "env: dev\n");
    write(root, "apps/orders/blueprint.prod.vars.yaml", "env: prod\n");
    write(
        root,
        "apps/orders/blueprint.staging.vars.json",
        "{\"env\": \"staging\"}\n",
    );
    write(root, "apps/orders/blueprint.datasources.yaml", "network: {}\n");
    write(root, "apps/orders/blueprint.resource-state.yaml", "q: {}\n");
    write(root, "apps/orders/parts/queue.yaml", &blueprint("2025-11-02"));
    write(
        root,
        "apps/billing.json",
        "{\"version\": \"2025-11-02\", \"resources\": {\"t\": {\"type\": \"aws/dynamodb/table\", \"spec\": {}}}}\n",
    );
    // Broken, but declaring a version: a target whose render will say why.
    write(root, "apps/broken.yaml", "version: 2023-04-20\nresources: [\n");
    // Not blueprints.
    write(root, "apps/notes.yaml", "released: 2023-04-20\n");
    write(root, "apps/config.yaml", "meta:\n  version: 2023-04-20\n");
    write(root, "apps/ci.yml", "base: &b {image: x}\njob: *b\n");
    write(root, "apps/vars.yaml", "env: prod\nsince: 2023-04-20\n");
    write(root, "apps/readme.md", "version: 2023-04-20\n");
    // Passed over whole.
    write(root, "generated/out.yaml", &blueprint("2023-04-20"));
    write(root, "apps/scratch.tmp.yaml", &blueprint("2023-04-20"));
    write(root, "node_modules/pkg/bp.yaml", &blueprint("2023-04-20"));
    write(root, "target/debug/bp.yaml", &blueprint("2023-04-20"));
    write(root, ".cache/bp.yaml", &blueprint("2023-04-20"));
    project(root, "node_modules/tpl", "windsor.yaml", &["prod"]);
    // Only a PATH's own bpvm-batch.yaml counts.
    write(root, "apps/bpvm-batch.yaml", "targets: [{bluelink: billing.json}]\n");
}

#[test]
fn a_monorepo_gives_its_targets_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    let found = discover(&[root]);
    assert_eq!(problems(&found), Vec::<String>::new());
    assert_eq!(
        ids(&found),
        [
            "apps/billing",
            "apps/broken",
            "apps/orders/blueprint",
            "apps/orders/blueprint@prod",
            "apps/orders/blueprint@staging",
            "platform/aws/dev",
            "platform/aws/production",
            "platform/aws/staging",
            "platform/gcp/local",
            "platform/gcp/prod",
        ]
    );
    let by_id = |id: &str| found.targets.iter().find(|t| t.id == id).unwrap();
    assert_eq!(
        *by_id("apps/orders/blueprint@staging"),
        Target {
            id: "apps/orders/blueprint@staging".into(),
            base: root.to_path_buf(),
            template: root.join("apps/orders/blueprint.yaml"),
            kind: Kind::Bluelink {
                set: Some("staging".into()),
                files: Files {
                    vars: Some(root.join("apps/orders/blueprint.staging.vars.json")),
                    datasources: Some(root.join("apps/orders/blueprint.datasources.yaml")),
                    resource_state: Some(root.join("apps/orders/blueprint.resource-state.yaml")),
                },
            },
        }
    );
    let plain = by_id("apps/orders/blueprint");
    let Kind::Bluelink { set: None, files } = &plain.kind else {
        panic!("{plain:?}")
    };
    assert_eq!(files.vars, Some(root.join("apps/orders/blueprint.vars.yaml")));
    assert_eq!(
        by_id("apps/billing").kind,
        Kind::Bluelink {
            set: None,
            files: Files::default()
        }
    );
    let aws = by_id("platform/aws/dev");
    assert_eq!(aws.template, root.join("platform/aws"));
    assert_eq!(aws.template_path(), "platform/aws");
    assert_eq!(aws.kind, Kind::Windsor { context: "dev".into() });
    assert_eq!(by_id("platform/gcp/prod").template, root.join("platform/gcp"));

    // The same again: discovery is deterministic.
    assert_eq!(discover(&[root]), found);
}

#[test]
fn several_paths_keep_their_order_and_a_project_path_names_contexts_alone() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    let found = discover(&[
        root.join("platform/gcp"),
        root.join("platform/aws"),
        root.join("apps/orders"),
    ]);
    assert_eq!(problems(&found), Vec::<String>::new());
    assert_eq!(
        ids(&found),
        [
            "local",
            "prod",
            "dev",
            "production",
            "staging",
            "blueprint",
            "blueprint@prod",
            "blueprint@staging",
        ]
    );
    // Searched from apps/orders, the child is still only included.
    assert!(found.targets.iter().all(|t| !t.id.contains("queue")));
    // Searched on its own, the child is a blueprint like any other.
    let parts = discover(&[root.join("apps/orders/parts")]);
    assert_eq!(ids(&parts), ["queue"]);
}

#[test]
fn a_blueprint_included_from_elsewhere_is_still_only_included() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(
        root,
        "stacks/main.json",
        "{\"version\": \"2023-04-20\", \"include\": {\"net\": {\"path\": \"../shared/net.yaml\"}}}\n",
    );
    write(root, "shared/net.yaml", &blueprint("2023-04-20"));
    write(root, "shared/net.prod.vars.yaml", "a: 1\n");
    write(root, "shared/dns.yaml", &blueprint("2023-04-20"));
    let found = discover(&[root]);
    assert_eq!(problems(&found), Vec::<String>::new());
    assert_eq!(ids(&found), ["shared/dns", "stacks/main"]);
}

#[test]
fn shards_of_a_discovered_batch_cover_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    monorepo(root);
    for i in 0..20 {
        project(
            root,
            &format!("teams/t{i:02}"),
            "windsor.yaml",
            &["dev", "staging", "prod"],
        );
    }
    let all = discover(&[root]).into_result().unwrap();
    assert_eq!(all.len(), 70);
    let whole: BTreeSet<&str> = all.iter().map(|t| t.id.as_str()).collect();
    for n in [1, 2, 3, 7] {
        let parts: Vec<Vec<Target>> = (1..=n).map(|k| shard(&all, k, n)).collect();
        let union: BTreeSet<&str> = parts.iter().flatten().map(|t| t.id.as_str()).collect();
        assert_eq!(union, whole, "N = {n}");
        assert_eq!(
            parts.iter().map(Vec::len).sum::<usize>(),
            all.len(),
            "N = {n}: disjoint"
        );
    }
}

const LISTED: &str = "\
targets:
  - windsor: infra
    contexts: [prod]
  - bluelink: ./svc/api.yaml
    set: eu
  - bluelink: svc/api.yaml
    set: us
    vars: overrides/us.yaml
    datasources: overrides/ds.yaml
  - bluelink: svc/worker.yaml
  - windsor: more/../tools
";

fn listed(root: &Path, manifest: &str) {
    project(root, "infra", "windsor.yaml", &["dev", "prod"]);
    project(root, "tools", "windsor.yaml", &["ci"]);
    write(root, "svc/api.yaml", &blueprint("2023-04-20"));
    write(root, "svc/api.eu.vars.yaml", "a: 1\n");
    write(root, "svc/api.datasources.yaml", "a: 1\n");
    write(root, "svc/worker.yaml", &blueprint("2023-04-20"));
    write(root, "svc/worker.vars.yaml", "a: 1\n");
    write(root, "svc/worker.blue.vars.yaml", "a: 1\n");
    write(root, "overrides/us.yaml", "a: 1\n");
    write(root, "overrides/ds.yaml", "a: 1\n");
    // Not listed: not a target, though discovery would find it.
    write(root, "svc/other.yaml", &blueprint("2023-04-20"));
    write(root, "bpvm-batch.yaml", manifest);
}

#[test]
fn bpvm_batch_yaml_lists_the_targets_instead() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    listed(root, LISTED);
    let found = discover(&[root]);
    assert_eq!(problems(&found), Vec::<String>::new());
    assert_eq!(
        ids(&found),
        [
            "infra/prod",
            "svc/api@eu",
            "svc/api@us",
            "svc/worker",
            "svc/worker@blue",
            "tools/ci"
        ]
    );
    let files = |id: &str| match &found.targets.iter().find(|t| t.id == id).unwrap().kind {
        Kind::Bluelink { files, .. } => files.clone(),
        other => panic!("{other:?}"),
    };
    let at = |rel: &str| Some(root.join(rel));
    assert_eq!(
        files("svc/api@eu"),
        Files {
            vars: at("svc/api.eu.vars.yaml"),
            datasources: at("svc/api.datasources.yaml"),
            resource_state: None
        }
    );
    assert_eq!(
        files("svc/api@us"),
        Files {
            vars: at("overrides/us.yaml"),
            datasources: at("overrides/ds.yaml"),
            resource_state: None
        }
    );
    assert_eq!(files("svc/worker@blue").vars, at("svc/worker.blue.vars.yaml"));
    let tools = found.targets.last().unwrap();
    assert_eq!(tools.template, root.join("tools"));
}

/// The problems `manifest` gives, with the folder's path cut out.
fn manifest_problems(manifest: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    listed(root, manifest);
    let found = discover(&[root]);
    let prefix = format!("{}/", root.display());
    problems(&found).iter().map(|p| p.replace(&prefix, "")).collect()
}

#[test]
fn bpvm_batch_yaml_mistakes_name_their_place() {
    let manifest = "\
target: []
";
    assert_eq!(
        manifest_problems(manifest),
        [
            "bpvm-batch.yaml:1:1: target: unknown key (did you mean \"targets\"?); bpvm-batch.yaml has: targets, exclude, check",
            "bpvm-batch.yaml:1:1: targets is missing: the list of this folder's targets",
        ]
    );
    let manifest = "\
targets:
  - windsor: infra
    context: [prod]
  - windsor: infra
    contexts: [prd, dev, dev, 3]
  - windsr: infra
  - bluelink: svc/api.yaml
    set: us
  - bluelink: svc/api.yaml
    vars: ../outside.yaml
  - bluelink: svc/missing.yaml
  - windsor: svc
  - bluelink: svc/api.yaml
    windsor: infra
  - bluelink: svc/api.yaml
    resourceState: x.yaml
  - just a string
";
    assert_eq!(
        manifest_problems(manifest),
        [
            "bpvm-batch.yaml:3:5: targets[0].context: unknown key (did you mean \"contexts\"?); a Windsor target has: windsor, contexts",
            "bpvm-batch.yaml:5:16: targets[1].contexts[0]: no context \"prd\" in infra (did you mean \"prod\"?); it has: dev, prod",
            "bpvm-batch.yaml:5:26: targets[1].contexts[2]: context \"dev\" is listed twice",
            "bpvm-batch.yaml:5:31: targets[1].contexts[3]: expected a context name, found an integer",
            "bpvm-batch.yaml:6:5: targets[2].windsr: unknown key (did you mean \"windsor\"?)",
            "bpvm-batch.yaml:8:10: targets[3].set: no variable file for set \"us\" beside svc/api.yaml (did you mean \"eu\"?): expected api.us.vars.yaml, or name one with vars",
            "bpvm-batch.yaml:10:11: targets[4].vars: \"../outside.yaml\" leads outside the folder of bpvm-batch.yaml",
            "bpvm-batch.yaml:11:15: targets[5].bluelink: \"svc/missing.yaml\": no such file",
            "bpvm-batch.yaml:12:14: targets[6].windsor: \"svc\" is not a Windsor project: it has no windsor.yaml or no contexts/_template/",
            "bpvm-batch.yaml:13:5: targets[7]: names both windsor and bluelink: list them as two targets",
            "bpvm-batch.yaml:16:5: targets[8].resourceState: unknown key (did you mean \"resource-state\"?); a Bluelink target has: bluelink, vars, set, datasources, resource-state",
            "bpvm-batch.yaml:17:5: targets[9]: expected a mapping, {windsor: PROJECT} or {bluelink: BLUEPRINT}, found a string",
        ]
    );
    assert_eq!(
        manifest_problems("targets: [\n"),
        ["bpvm-batch.yaml:1:10: invalid YAML: unclosed bracket '['"]
    );
}

#[test]
fn two_targets_with_one_id_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "a/dup.json", "{\"version\": \"2023-04-20\", \"resources\": {}}");
    write(root, "a/dup.yaml", &blueprint("2023-04-20"));
    write(root, "b/x.yaml", &blueprint("2023-04-20"));
    write(root, "b/x.vars.yaml", "a: 1\n");
    write(root, "b/x.vars.json", "{}\n");
    let found = discover(&[root]);
    assert_eq!(ids(&found), ["a/dup", "b/x"]);
    let prefix = format!("{}/", root.display());
    let problems: Vec<String> = problems(&found).iter().map(|p| p.replace(&prefix, "")).collect();
    assert_eq!(
        problems,
        [
            "b: two variable files for target \"b/x\": x.vars.json and x.vars.yaml; x.vars.json is used",
            "a/dup.yaml: target \"a/dup\" is given by both a/dup.json and a/dup.yaml; only the first is kept",
        ]
    );
    // The same id from two PATHs is one output: reported too.
    let twice = discover(&[root.join("a"), root.join("a")]);
    assert_eq!(twice.targets.len(), 1);
}

#[cfg(unix)]
#[test]
fn unreadable_files_are_reported_and_discovery_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "ok.yaml", &blueprint("2023-04-20"));
    write(root, "outside/secret.yaml", &blueprint("2023-04-20"));
    std::fs::create_dir_all(root.join("repo")).unwrap();
    std::fs::rename(root.join("ok.yaml"), root.join("repo/ok.yaml")).unwrap();
    std::os::unix::fs::symlink(root.join("outside/secret.yaml"), root.join("repo/link.yaml")).unwrap();
    std::os::unix::fs::symlink(root.join("repo/gone.yaml"), root.join("repo/dangling.yaml")).unwrap();
    let fifo = root.join("repo/pipe.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let repo: PathBuf = root.join("repo");
    let found = discover(&[&repo]);
    assert_eq!(ids(&found), ["ok"]);
    let prefix = format!("{}/", repo.display());
    let problems: Vec<String> = problems(&found)
        .iter()
        .map(|p| p.replace(&prefix, "").replace(&root.display().to_string(), "ROOT"))
        .collect();
    assert_eq!(
        problems,
        [
            "dangling.yaml: cannot read: \"dangling.yaml\": no such file",
            "link.yaml: cannot read: \"link.yaml\" is outside the batch folder ROOT/repo (files are read only inside it; symlinks are followed while they stay inside)",
            "pipe.yaml: cannot read: \"pipe.yaml\" is a FIFO; only regular files are read",
        ]
    );
}

#[test]
fn a_missing_path_is_a_problem() {
    let found = discover(&["/no/such/bpvm/folder"]);
    assert!(found.targets.is_empty());
    assert_eq!(found.problems.len(), 1);
    assert!(
        found.problems[0]
            .to_string()
            .starts_with("/no/such/bpvm/folder: cannot search: "),
        "{}",
        found.problems[0]
    );
}

/// `blueprint` written in the `.bp` language.
fn bp_blueprint(version: &str) -> String {
    format!("version \"{version}\"\nresource q: aws/sqs/queue {{\n  spec {{ name = \"orders\" }}\n}}\n")
}

#[test]
fn bp_blueprints_are_targets_like_yaml_ones() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, ".gitignore", "*.tmp.bp\n");
    write(root, "svc/api.bp", &bp_blueprint("2025-11-02"));
    write(root, "svc/api.eu.vars.yaml", "a: 1\n");
    write(root, "svc/api.us.vars.json", "{\"a\": 2}\n");
    write(root, "svc/api.datasources.yaml", "a: 1\n");
    write(root, "svc/web.yaml", &blueprint("2023-04-20"));
    write(root, "svc/web.vars.yaml", "a: 1\n");
    write(root, "svc/jobs.blueprint", &bp_blueprint("2023-04-20"));
    // YAML, named after the language: its own target.
    write(root, "svc/jobs.blueprint.yaml", &blueprint("2023-04-20"));
    // Included by a `.bp` parent: rendered as part of it only.
    write(
        root,
        "stack/main.bp",
        "version \"2025-11-02\"\ninclude net \"net/child.bp\" {}\n",
    );
    write(root, "stack/net/child.bp", &bp_blueprint("2025-11-02"));
    // Not blueprints: another tool's `.bp`, an unknown version, ignored.
    write(root, "android/Android.bp", "cc_library { name: \"libx\" }\n");
    write(root, "svc/old.bp", &bp_blueprint("2024-01-01"));
    write(root, "svc/draft.tmp.bp", &bp_blueprint("2025-11-02"));
    let found = discover(&[root]);
    assert_eq!(problems(&found), Vec::<String>::new());
    assert_eq!(
        ids(&found),
        [
            "stack/main",
            "svc/api@eu",
            "svc/api@us",
            "svc/jobs",
            "svc/jobs.blueprint",
            "svc/web"
        ]
    );
    let target = |id: &str| found.targets.iter().find(|t| t.id == id).unwrap();
    assert_eq!(target("svc/api@us").template, root.join("svc/api.bp"));
    assert_eq!(target("svc/jobs").template, root.join("svc/jobs.blueprint"));
    match &target("svc/api@eu").kind {
        Kind::Bluelink { files, .. } => assert_eq!(
            files,
            &Files {
                vars: Some(root.join("svc/api.eu.vars.yaml")),
                datasources: Some(root.join("svc/api.datasources.yaml")),
                resource_state: None
            }
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn bpvm_batch_yaml_lists_a_bp_blueprint() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "svc/api.bp", &bp_blueprint("2025-11-02"));
    write(root, "svc/api.eu.vars.yaml", "a: 1\n");
    write(root, "svc/api.us.vars.yaml", "a: 2\n");
    write(
        root,
        "bpvm-batch.yaml",
        "targets:\n  - bluelink: svc/api.bp\n    set: eu\n",
    );
    let found = discover(&[root]);
    assert_eq!(problems(&found), Vec::<String>::new());
    assert_eq!(ids(&found), ["svc/api@eu"]);
    // Found beside a YAML blueprint of the same stem: one id, said.
    std::fs::remove_file(root.join("bpvm-batch.yaml")).unwrap();
    write(root, "svc/api.yaml", &blueprint("2023-04-20"));
    let found = discover(&[root]);
    let prefix = format!("{}/", root.display());
    let said: Vec<String> = problems(&found).iter().map(|p| p.replace(&prefix, "")).collect();
    assert_eq!(
        said,
        [
            "svc/api.yaml: target \"svc/api@eu\" is given by both svc/api.bp (variables svc/api.eu.vars.yaml) and svc/api.yaml (variables svc/api.eu.vars.yaml); only the first is kept",
            "svc/api.yaml: target \"svc/api@us\" is given by both svc/api.bp (variables svc/api.us.vars.yaml) and svc/api.yaml (variables svc/api.us.vars.yaml); only the first is kept",
        ]
    );
    write(
        root,
        "bpvm-batch.yaml",
        "targets:\n  - bluelink: svc/api.bp\n    set: uk\n",
    );
    let found = discover(&[root]);
    assert_eq!(
        problems(&found)
            .iter()
            .map(|p| p.rsplit_once(": targets[0].set: ").map_or(p.as_str(), |(_, m)| m))
            .collect::<Vec<_>>(),
        [
            "no variable file for set \"uk\" beside svc/api.bp (did you mean \"us\"?): expected api.uk.vars.yaml, or name one with vars"
        ]
    );
}
