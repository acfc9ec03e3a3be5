//! `bpvm render` and `bpvm test` as scripts use them: output, exit status,
//! and that a failed render never touches an existing output file.

use crate::support::{self, Scratch, bpvm};

fn project(name: &str, facet: &str) -> Scratch {
    let dir = support::scratch_dir(name);
    std::fs::create_dir_all(dir.join("contexts/_template/facets")).unwrap();
    std::fs::create_dir_all(dir.join("contexts/local")).unwrap();
    std::fs::write(dir.join("windsor.yaml"), "context: local\n").unwrap();
    std::fs::write(dir.join("contexts/local/values.yaml"), "provider: aws\n").unwrap();
    std::fs::write(dir.join("contexts/_template/facets/base.yaml"), facet).unwrap();
    dir
}

const GOOD: &str = "kind: Facet\nmetadata: {name: base}\nwhen: provider == 'aws'\nterraform: [{path: vpc, inputs: {cidr: '10.0.0.0/16'}}]\n";

#[test]
fn render_prints_the_blueprint_of_the_default_context() {
    let dir = project("print", GOOD);
    let out = bpvm().args(["render", "--project"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("kind: Blueprint\n"), "{text}");
    assert!(text.contains("  name: local\n"), "{text}");
    assert!(
        text.contains("- path: vpc\n  inputs:\n    cidr: 10.0.0.0/16\n"),
        "{text}"
    );
    assert!(text.contains("kustomize: []\n"), "{text}");
    let json = bpvm()
        .args(["render", "-o", "json", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    let json = String::from_utf8(json.stdout).unwrap();
    assert!(json.contains("\"terraform\": ["), "{json}");
}

#[test]
fn a_failed_render_leaves_the_output_file_alone() {
    let good = project("atomic", GOOD);
    let out_file = good.join("out.yaml");
    let ok = bpvm()
        .args(["render", "--project"])
        .arg(&good)
        .arg("--out")
        .arg(&out_file)
        .status()
        .unwrap();
    assert!(ok.success());
    let before = std::fs::read_to_string(&out_file).unwrap();
    std::fs::write(
        good.join("contexts/_template/facets/base.yaml"),
        "kind: Facet\nmetadata: {name: base}\nterraform: [{path: p, inputs: {x: '${1 + }'}}]\n",
    )
    .unwrap();
    let failed = bpvm()
        .args(["render", "--project"])
        .arg(&good)
        .arg("--out")
        .arg(&out_file)
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(1));
    let message = String::from_utf8_lossy(&failed.stderr);
    assert!(
        message
            .contains("contexts/_template/facets/base.yaml:3:42: error: terraform[p].inputs.x: expected an expression"),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), before);
    let leftovers: Vec<_> = std::fs::read_dir(&good)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn explain_says_what_was_included_and_why() {
    let dir = project("explain", GOOD);
    std::fs::create_dir_all(dir.join("contexts/other")).unwrap();
    let out = bpvm()
        .current_dir(&dir)
        .args(["render", "--explain", "--context", "other", "--project", "."])
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("facet base (contexts/_template/facets/base.yaml, ordinal 0): skipped by `provider == 'aws'`"),
        "{err}"
    );
    assert!(
        err.starts_with(
            "context: other (chosen by --context)\n\
             rules: the seed facet format (no facet uses a form only one of the two formats has)\n"
        ),
        "{err}"
    );
    // A facet written in Windsor v0.9's format selects its rules, and the
    // render says which form did (W10); metadata.yaml's cliVersion does not.
    std::fs::write(dir.join("contexts/_template/metadata.yaml"), "cliVersion: '>=0.9.0'\n").unwrap();
    std::fs::write(
        dir.join("contexts/_template/facets/crds.yaml"),
        "kind: Facet\nmetadata: {name: crds}\ncrds: [cert-manager-1.16.2]\n",
    )
    .unwrap();
    let out = bpvm()
        .current_dir(&dir)
        .args(["render", "--explain", "--context", "other", "--project", "."])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "\nrules: Windsor v0.9 (contexts/_template/facets/crds.yaml:3:1: crds, a facet field only Windsor v0.9 has)\n"
        ),
        "{err}"
    );
    // --rules overrides what the facets select.
    let out = bpvm()
        .args([
            "render",
            "--explain",
            "--rules",
            "seed",
            "--context",
            "other",
            "--project",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("\nrules: the seed facet format (chosen by --rules)\n"),
        "{err}"
    );
}

/// A seed-only form chooses the seed rules and is named; facets of both
/// formats are one error naming a place of each; `bpvm test` says which
/// rules its cases run by, and why.
#[test]
fn the_facets_forms_choose_the_rules_and_a_mix_is_refused() {
    let seed = "kind: Facet\nmetadata: {name: base}\nconfig:\n  - name: net\n    cidr: 10.0.0.0/16\nterraform: [{path: vpc, inputs: {cidr: '${net.cidr}'}}]\n";
    let dir = project("forms", seed);
    let out = bpvm()
        .current_dir(&dir)
        .args(["render", "--explain", "--project", "."])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    let reason = "rules: the seed facet format (contexts/_template/facets/base.yaml:5:5: config[0].cidr, a config block's body written inline beside its name, as only the seed format does)\n";
    assert!(err.contains(reason), "{err}");
    let tests = dir.join("contexts/_template/tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("t.test.yaml"),
        "cases:\n  - name: renders\n    values: {provider: aws}\n    expect: {terraform: [{path: vpc}]}\n",
    )
    .unwrap();
    let out = bpvm()
        .current_dir(&dir)
        .args(["test", "--project", "."])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains(reason));
    std::fs::write(
        dir.join("contexts/_template/facets/flux.yaml"),
        "kind: Facet\nmetadata: {name: flux}\nflux: []\n",
    )
    .unwrap();
    for command in ["render", "test"] {
        let out = bpvm()
            .current_dir(&dir)
            .args([command, "--project", "."])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{command}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("contexts/_template/facets/base.yaml:5:5: error: config[0].cidr: the facets mix two formats: this is a config block's body written inline beside its name, as only the seed format does, but contexts/_template/facets/flux.yaml:3:1: flux, a facet field only Windsor v0.9 has; write every facet in one format (or choose the rules with --rules seed or --rules v0.9)"),
            "{command}: {err}"
        );
    }
}

#[test]
fn test_reports_each_case_and_a_summary() {
    let dir = project("test", GOOD);
    let tests = dir.join("contexts/_template/tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("base.test.yaml"),
        "cases:\n- name: aws has a vpc\n  values: {provider: aws}\n  expect: {terraform: [{path: vpc, inputs: {cidr: 10.0.0.0/16}}]}\n\
         - name: wrong on purpose\n  values: {provider: aws}\n  expect: {terraform: [{path: vpc, inputs: {cidr: 10.1.0.0/16}}]}\n\
         - name: other providers have none\n  values: {provider: gcp}\n  exclude: {terraform: [{path: vpc}]}\n",
    )
    .unwrap();
    let out = bpvm()
        .current_dir(&dir)
        .args(["test", "--project", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("✓ aws has a vpc\n"), "{text}");
    assert!(
        text.contains(
            "✗ wrong on purpose\n    terraform[vpc].inputs.cidr: expected \"10.1.0.0/16\", got \"10.0.0.0/16\"\n"
        ),
        "{text}"
    );
    assert!(
        text.ends_with(
            "2 passed, 1 failed\nfailed cases:\n  contexts/_template/tests/base.test.yaml:5:3: error: wrong on purpose: \
             terraform[vpc].inputs.cidr: expected \"10.1.0.0/16\", got \"10.0.0.0/16\"\n"
        ),
        "{text}"
    );
    let one = bpvm()
        .args(["test", "--case", "aws has a vpc", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(one.status.success());
    assert!(String::from_utf8(one.stdout).unwrap().ends_with("1 passed, 0 failed\n"));
}

#[test]
fn a_missing_project_is_a_clear_error() {
    let out = bpvm()
        .args(["render", "--project", "/nonexistent/project"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/project is not a folder"));
}

#[test]
fn a_context_name_may_not_climb_out_of_contexts() {
    let dir = project("climb", GOOD);
    std::fs::create_dir_all(dir.join("elsewhere")).unwrap();
    std::fs::write(dir.join("elsewhere/values.yaml"), "provider: stolen\n").unwrap();
    let out = bpvm()
        .args(["render", "--context", "../elsewhere", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: context name \"../elsewhere\" is not a folder name (no '/', '\\', '.' or '..')\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn an_unknown_context_or_a_folder_that_is_no_project_is_an_error() {
    let dir = project("unknown", GOOD);
    let out = bpvm()
        .args(["render", "--context", "prod", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: no context \"prod\": the project has: local\n"
    );
    let empty = dir.join("contexts/local");
    let out = bpvm().args(["render", "--project"]).arg(&empty).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.ends_with("is not a Windsor project: it has no windsor.yaml and no contexts/_template\n"),
        "{err}"
    );
}

#[test]
fn a_render_holds_at_most_four_evaluation_budgets_of_values() {
    // 17 inputs of 4 MiB each: every one fits a 16 MiB evaluation budget,
    // together they pass the render's 64 MiB.
    let inputs: Vec<String> = (0..17)
        .map(|i| format!("x{i}: '${{repeat(\"x\", 4194304)}}'"))
        .collect();
    let facet = format!(
        "kind: Facet\nmetadata: {{name: base}}\nterraform: [{{path: vpc, inputs: {{{}}}}}]\n",
        inputs.join(", ")
    );
    let dir = project("render-budget", &facet);
    let out = bpvm()
        .env("BPVM_MEMORY_BUDGET_MIB", "16")
        .args(["render", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("terraform[vpc].inputs.x15: the render would hold more than 64 MiB of values (four times the memory budget of one evaluation; set BPVM_MEMORY_BUDGET_MIB to raise it)"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    // With room, the same project renders.
    let out = bpvm()
        .env("BPVM_MEMORY_BUDGET_MIB", "32")
        .args(["render", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn env_files_refuse_a_key_given_twice_whether_json_or_yaml() {
    let dir = support::scratch_dir("dup");
    for (name, text, at) in [
        ("env.json", "{\"a\": 1, \"a\": 2}", "1:12"),
        ("env.yaml", "a: 1\na: 2\n", "2:1"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = bpvm().args(["eval", "--env"]).arg(&path).arg("a").output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("error: {}: {at}: duplicate key \"a\"\n", path.display())
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn test_cases_see_only_their_own_env() {
    let facet = "kind: Facet\nmetadata: {name: base}\nterraform: [{path: vpc, inputs: {region: '${env(\"REGION\") ?? \"none\"}', ctx: '${env(\"WINDSOR_CONTEXT\")}'}}]\n";
    let dir = project("env", facet);
    std::fs::create_dir_all(dir.join("contexts/_template/tests")).unwrap();
    std::fs::write(
        dir.join("contexts/_template/tests/env.test.yaml"),
        "cases:\n  - name: given\n    env: {REGION: eu}\n    expect: {terraform: [{path: vpc, inputs: {region: eu, ctx: test}}]}\n  - name: not given\n    expect: {terraform: [{path: vpc, inputs: {region: none, ctx: test}}]}\n",
    )
    .unwrap();
    // The process's own REGION must not leak into a case.
    let out = bpvm()
        .env("REGION", "from-the-process")
        .args(["test", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.ends_with("2 passed, 0 failed\n"), "{text}");
    // A render reads the process's environment.
    let out = bpvm()
        .env("REGION", "from-the-process")
        .args(["render", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("region: from-the-process"));
}

/// Renders context `name` of a v0.9 project whose only facet prints what
/// the context resolved to; `values` is the context's values.yaml.
fn resolved(tag: &str, name: &str, values: &str) -> String {
    let facet = "kind: Facet\nmetadata: {name: base}\nterraform: [{path: probe, inputs: {platform: '${platform}', dev: '${dev ?? false}', runtime: '${workstation.runtime ?? \"\"}', domain: '${dns.domain ?? \"\"}', driver: '${cluster.driver ?? \"\"}'}}]\n";
    let dir = project(tag, facet);
    support::v09_form(&dir);
    std::fs::create_dir_all(dir.join("contexts").join(name)).unwrap();
    std::fs::write(dir.join("contexts").join(name).join("values.yaml"), values).unwrap();
    let out = bpvm()
        .args(["render", "-o", "json", "--context", name, "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // (serde_json's maps are sorted: the keys below are in name order.)
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["terraform"][0]["inputs"].to_string()
}

#[test]
fn render_resolves_a_v09_context_as_windsor_show_blueprint_does() {
    // A dev context (local, local-*): docker platform and workstation,
    // the `test` domain, and the driver the platform implies.
    assert_eq!(
        resolved("resolve-dev", "local", "{}\n"),
        r#"{"dev":true,"domain":"test","driver":"talos","platform":"docker","runtime":"docker"}"#
    );
    // Any other context starts on no platform; `provider` names one.
    // (Empty inputs are pruned, R-3.11.1.)
    assert_eq!(
        resolved("resolve-prod", "prod", "provider: aws\n"),
        r#"{"dev":false,"driver":"eks","platform":"aws"}"#
    );
    // The deprecated vm.driver becomes the workstation runtime.
    assert_eq!(
        resolved("resolve-vm", "staging", "platform: incus\nvm: {driver: colima}\n"),
        r#"{"dev":false,"domain":"test","driver":"talos","platform":"incus","runtime":"colima"}"#
    );
}

#[test]
fn a_v09_test_case_applies_schema_defaults_only_when_it_asks() {
    // W12: Windsor v0.9's runner leaves schema defaults out unless a case
    // sets applySchemaDefaults; a render always applies them. A case
    // also reports expectation keys no rule checks, and a mocked
    // terraform output read of a component that is not composed fails.
    let facet = "kind: Facet\nmetadata: {name: base}\nterraform: [{path: probe, inputs: {size: '${size ?? \"unset\"}', ip: '${terraform_output(\"network\", \"ip\") ?? \"\"}'}}]\n";
    let dir = project("w12", facet);
    let template = dir.join("contexts/_template");
    support::v09_form(&dir);
    std::fs::write(
        template.join("schema.yaml"),
        "properties: {size: {type: integer, default: 3}}\n",
    )
    .unwrap();
    std::fs::create_dir_all(template.join("tests")).unwrap();
    std::fs::write(
        template.join("tests/defaults.test.yaml"),
        "cases:\n\
         - name: no defaults unless asked\n  expect: {terraform: [{path: probe, inputs: {size: unset}}], config: {}}\n\
         - name: defaults when asked\n  applySchemaDefaults: true\n  expect: {terraform: [{path: probe, inputs: {size: 3}}]}\n\
         - name: a mocked output of a component that is not there\n  terraformOutputs: {network: {ip: 10.0.0.1}}\n  expect: {terraform: [{path: probe, inputs: {ip: 10.0.0.1}}]}\n",
    )
    .unwrap();
    let out = bpvm()
        .current_dir(&dir)
        .args(["test", "--project", "."])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("✓ no defaults unless asked\n    contexts/_template/tests/defaults.test.yaml:3:63: warning: cases[0].expect.config: \"config\" is not a blueprint field; Windsor's runner ignores it, so it asserts nothing\n"),
        "{text}"
    );
    assert!(text.contains("✓ defaults when asked\n"), "{text}");
    assert!(
        text.contains("✗ a mocked output of a component that is not there\n    component not found: network\n"),
        "{text}"
    );
    // A render applies them.
    let out = bpvm()
        .args(["render", "-o", "json", "--project"])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"size\": 3"), "{text}");
}

#[test]
fn durations_print_as_windsor_prints_them() {
    // Windsor reads a kustomization's interval, retryInterval and timeout
    // as Go durations and prints them with Duration.String().
    let facet = "kind: Facet\nmetadata: {name: base}\nkustomize:\n  - {name: dns, path: dns, timeout: 5m, interval: 90m, retryInterval: {duration: 30s}}\nflux:\n  - {name: pki, install: {components: [cert-manager], interval: 1.5h}, resources: [{components: [issuers], timeout: 500ms}]}\n";
    let dir = project("durations", facet);
    std::fs::write(dir.join("contexts/_template/metadata.yaml"), "cliVersion: '>=0.9.0'\n").unwrap();
    let render = |extra: &[&str]| {
        let out = bpvm()
            .arg("render")
            .args(extra)
            .arg("--project")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = render(&[]);
    assert!(
        text.contains("  interval: 1h30m0s\n  retryInterval: 30s\n  timeout: 5m0s\n"),
        "{text}"
    );
    assert!(text.contains("    interval: 1h30m0s\n"), "{text}");
    assert!(text.contains("  - timeout: 500ms\n"), "{text}");
    // The tiers Windsor compiles, with its default install timeout.
    let compiled = render(&["--compile-flux"]);
    assert!(compiled.contains("- name: pki-install\n"), "{compiled}");
    assert!(compiled.contains("  timeout: 10m0s\n"), "{compiled}");
    let json = render(&["-o", "json"]);
    assert!(json.contains("\"timeout\": \"5m0s\""), "{json}");
}
