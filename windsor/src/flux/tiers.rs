//! Flux systems compiled to kustomizations (R-5.5.1): a system's
//! `install` becomes `<name>-install`, each `resources` variant
//! `<name>-resources[-<variant>]`. The `flux:` list is what the blueprint
//! prints; the compiled list is what dependencies, `windsor show
//! kustomization` and the test runner's `kustomize` checks see.

use bpvm_runtime::{Map, Value};

/// How long an install tier may take when it does not say.
const INSTALL_TIMEOUT: &str = "10m";

/// The text of a string field; absent, nil and non-strings read as empty.
fn text<'m>(m: &'m Map, key: &str) -> &'m str {
    m.get(key).and_then(Value::as_str).unwrap_or("")
}

/// A list field's items (absent or not a list: none).
fn list<'m>(m: &'m Map, key: &str) -> &'m [Value] {
    match m.get(key) {
        Some(Value::List(l)) => l,
        _ => &[],
    }
}

/// The system's `install`, when it has one (a map; nil is none).
pub(crate) fn install(system: &Map) -> Option<&Map> {
    system.get("install").and_then(Value::as_map)
}

/// The system's resources variants that are maps, in order.
pub(crate) fn variants(system: &Map) -> impl Iterator<Item = &Map> {
    list(system, "resources").iter().filter_map(Value::as_map)
}

/// Whether `system` compiles an install tier: it has an `install` with at
/// least one component (an install kept only for its substitutions does
/// not).
pub(crate) fn install_emitted(system: &Map) -> bool {
    install(system).is_some_and(|i| !list(i, "components").is_empty())
}

/// The compiled name of the system's install tier.
pub(crate) fn install_name(system: &Map) -> String {
    format!("{}-install", text(system, "name"))
}

/// The compiled name of a resources variant of `system`.
pub(crate) fn variant_name(system: &Map, variant: &Map) -> String {
    match text(variant, "name") {
        "" => format!("{}-resources", text(system, "name")),
        v => format!("{}-resources-{v}", text(system, "name")),
    }
}

/// The names of the tiers `system` compiles to, in order.
pub(crate) fn tier_names(system: &Map) -> Vec<String> {
    let mut names = Vec::new();
    if install_emitted(system) {
        names.push(install_name(system));
    }
    names.extend(variants(system).map(|v| variant_name(system, v)));
    names
}

/// `system` compiled to its tiers: the install tier (if emitted), then
/// one tier per resources variant, in order.
pub(crate) fn system_tiers(system: &Map) -> Vec<Map> {
    let base = match text(system, "path") {
        "" => text(system, "name"),
        p => p,
    };
    let deps = list(system, "dependsOn");
    let mut out = Vec::new();
    let emitted = install_emitted(system);
    if let (true, Some(install)) = (emitted, install(system)) {
        let mut tier = install.clone();
        tier.insert("name", Value::Str(install_name(system).into()));
        tier.insert("path", Value::Str(join(base, "install").into()));
        set_list(&mut tier, "dependsOn", deps.to_vec());
        defaults(&mut tier, system);
        if matches!(tier.get("timeout"), None | Some(Value::Null)) {
            tier.insert("timeout", Value::Str(INSTALL_TIMEOUT.into()));
        }
        out.push(ordered(&tier));
    }
    for variant in variants(system) {
        let mut tier = variant.clone();
        tier.remove("when");
        tier.insert("name", Value::Str(variant_name(system, variant).into()));
        tier.insert("path", Value::Str(join(base, "resources").into()));
        let mut tier_deps = if emitted {
            vec![Value::Str(install_name(system).into())]
        } else {
            deps.to_vec()
        };
        tier_deps.extend(list(variant, "dependsOn").iter().cloned());
        set_list(&mut tier, "dependsOn", tier_deps);
        defaults(&mut tier, system);
        out.push(ordered(&tier));
    }
    out
}

/// Every compiled kustomization of `blueprint`: its plain `kustomize`
/// entries first, then each flux system's tiers in `flux` order.
pub(crate) fn all(blueprint: &Value) -> Vec<Map> {
    let Some(bp) = blueprint.as_map() else {
        return Vec::new();
    };
    let mut out: Vec<Map> = list(bp, "kustomize")
        .iter()
        .filter_map(Value::as_map)
        .cloned()
        .collect();
    for system in list(bp, "flux").iter().filter_map(Value::as_map) {
        out.extend(system_tiers(system));
    }
    out
}

/// The names of the CRD kustomizations the blueprint implies (R-6.5):
/// `crds` when its own `crds` is non-empty, then `crds-<source>` for each
/// source that installs and vendors CRDs, by source name.
pub(crate) fn crd_layer_names(blueprint: &Value) -> Vec<String> {
    let Some(bp) = blueprint.as_map() else {
        return Vec::new();
    };
    let mut names = Vec::new();
    if !list(bp, "crds").is_empty() {
        names.push("crds".to_string());
    }
    let mut sources: Vec<&str> = list(bp, "sources")
        .iter()
        .filter_map(Value::as_map)
        .filter(|s| !list(s, "crds").is_empty() && source_installs(s))
        .map(|s| text(s, "name"))
        .collect();
    sources.sort_unstable();
    names.extend(sources.into_iter().map(|s| format!("crds-{s}")));
    names
}

/// Whether a source's components (and CRDs) are installed: `install`
/// true (or the text `true`), or unset on an `oci://` source. An
/// `install` that is still an expression does not install.
pub(crate) fn source_installs(source: &Map) -> bool {
    match source.get("install") {
        None | Some(Value::Null) => text(source, "url").starts_with("oci://"),
        Some(Value::Bool(b)) => *b,
        Some(Value::Str(s)) => &**s == "true",
        Some(_) => false,
    }
}

/// `source`, `enabled` and `destroy` come from the system when the tier
/// does not set them; `substitute` was merged into `substitutions`
/// during composition and is dropped.
fn defaults(tier: &mut Map, system: &Map) {
    if text(tier, "source").is_empty()
        && let Some(v) = system.get("source").filter(|v| !matches!(v, Value::Null))
    {
        tier.insert("source", v.clone());
    }
    for key in ["enabled", "destroy"] {
        if matches!(tier.get(key), None | Some(Value::Null))
            && let Some(v) = system.get(key).filter(|v| !matches!(v, Value::Null))
        {
            tier.insert(key, v.clone());
        }
    }
    tier.remove("substitute");
}

/// Sets a list field, or removes it when the list is empty.
fn set_list(m: &mut Map, key: &str, items: Vec<Value>) {
    if items.is_empty() {
        m.remove(key);
    } else {
        m.insert(key, Value::List(items));
    }
}

/// The kustomization fields in Windsor's order, then any others in theirs.
fn ordered(m: &Map) -> Map {
    let mut out = Map::new();
    for f in crate::fields::KUSTOMIZATION {
        if let Some(v) = m.get(f) {
            out.insert(*f, v.clone());
        }
    }
    for (k, v) in m.iter() {
        if !crate::fields::KUSTOMIZATION.contains(&k.as_str()) {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

/// `base/leaf` cleaned like a URL path: repeated slashes collapse, `.`
/// segments go, `..` removes the segment before it (not past the root).
fn join(base: &str, leaf: &str) -> String {
    let joined = if base.is_empty() {
        leaf.to_string()
    } else {
        format!("{base}/{leaf}")
    };
    clean(&joined)
}

/// A slash-separated path in its shortest equivalent form (Go's
/// `path.Clean`): `.` when nothing is left.
fn clean(p: &str) -> String {
    let rooted = p.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in p.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            s => parts.push(s),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_string(),
        (false, false) => body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(yaml: &str) -> Map {
        Value::from_yaml(yaml).unwrap().as_map().unwrap().clone()
    }

    fn json(tiers: &[Map]) -> Vec<String> {
        tiers.iter().map(|t| Value::Map(t.clone()).to_json()).collect()
    }

    #[test]
    fn install_and_variants_compile_in_order() {
        let sys = map(
            "{name: pki, source: template, dependsOn: [policy-resources], destroy: false,
              install: {components: [cert-manager], interval: 5m, dependsOn: [ignored], substitute: {a: b}},
              resources: [{components: [issuers]}, {name: private, when: 'x', dependsOn: [dns-install],
                           components: [ca], source: other, timeout: 1m}]}",
        );
        assert_eq!(
            json(&system_tiers(&sys)),
            [
                r#"{"name":"pki-install","path":"pki/install","source":"template","dependsOn":["policy-resources"],"interval":"5m","timeout":"10m","components":["cert-manager"],"destroy":false}"#,
                r#"{"name":"pki-resources","path":"pki/resources","source":"template","dependsOn":["pki-install"],"components":["issuers"],"destroy":false}"#,
                r#"{"name":"pki-resources-private","path":"pki/resources","source":"other","dependsOn":["pki-install","dns-install"],"timeout":"1m","components":["ca"],"destroy":false}"#,
            ]
        );
        assert!(install_emitted(&sys));
        assert_eq!(
            tier_names(&sys),
            ["pki-install", "pki-resources", "pki-resources-private"]
        );
    }

    #[test]
    fn install_without_components_is_not_emitted() {
        for install in ["{substitutions: {a: b}}", "{components: []}", "null"] {
            let sys = map(&format!(
                "{{name: lb, path: net//lb/./, dependsOn: [cni-install], install: {install},
                   resources: [{{dependsOn: [x], components: [pool]}}]}}"
            ));
            assert!(!install_emitted(&sys), "{install}");
            assert_eq!(
                json(&system_tiers(&sys)),
                [
                    r#"{"name":"lb-resources","path":"net/lb/resources","dependsOn":["cni-install","x"],"components":["pool"]}"#
                ],
                "{install}"
            );
        }
    }

    #[test]
    fn install_keeps_its_own_timeout_source_enabled() {
        let sys = map(
            "{name: a, source: template, enabled: '${x}', install: {components: [c], timeout: 30m, source: s, enabled: false}}",
        );
        assert_eq!(
            json(&system_tiers(&sys)),
            [
                r#"{"name":"a-install","path":"a/install","source":"s","timeout":"30m","components":["c"],"enabled":false}"#
            ]
        );
        let sys = map("{name: a, enabled: '${x}', install: {components: [c]}}");
        assert_eq!(
            json(&system_tiers(&sys)),
            [r#"{"name":"a-install","path":"a/install","timeout":"10m","components":["c"],"enabled":"${x}"}"#]
        );
    }

    #[test]
    fn a_system_without_tiers_compiles_to_nothing() {
        assert!(system_tiers(&map("{name: empty}")).is_empty());
        assert!(tier_names(&map("{name: empty, install: {}}")).is_empty());
    }

    #[test]
    fn all_lists_plain_kustomizations_first() {
        let bp = Value::from_yaml(
            "{flux: [{name: b, resources: [{components: [x]}]}, {name: a, install: {components: [y]}}],
              kustomize: [{name: plain, path: p}]}",
        )
        .unwrap();
        let names: Vec<String> = all(&bp).iter().map(|k| text(k, "name").to_string()).collect();
        assert_eq!(names, ["plain", "b-resources", "a-install"]);
        assert!(all(&Value::Null).is_empty());
    }

    #[test]
    fn crd_layers_follow_installing_sources() {
        let bp = Value::from_yaml(
            "{crds: [a], sources: [
               {name: z, install: true, crds: [b]},
               {name: m, url: 'oci://x', crds: [c]},
               {name: n, url: 'https://x', crds: [d]},
               {name: e, install: '${x}', crds: [e]},
               {name: f, install: true}]}",
        )
        .unwrap();
        assert_eq!(crd_layer_names(&bp), ["crds", "crds-m", "crds-z"]);
        assert!(crd_layer_names(&Value::from_yaml("{crds: []}").unwrap()).is_empty());
    }

    #[test]
    fn paths_clean_like_go() {
        for (base, want) in [
            ("a", "a/install"),
            ("a/", "a/install"),
            ("./a//b", "a/b/install"),
            ("a/../..", "../install"),
            ("/x/..", "/install"),
            ("", "install"),
        ] {
            assert_eq!(join(base, "install"), want, "{base}");
        }
        assert_eq!(clean(""), ".");
        assert_eq!(clean("/.."), "/");
    }
}
