//! The checks against one blueprint with every kind of component, and
//! Go's text of values.

use super::go_text::{go_quote, go_value};
use super::matching::inputs_match;
use super::structural::cycles;
use super::{check, structural, unknown_keys};
use bpvm_runtime::{Map, Value};

fn value(yaml: &str) -> Value {
    Value::from_yaml(yaml).unwrap()
}

fn map(yaml: &str) -> Map {
    value(yaml).as_map().unwrap().clone()
}

const BLUEPRINT: &str = r#"
crds: [cert-manager-1.21.1]
sources:
  - {name: template}
  - {name: core, url: 'oci://example/core', crds: [gateway-api]}
terraform:
  - name: cluster
    path: cluster/talos
    inputs:
      flag: false
      count: 5
      nodes: [{name: a, role: cp, disks: [sda]}, {name: b, role: worker}]
      zones: []
      cfg: {a: 1, b: {c: x}}
      none: null
      text: "1"
  - path: network/vpc
    source: core
    dependsOn: [cluster]
kustomize:
  - name: plain
    path: apps
    dependsOn: [crds]
    components: [a, b]
    substitutions: {domain: example.com, port: "80"}
flux:
  - name: demo
    source: template
    resources: [{components: [app]}]
  - name: lb
    path: net/lb
    install: {substitutions: {x: y}}
  - name: pki
    source: template
    dependsOn: [policy-resources, telemetry-install]
    install: {components: [cert-manager], timeout: 20m}
    resources:
      - components: [issuers, issuers/private]
      - name: extra
        components: [trust]
        substitutions: {ca: x}
  - name: policy
    source: template
    globalDependency: true
    install: {components: [kyverno]}
    resources: [{components: [kyverno/a]}]
"#;

/// The diffs of `expect` / `exclude` (empty text: none) against
/// [`BLUEPRINT`].
fn diffs(expect: &str, exclude: &str) -> Vec<String> {
    let (e, x) = (
        (!expect.is_empty()).then(|| map(expect)),
        (!exclude.is_empty()).then(|| map(exclude)),
    );
    check(&value(BLUEPRINT), e.as_ref(), x.as_ref())
}

#[test]
fn expectations_that_hold_give_no_diffs() {
    let expect = r#"
terraform:
  - name: cluster
    inputs:
      flag: "false"
      count: 5.0
      nodes: [{name: a, disks: [sda]}, {role: worker}]
      zones: []
      cfg: {b: {c: x}}
      none: null
      text: 1
  - path: network/vpc
    source: core
    dependsOn: [cluster]
    destroy: false
kustomize:
  - {name: plain, path: apps, dependsOn: [crds], components: [b], substitutions: {port: 80}}
  - {name: pki-install, path: pki/install, source: template, timeout: 99m, dependsOn: [telemetry-install]}
  - {name: pki-resources, dependsOn: [pki-install], components: [issuers]}
  - {name: lb-install}
flux:
  - name: pki
    source: template
    dependsOn: [policy-resources]
    install: {components: [cert-manager], timeout: 1m}
    resources:
      - components: [issuers/private]
      - {name: extra, components: [trust], substitutions: {ca: x}}
  - {name: policy, globalDependency: true, resources: [{timeout: 5m}]}
  - {name: lb, path: net/lb, install: {}}
  - {name: demo, interval: 5m, secrets: {a: {}}}
crds: [cert-manager-1.21.1, gateway-api]
"#;
    let got = diffs(expect, "");
    // `lb-install` is not compiled (its install has no components).
    assert_eq!(got, ["kustomization not found: lb-install"]);
}

/// Expectations and the diffs each gives against [`BLUEPRINT`].
const EXPECT_CASES: &[(&str, &[&str])] = &[
    // terraform: found by name or path, per component in order
    ("{terraform: [{name: nope}]}", &["terraform component not found: nope"]),
    (
        "{terraform: [{path: nope/x}]}",
        &["terraform component not found: nope/x"],
    ),
    ("{terraform: [{}]}", &["terraform component not found: "]),
    ("{terraform: [{name: other, path: cluster/talos}]}", &[]),
    (
        "{terraform: [{name: cluster, path: x/y, source: core, dependsOn: [a, b]}]}",
        &[
            r#"terraform[cluster].source: expected "core", got """#,
            r#"terraform[cluster].path: expected "x/y", got "cluster/talos""#,
            r#"terraform[cluster].dependsOn: missing "a""#,
            r#"terraform[cluster].dependsOn: missing "b""#,
        ],
    ),
    (
        "{terraform: [{path: network/vpc, source: template}]}",
        &[r#"terraform[network/vpc].source: expected "template", got "core""#],
    ),
    (
        "{terraform: [{name: cluster, inputs: {missing: 1, flag: true, count: 6, none: '', text: 2}}]}",
        &[
            "terraform[cluster].inputs[missing]: key not found",
            "terraform[cluster].inputs[flag]: expected true, got false",
            "terraform[cluster].inputs[count]: expected 6, got 5",
            "terraform[cluster].inputs[none]: expected , got <nil>",
            "terraform[cluster].inputs[text]: expected 2, got 1",
        ],
    ),
    (
        "{terraform: [{name: cluster, inputs: {nodes: [{name: a}], cfg: {b: {c: y}}, zones: {}, count: null}}]}",
        &[
            "terraform[cluster].inputs[nodes]: expected [map[name:a]], got [map[disks:[sda] name:a role:cp] map[name:b role:worker]]",
            "terraform[cluster].inputs[cfg]: expected map[b:map[c:y]], got map[a:1 b:map[c:x]]",
            "terraform[cluster].inputs[zones]: expected map[], got []",
            "terraform[cluster].inputs[count]: expected <nil>, got 5",
        ],
    ),
    // kustomize: compiled names, plain entries and tiers
    ("{kustomize: [{name: nope}]}", &["kustomization not found: nope"]),
    (
        "{kustomize: [{name: plain, path: web, source: template, dependsOn: [cni], components: [a, c],
               substitutions: {port: '8080', missing: x}}]}",
        &[
            r#"kustomize[plain].path: expected "web", got "apps""#,
            r#"kustomize[plain].source: expected "template", got """#,
            r#"kustomize[plain].dependsOn: missing "cni""#,
            r#"kustomize[plain].components: missing "c""#,
            r#"kustomize[plain].substitutions[port]: expected "8080", got "80""#,
            "kustomize[plain].substitutions[missing]: key not found",
        ],
    ),
    (
        "{kustomize: [{name: pki-install, path: pki}]}",
        &[r#"kustomize[pki-install].path: expected "pki", got "pki/install""#],
    ),
    // flux: composed systems
    ("{flux: [{name: nope}]}", &["flux system not found: nope"]),
    (
        "{flux: [{name: pki, path: pki, source: core, when: 'true', strategy: replace, dependsOn: [crds],
               ordinal: 100, globalDependency: true}]}",
        &[
            r#"flux[pki].path: expected "pki", got """#,
            r#"flux[pki].source: expected "core", got "template""#,
            r#"flux[pki].when: expected "true", got """#,
            r#"flux[pki].strategy: expected "replace", got """#,
            r#"flux[pki].dependsOn: missing "crds""#,
            "flux[pki].ordinal: expected 100, got unset",
            "flux[pki].globalDependency: expected true, got false",
        ],
    ),
    ("{flux: [{name: policy, globalDependency: false}]}", &[]),
    (
        "{flux: [{name: demo, install: {}}]}",
        &["flux[demo].install: expected present, got absent"],
    ),
    (
        "{flux: [{name: pki, install: {components: [cert-manager, cert-manager/prometheus], path: x,
               dependsOn: [policy-resources]}}]}",
        &[
            r#"kustomize[pki.install].path: expected "x", got """#,
            r#"kustomize[pki.install].dependsOn: missing "policy-resources""#,
            r#"kustomize[pki.install].components: missing "cert-manager/prometheus""#,
        ],
    ),
    (
        "{flux: [{name: pki, resources: [{name: nope}, {components: [issuers, other]}, {timeout: 5m}]}]}",
        &[
            "flux[pki].resources: variant not found: nope",
            "flux[pki].resources: variant not found: issuers,other",
            "flux[pki].resources: variant not found: ",
        ],
    ),
    (
        "{flux: [{name: pki, resources: [{name: extra, when: x, components: [trust, more],
               substitutions: {ca: y}}]}]}",
        &[
            r#"flux[pki].resources[extra].when: expected "x", got """#,
            r#"kustomize[pki.resources[extra]].components: missing "more""#,
            r#"kustomize[pki.resources[extra]].substitutions[ca]: expected "y", got "x""#,
        ],
    ),
    (
        "{flux: [{name: pki, resources: [{components: [issuers], path: pki/resources}]}]}",
        &[r#"kustomize[pki.resources[issuers]].path: expected "pki/resources", got """#],
    ),
    // crds: the blueprint's or any source's
    ("{crds: [gateway-api, nope]}", &["crd reference not found: nope"]),
    // keys Windsor does not compare
    (
        "{config: {a: 1}, messages: [x], metadata: {name: y}, substitutions: {a: b}}",
        &[],
    ),
];

#[test]
fn expect_diffs() {
    for (expect, want) in EXPECT_CASES {
        assert_eq!(diffs(expect, ""), *want, "{expect}");
    }
}

#[test]
fn exclude_diffs() {
    let cases: &[(&str, &[&str])] = &[
        (
            "{terraform: [{name: cluster}]}",
            &["terraform component should not exist: cluster"],
        ),
        (
            "{terraform: [{path: network/vpc}]}",
            &["terraform component should not exist: network/vpc"],
        ),
        ("{terraform: [{name: nope}, {}]}", &[]),
        (
            "{kustomize: [{name: pki-install}]}",
            &["kustomization should not exist: pki-install"],
        ),
        (
            "{kustomize: [{name: plain, components: []}]}",
            &["kustomization should not exist: plain"],
        ),
        (
            "{kustomize: [{name: plain, components: [a, z, b]}]}",
            &[
                r#"kustomize[plain].components: should not contain "a""#,
                r#"kustomize[plain].components: should not contain "b""#,
            ],
        ),
        (
            "{kustomize: [{name: nope}, {components: [a]}, {name: lb-install}]}",
            &[],
        ),
        ("{flux: [{name: nope}]}", &[]),
        ("{flux: [{name: pki}]}", &["flux system should not exist: pki"]),
        (
            "{flux: [{name: pki, install: {}}]}",
            &["flux[pki].install: should not exist"],
        ),
        // the install is on the system even though it compiles to no tier
        (
            "{flux: [{name: lb, install: {}}]}",
            &["flux[lb].install: should not exist"],
        ),
        ("{flux: [{name: demo, install: {}}]}", &[]),
        (
            "{flux: [{name: pki, install: {components: [cert-manager, other]}}]}",
            &[r#"flux[pki].install.components: should not contain "cert-manager""#],
        ),
        (
            "{flux: [{name: pki, resources: [{name: extra}, {name: nope}]}]}",
            &["flux[pki].resources: variant should not exist: extra"],
        ),
        (
            "{flux: [{name: pki, resources: [{components: [issuers]}]}]}",
            &[r#"flux[pki].resources[issuers].components: should not contain "issuers""#],
        ),
        // a variant is found only when it has every listed component
        ("{flux: [{name: pki, resources: [{components: [issuers, nope]}]}]}", &[]),
        (
            "{flux: [{name: pki, resources: [{name: extra, components: [trust, nope]}]}]}",
            &[r#"flux[pki].resources[extra].components: should not contain "trust""#],
        ),
        (
            "{flux: [{name: demo, resources: [{}]}]}",
            &["flux[demo].resources: variant should not exist: "],
        ),
        ("{flux: [{name: pki, resources: [{}]}]}", &[]),
        (
            "{crds: [gateway-api, cert-manager-1.21.1, nope]}",
            &[
                "crd reference should not exist: gateway-api",
                "crd reference should not exist: cert-manager-1.21.1",
            ],
        ),
    ];
    for (exclude, want) in cases {
        assert_eq!(diffs("", exclude), *want, "{exclude}");
    }
}

#[test]
fn expect_then_exclude_each_in_field_order() {
    let both = "{crds: [nope], flux: [{name: nope}], kustomize: [{name: nope}], terraform: [{name: nope}]}";
    let gone = "{crds: [gateway-api], flux: [{name: pki}], kustomize: [{name: plain}], terraform: [{name: cluster}]}";
    assert_eq!(
        diffs(both, gone),
        [
            "terraform component not found: nope",
            "kustomization not found: nope",
            "flux system not found: nope",
            "crd reference not found: nope",
            "terraform component should not exist: cluster",
            "kustomization should not exist: plain",
            "flux system should not exist: pki",
            "crd reference should not exist: gateway-api",
        ]
    );
    assert!(check(&value(BLUEPRINT), None, None).is_empty());
}

#[test]
fn ordinals_compare_when_the_system_has_one() {
    let bp = value("{flux: [{name: a, ordinal: 5}]}");
    let want = |o: i64| map(&format!("{{flux: [{{name: a, ordinal: {o}}}]}}"));
    assert!(check(&bp, Some(&want(5)), None).is_empty());
    assert_eq!(check(&bp, Some(&want(6)), None), ["flux[a].ordinal: expected 6, got 5"]);
}

#[test]
fn inputs_match_by_go_text() {
    let cases = [
        ("'false'", "false", true),
        ("5", "5.0", true),
        ("'1'", "1", true),
        ("1.5", "'1.5'", true),
        ("true", "'yes'", false),
        ("null", "null", true),
        ("null", "''", false),
        ("''", "null", false),
        ("[]", "[]", true),
        ("[]", "null", false),
        ("[1]", "['1']", true),
        ("[1, 2]", "[2, 1]", false),
        ("[1]", "{a: 1}", false),
        ("{}", "{a: 1}", true),
        ("{a: 1}", "[1]", false),
        ("{a: null}", "{}", false),
        // Go compares a scalar with a list or map by their `%v` text
        ("'[a b]'", "[a, b]", true),
        ("'map[a:1]'", "{a: 1}", true),
    ];
    for (want, got, ok) in cases {
        assert_eq!(inputs_match(&value(want), &value(got)), ok, "{want} ~ {got}");
    }
}

#[test]
fn values_print_like_go() {
    for (yaml, want) in [
        ("null", "<nil>"),
        ("true", "true"),
        ("-3", "-3"),
        ("5.0", "5"),
        ("1.0e21", "1e+21"),
        ("text with spaces", "text with spaces"),
        ("[a, 1, null, [], {}]", "[a 1 <nil> [] map[]]"),
        ("{z: 1, a: [x, y], m: {k: v}}", "map[a:[x y] m:map[k:v] z:1]"),
    ] {
        assert_eq!(go_value(&value(yaml)), want, "{yaml}");
    }
    assert_eq!(go_value(&Value::Bytes(Box::new([104, 105]))), "[104 105]");
}

#[test]
fn strings_quote_like_go() {
    for (s, want) in [
        ("plain", r#""plain""#),
        ("", r#""""#),
        ("a\"b\\c", r#""a\"b\\c""#),
        ("\n\t\r\u{7}\u{8}\u{c}\u{b}", r#""\n\t\r\a\b\f\v""#),
        ("\u{1}\u{7f}", r#""\x01\x7f""#),
        ("é ü 日本", r#""é ü 日本""#),
        ("\u{85}\u{a0}\u{200b}\u{feff}", r#""\u0085\u00a0\u200b\ufeff""#),
        ("\u{e0001}\u{e000}", r#""\U000e0001\ue000""#),
    ] {
        assert_eq!(go_quote(s), want, "{s:?}");
    }
}

#[test]
fn structural_duplicates() {
    let bp = value(
        "{terraform: [{name: a, path: x}, {path: a}, {name: a}, {path: b}],
              kustomize: [{name: k, components: [x, '', y, x, '', x]}, {name: pki-install}],
              flux: [{name: pki, install: {components: [c, c]}}]}",
    );
    assert_eq!(
        structural(&bp),
        [
            "duplicate terraform component ID: a",
            "duplicate terraform component ID: a",
            "duplicate kustomization name: pki-install",
            r#"duplicate component "x" in kustomization "k""#,
            r#"duplicate component "x" in kustomization "k""#,
            r#"duplicate component "c" in kustomization "pki-install""#,
        ]
    );
}

#[test]
fn structural_cycles() {
    let bp = value(
        "{terraform: [{name: a, dependsOn: [b, gone]}, {name: b, dependsOn: [c]}, {name: c, dependsOn: [a]},
                          {name: d, dependsOn: [d]}],
              flux: [{name: x, dependsOn: [y-install], install: {components: [c]}},
                     {name: y, dependsOn: [x-install], install: {components: [c]}, resources: [{}]}]}",
    );
    assert_eq!(
        structural(&bp),
        [
            "circular dependency detected in terraform component: a -> b -> c -> a",
            "circular dependency detected in terraform component: d -> d",
            "circular dependency detected in kustomization: x-install -> y-install -> x-install",
            r#"terraform component "a" depends on non-existent component "gone""#,
        ]
    );
}

#[test]
fn structural_cycles_report_every_back_edge() {
    // Both a -> b -> a and a -> c -> a close on `a` during one walk.
    let nodes = |spec: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        spec.iter()
            .map(|(n, d)| (n.to_string(), d.iter().map(|s| s.to_string()).collect()))
            .collect()
    };
    assert_eq!(
        cycles(
            &nodes(&[("a", &["b", "c"]), ("b", &["a"]), ("c", &["a"])]),
            "kustomization"
        ),
        [
            "circular dependency detected in kustomization: a -> b -> a",
            "circular dependency detected in kustomization: a -> c -> a",
        ]
    );
    // A node listed twice keeps its last edges.
    assert!(cycles(&nodes(&[("a", &["b"]), ("b", &["a"]), ("a", &[])]), "x").is_empty());
    // A long chain is walked without recursion.
    let chain: Vec<(String, Vec<String>)> = (0..100_000)
        .map(|i| (format!("n{i}"), vec![format!("n{}", (i + 1) % 100_000)]))
        .collect();
    assert_eq!(cycles(&chain, "x").len(), 1);
}

#[test]
fn structural_missing_dependencies() {
    let bp = value(
        "{crds: [a],
              sources: [{name: core, install: true, crds: [b]}, {name: git, url: 'https://x', crds: [c]}],
              terraform: [{path: net/vpc, dependsOn: [cluster]}, {name: cluster}],
              kustomize: [{name: k, dependsOn: [crds, crds-core, crds-git, lb-install, db-resources]}],
              flux: [{name: lb, install: {substitutions: {a: b}}},
                     {name: db, dependsOn: [lb-install], resources: [{}]}]}",
    );
    assert_eq!(
        structural(&bp),
        [
            r#"kustomization "k" depends on non-existent kustomization "crds-git""#,
            r#"kustomization "k" depends on non-existent kustomization "lb-install""#,
            r#"kustomization "db-resources" depends on non-existent kustomization "lb-install""#,
        ]
    );
    let no_crds = value("{kustomize: [{name: k, dependsOn: [crds]}]}");
    assert_eq!(
        structural(&no_crds),
        [r#"kustomization "k" depends on non-existent kustomization "crds""#]
    );
    assert!(structural(&Value::Null).is_empty());
    assert!(structural(&value(BLUEPRINT)).contains(
        &r#"kustomization "pki-install" depends on non-existent kustomization "telemetry-install""#.to_string()
    ));
}

#[test]
fn unknown_keys_are_reported_with_suggestions() {
    let doc = map("{config: {a: 1}, messages: [], Crds: [x],
              terraform: [{name: c, input: {}, destroy: false, parallelism: 1}, {path: p/q, dependOn: [a]}, {x: 1}],
              kustomize: [{name: k, timeout: 5m, componets: [a]}, {nme: z}],
              flux: [{name: pki, interval: 5m, secrets: {}, enabled: false, when: x, strategy: merge, ordinal: 1,
                      install: {components: [a], retryInterval: 1m, substitutes: {}},
                      resources: [{when: x, secrets: {a: b}, components: []}, {name: v, dependsOn: [], wen: x}]}]}");
    let found: Vec<String> = unknown_keys(&doc, "expect", true)
        .iter()
        .map(|u| format!("{}: {}", u.at, u.message()))
        .collect();
    assert_eq!(
        found,
        [
            r#"expect.config: "config" is not a blueprint field; Windsor's runner ignores it, so it asserts nothing"#,
            r#"expect.Crds: unknown key "Crds" in a blueprint expectation (did you mean "crds"?); it would assert nothing"#,
            r#"expect.terraform[c].input: unknown key "input" in a terraform component expectation (did you mean "inputs"?); it would assert nothing"#,
            r#"expect.terraform[p/q].dependOn: unknown key "dependOn" in a terraform component expectation (did you mean "dependsOn"?); it would assert nothing"#,
            r#"expect.terraform[2].x: "x" is not a terraform component field; Windsor's runner ignores it, so it asserts nothing"#,
            r#"expect.kustomize[k].componets: unknown key "componets" in a kustomization expectation (did you mean "components"?); it would assert nothing"#,
            r#"expect.kustomize[1].nme: unknown key "nme" in a kustomization expectation (did you mean "name"?); it would assert nothing"#,
            r#"expect.flux[pki].interval: "interval" is not a flux system field; Windsor's runner ignores it, so it asserts nothing"#,
            r#"expect.flux[pki].install.substitutes: unknown key "substitutes" in a kustomization expectation (did you mean "substitute"?); it would assert nothing"#,
            r#"expect.flux[pki].resources[0].secrets: "secrets" is not a resources variant field; Windsor's runner ignores it, so it asserts nothing"#,
            r#"expect.flux[pki].resources[v].wen: unknown key "wen" in a resources variant expectation (did you mean "when"?); it would assert nothing"#,
        ]
    );
    assert!(unknown_keys(&map(BLUEPRINT), "exclude", true).is_empty());
}

#[test]
fn the_seed_format_knows_its_own_fields() {
    let doc = map(
        "{terrafrom: [], terraform: [{name: c, inputz: {}, when: x}], kustomize: [{name: k, strategy: merge, cleanup: []}], flux: []}",
    );
    let found: Vec<String> = unknown_keys(&doc, "expect", false)
        .iter()
        .map(|u| u.at.clone())
        .collect();
    assert_eq!(found, ["expect.terrafrom", "expect.flux", "expect.terraform[c].inputz"]);
}
