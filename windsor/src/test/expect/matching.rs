//! What a case's `expect` finds missing and its `exclude` finds present
//! component by component, in Windsor's order and
//! with its diff texts.

use super::go_text::{go_quote, go_value};
use super::read::{field, items, strings, sub, terraform_id, text_of};
use crate::flux::tiers;
use bpvm_runtime::{Map, Value};

/// What the case's `expect` finds missing and its `exclude` finds
/// present, in Windsor's order: expect (terraform, kustomize, flux,
/// crds), then exclude (the same). Empty: the blueprint satisfies both.
pub(crate) fn check(bp: &Value, expect: Option<&Map>, exclude: Option<&Map>) -> Vec<String> {
    let empty = Map::new();
    let actual = Actual {
        bp: bp.as_map().unwrap_or(&empty),
        kustomizations: tiers::all(bp),
    };
    let mut diffs = Vec::new();
    if let Some(want) = expect {
        actual.expect(want, &mut diffs);
    }
    if let Some(unwanted) = exclude {
        actual.exclude(unwanted, &mut diffs);
    }
    diffs
}

/// The composed blueprint and its compiled kustomizations.
struct Actual<'b> {
    bp: &'b Map,
    kustomizations: Vec<Map>,
}

impl Actual<'_> {
    fn expect(&self, want: &Map, diffs: &mut Vec<String>) {
        for tf in items(want, "terraform") {
            match self.terraform(tf) {
                None => diffs.push(format!("terraform component not found: {}", terraform_id(tf))),
                Some(got) => match_terraform(got, tf, diffs),
            }
        }
        for k in items(want, "kustomize") {
            let name = field(k, "name");
            match self.kustomization(&name) {
                None => diffs.push(format!("kustomization not found: {name}")),
                Some(got) => match_kustomization(got, k, &name, diffs),
            }
        }
        for sys in items(want, "flux") {
            let name = field(sys, "name");
            match self.system(&name) {
                None => diffs.push(format!("flux system not found: {name}")),
                Some(got) => match_system(got, sys, &name, diffs),
            }
        }
        for r in strings(want, "crds") {
            if !self.installs_crd(&r) {
                diffs.push(format!("crd reference not found: {r}"));
            }
        }
    }

    fn exclude(&self, unwanted: &Map, diffs: &mut Vec<String>) {
        for tf in items(unwanted, "terraform") {
            if self.terraform(tf).is_some() {
                diffs.push(format!("terraform component should not exist: {}", terraform_id(tf)));
            }
        }
        for k in items(unwanted, "kustomize") {
            let name = field(k, "name");
            let Some(got) = self.kustomization(&name) else {
                continue;
            };
            let components = strings(k, "components");
            if components.is_empty() {
                diffs.push(format!("kustomization should not exist: {name}"));
            } else {
                exclude_components(got, &components, &format!("kustomize[{name}]"), diffs);
            }
        }
        for sys in items(unwanted, "flux") {
            let name = field(sys, "name");
            let Some(got) = self.system(&name) else {
                continue;
            };
            let install = sub(sys, "install");
            let resources = items(sys, "resources");
            if install.is_none() && resources.is_empty() {
                diffs.push(format!("flux system should not exist: {name}"));
                continue;
            }
            if let (Some(install), Some(got_install)) = (install, tiers::install(got)) {
                let components = strings(install, "components");
                if components.is_empty() {
                    diffs.push(format!("flux[{name}].install: should not exist"));
                } else {
                    exclude_components(got_install, &components, &format!("flux[{name}].install"), diffs);
                }
            }
            for v in resources {
                let Some(found) = find_variant(got, v) else {
                    continue;
                };
                let components = strings(v, "components");
                let id = variant_id(v);
                if components.is_empty() {
                    diffs.push(format!("flux[{name}].resources: variant should not exist: {id}"));
                } else {
                    exclude_components(found, &components, &format!("flux[{name}].resources[{id}]"), diffs);
                }
            }
        }
        for r in strings(unwanted, "crds") {
            if self.installs_crd(&r) {
                diffs.push(format!("crd reference should not exist: {r}"));
            }
        }
    }

    /// The first terraform component whose name is the wanted name or
    /// whose path is the wanted path (either, per component, in order).
    fn terraform(&self, want: &Map) -> Option<&Map> {
        let (name, path) = (field(want, "name"), field(want, "path"));
        items(self.bp, "terraform")
            .into_iter()
            .find(|c| (!name.is_empty() && field(c, "name") == name) || (!path.is_empty() && field(c, "path") == path))
    }

    /// The compiled kustomization named `name` (exactly; an unnamed
    /// expectation looks for an unnamed kustomization, as Windsor does).
    fn kustomization(&self, name: &str) -> Option<&Map> {
        self.kustomizations.iter().find(|k| field(k, "name") == name)
    }

    /// The composed flux system named `name`.
    fn system(&self, name: &str) -> Option<&Map> {
        items(self.bp, "flux").into_iter().find(|s| field(s, "name") == name)
    }

    /// Whether `r` is in the blueprint's `crds` or any source's.
    fn installs_crd(&self, r: &str) -> bool {
        strings(self.bp, "crds").iter().any(|c| c == r)
            || items(self.bp, "sources")
                .into_iter()
                .any(|s| strings(s, "crds").iter().any(|c| c == r))
    }
}

/// One diff per wanted item missing from the list field `key` of `got`.
fn missing(got: &Map, want: &Map, key: &str, label: &str, diffs: &mut Vec<String>) {
    let have = strings(got, key);
    for w in strings(want, key) {
        if !have.contains(&w) {
            diffs.push(format!("{label}.{key}: missing {}", go_quote(&w)));
        }
    }
}

/// A diff when the wanted text field `key` is set and differs.
fn same_text(got: &Map, want: &Map, key: &str, label: &str, diffs: &mut Vec<String>) {
    let w = field(want, key);
    let g = field(got, key);
    if !w.is_empty() && w != g {
        diffs.push(format!(
            "{label}.{key}: expected {}, got {}",
            go_quote(&w),
            go_quote(&g)
        ));
    }
}

fn match_terraform(got: &Map, want: &Map, diffs: &mut Vec<String>) {
    let label = format!("terraform[{}]", terraform_id(want));
    same_text(got, want, "source", &label, diffs);
    same_text(got, want, "path", &label, diffs);
    missing(got, want, "dependsOn", &label, diffs);
    let Some(inputs) = sub(want, "inputs") else {
        return;
    };
    let have = sub(got, "inputs");
    for (k, w) in inputs.iter() {
        let k = k.as_str();
        match have.and_then(|h| h.get(k)) {
            None => diffs.push(format!("{label}.inputs[{k}]: key not found")),
            Some(g) if !inputs_match(w, g) => diffs.push(format!(
                "{label}.inputs[{k}]: expected {}, got {}",
                go_value(w),
                go_value(g)
            )),
            Some(_) => {}
        }
    }
}

/// An expected terraform input against the composed one: nil only
/// matches nil, lists match element-wise at the same length, maps match
/// when every expected key matches (extra keys allowed), anything else
/// when both print the same under `%v` (`"false"` ~ `false`, `5` ~ `5.0`).
pub(super) fn inputs_match(want: &Value, got: &Value) -> bool {
    match (want, got) {
        (Value::Null, Value::Null) => true,
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::List(w), Value::List(g)) => w.len() == g.len() && w.iter().zip(g).all(|(a, b)| inputs_match(a, b)),
        (Value::List(_), _) => false,
        (Value::Map(w), Value::Map(g)) => w
            .iter()
            .all(|(k, wv)| g.get(k.as_str()).is_some_and(|gv| inputs_match(wv, gv))),
        (Value::Map(_), _) => false,
        (w, g) => go_value(w) == go_value(g),
    }
}

/// A kustomization (a compiled one, or a system's raw install or
/// variant) against an expectation; `label` names it in the diffs.
fn match_kustomization(got: &Map, want: &Map, label: &str, diffs: &mut Vec<String>) {
    let label = format!("kustomize[{label}]");
    same_text(got, want, "path", &label, diffs);
    same_text(got, want, "source", &label, diffs);
    missing(got, want, "dependsOn", &label, diffs);
    missing(got, want, "components", &label, diffs);
    let Some(subs) = sub(want, "substitutions") else {
        return;
    };
    let have = sub(got, "substitutions");
    for (k, w) in subs.iter() {
        let k = k.as_str();
        let w = text_of(Some(w));
        match have.and_then(|h| h.get(k)) {
            None => diffs.push(format!("{label}.substitutions[{k}]: key not found")),
            Some(g) => {
                let g = text_of(Some(g));
                if g != w {
                    diffs.push(format!(
                        "{label}.substitutions[{k}]: expected {}, got {}",
                        go_quote(&w),
                        go_quote(&g)
                    ));
                }
            }
        }
    }
}

fn match_system(got: &Map, want: &Map, name: &str, diffs: &mut Vec<String>) {
    let label = format!("flux[{name}]");
    for key in ["path", "source", "when", "strategy"] {
        same_text(got, want, key, &label, diffs);
    }
    missing(got, want, "dependsOn", &label, diffs);
    if let Some(Value::Int(w)) = want.get("ordinal") {
        match got.get("ordinal") {
            Some(Value::Int(g)) if g == w => {}
            Some(Value::Int(g)) => diffs.push(format!("{label}.ordinal: expected {w}, got {g}")),
            _ => diffs.push(format!("{label}.ordinal: expected {w}, got unset")),
        }
    }
    if matches!(want.get("globalDependency"), Some(Value::Bool(true)))
        && !matches!(got.get("globalDependency"), Some(Value::Bool(true)))
    {
        diffs.push(format!("{label}.globalDependency: expected true, got false"));
    }
    if let Some(install) = sub(want, "install") {
        match tiers::install(got) {
            None => diffs.push(format!("{label}.install: expected present, got absent")),
            Some(g) => match_kustomization(g, install, &format!("{name}.install"), diffs),
        }
    }
    for v in items(want, "resources") {
        let id = variant_id(v);
        let Some(found) = find_variant(got, v) else {
            diffs.push(format!("{label}.resources: variant not found: {id}"));
            continue;
        };
        same_text(found, v, "when", &format!("{label}.resources[{id}]"), diffs);
        match_kustomization(found, v, &format!("{name}.resources[{id}]"), diffs);
    }
}

/// The system's variant an expectation means: the one with its name when
/// it gives one; else the first containing all its components; else,
/// when it gives neither and the system has exactly one variant, that.
fn find_variant<'s>(system: &'s Map, want: &Map) -> Option<&'s Map> {
    let variants: Vec<&Map> = tiers::variants(system).collect();
    let name = field(want, "name");
    let components = strings(want, "components");
    if !name.is_empty() {
        return variants.into_iter().find(|v| field(v, "name") == name);
    }
    if !components.is_empty() {
        return variants.into_iter().find(|v| {
            let have = strings(v, "components");
            components.iter().all(|c| have.contains(c))
        });
    }
    match variants.as_slice() {
        [only] => Some(only),
        _ => None,
    }
}

/// How diffs name a variant expectation: its name, else its components
/// joined with `,`.
fn variant_id(want: &Map) -> String {
    match field(want, "name") {
        n if n.is_empty() => strings(want, "components").join(","),
        n => n,
    }
}

/// One diff per excluded component `got` contains.
fn exclude_components(got: &Map, components: &[String], label: &str, diffs: &mut Vec<String>) {
    let have = strings(got, "components");
    for c in components.iter().filter(|c| have.contains(c)) {
        diffs.push(format!("{label}.components: should not contain {}", go_quote(c)));
    }
}
