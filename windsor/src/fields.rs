//! The fields of Windsor's blueprint types, each list in the order
//! Windsor prints them (v0.9, R-11.2 and ): what output orders by,
//! and what unknown-field checks and did-you-mean hints read.

use bpvm_runtime::Map;

/// A blueprint's top-level fields.
pub const BLUEPRINT: &[&str] = &[
    "kind",
    "apiVersion",
    "metadata",
    "backend",
    "repository",
    "sources",
    "terraform",
    "crds",
    "kustomize",
    "flux",
    "substitutions",
    "configMaps",
    "messages",
];

/// A terraform component's fields.
pub const TERRAFORM: &[&str] = &[
    "name",
    "source",
    "path",
    "dependsOn",
    "inputs",
    "destroy",
    "parallelism",
    "enabled",
];

/// A kustomization's fields (also a flux system's tiers').
pub const KUSTOMIZATION: &[&str] = &[
    "name",
    "path",
    "source",
    "namespace",
    "targetNamespace",
    "dependsOn",
    "interval",
    "retryInterval",
    "timeout",
    "patches",
    "wait",
    "force",
    "prune",
    "components",
    "destroy",
    "destroyOnly",
    "enabled",
    "substitutions",
    "substitute",
    "decryption",
];

/// A flux system's fields.
pub const FLUX_SYSTEM: &[&str] = &[
    "name",
    "path",
    "source",
    "enabled",
    "destroy",
    "when",
    "dependsOn",
    "strategy",
    "ordinal",
    "globalDependency",
    "install",
    "resources",
    "secrets",
];

/// What a facet's components, systems and config blocks may add to their
/// type's fields.
pub const FACET_ONLY: &[&str] = &["when", "strategy", "ordinal", "requires"];

/// Reports each key of `m` not in `known`, with the closest known one.
pub fn check_fields(m: &Map, known: &[&str], at: &str, fail: &mut dyn FnMut(String, String)) {
    for k in m.keys() {
        if known.contains(&k.as_str()) {
            continue;
        }
        let hint = match bpvm_runtime::suggest::closest(k.as_str(), known) {
            Some(c) => format!(" (did you mean {c:?}?)"),
            None => String::new(),
        };
        let place = if at.is_empty() {
            k.as_str().to_string()
        } else {
            format!("{at}.{}", k.as_str())
        };
        fail(
            place,
            format!(
                "unknown field {:?}{hint}; expected one of: {}",
                k.as_str(),
                known.join(", ")
            ),
        );
    }
}
