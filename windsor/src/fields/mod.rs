//! The fields of Windsor's blueprint types, each list in the order
//! Windsor prints them (v0.9, R-11.2 and ): what output orders by,
//! what unknown-field checks and did-you-mean hints read, and (from the
//! same tables, in `table`) what `bpvm schema` prints.

use bpvm_runtime::Map;

pub mod table;

use bpvm_runtime::field_names;

/// A blueprint's top-level fields.
pub const BLUEPRINT: &[&str] = field_names!(table::BLUEPRINT);

/// A terraform component's fields.
pub const TERRAFORM: &[&str] = field_names!(table::TERRAFORM);

/// A kustomization's fields (also a flux system's tiers').
pub const KUSTOMIZATION: &[&str] = field_names!(table::KUSTOMIZATION);

/// A flux system's fields.
pub const FLUX_SYSTEM: &[&str] = field_names!(table::FLUX_SYSTEM);

/// What a facet's components, systems and config blocks may add to their
/// type's fields.
pub const FACET_ONLY: &[&str] = field_names!(table::FACET_ONLY);

/// What a seed-format facet's components may add to their type's fields.
pub const SEED_FACET_ONLY: &[&str] = field_names!(table::SEED_FACET_ONLY);

/// A requirement's fields.
pub const REQUIREMENT: &[&str] = field_names!(table::REQUIREMENT);

/// A post-run message's fields.
pub const MESSAGE: &[&str] = field_names!(table::MESSAGE);

/// A seed-format blueprint's top-level fields (what `windsor show
/// blueprint` prints at the seed's reference).
pub const SEED_BLUEPRINT: &[&str] = field_names!(table::SEED_BLUEPRINT);

/// A blueprint's top-level fields by the v0.9 rules, else the seed's.
pub fn blueprint(v09: bool) -> &'static [&'static str] {
    if v09 { BLUEPRINT } else { SEED_BLUEPRINT }
}

/// A seed-format kustomization's fields.
pub const SEED_KUSTOMIZATION: &[&str] = field_names!(table::SEED_KUSTOMIZATION);

/// What becomes of a field its place does not know that is no typo
/// (W13: a newer Windsor's field, which Windsor v0.9 ignores).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unknown {
    /// Kept where it stands and passed into the blueprint as written.
    Kept,
    /// Left out: the place (a facet's top level, a config block, a
    /// requirement, a message) puts nothing of its own into the output.
    Ignored,
}

/// How every message about an unknown field begins (what `bpvm check`
/// reads its `unknown-field` findings by).
pub const UNKNOWN_FIELD: &str = "unknown field ";

/// True when `message` is about an unknown field that is no typo.
pub fn is_unknown_field(message: &str) -> bool {
    message.starts_with(UNKNOWN_FIELD) && !message.contains("(did you mean")
}

/// Where the findings of [`check_fields`] go, each as (YAML path, message).
pub struct Sink<'a> {
    /// A typo: a load error.
    pub fail: &'a mut dyn FnMut(String, crate::Why),
    /// A field of a newer Windsor: a warning.
    pub warn: &'a mut dyn FnMut(String, String),
}

/// Sorts each key of `m` not in `known`: one within two edits of a known
/// field is a typo (an error with the suggestion), any other is warned
/// about and, when `unknown` is [`Unknown::Kept`], kept. Gives the names
/// of the fields that are no typo, in document order.
pub fn check_fields(m: &Map, known: &[&str], at: &str, unknown: Unknown, sink: &mut Sink) -> Vec<String> {
    let mut others = Vec::new();
    for k in m.keys().map(|k| k.as_str()) {
        if known.contains(&k) {
            continue;
        }
        let place = if at.is_empty() {
            k.to_string()
        } else {
            format!("{at}.{k}")
        };
        if let Some(c) = bpvm_runtime::suggest::closest(k, known) {
            let message = format!(
                "{UNKNOWN_FIELD}{k:?} (did you mean {c:?}?); expected one of: {}",
                known.join(", ")
            );
            (sink.fail)(place, message.into());
            continue;
        }
        let fate = match unknown {
            Unknown::Kept => "kept and passed into the blueprint as written",
            Unknown::Ignored => "ignored, as Windsor ignores it",
        };
        (sink.warn)(place, format!("{UNKNOWN_FIELD}{k:?}: {fate}"));
        others.push(k.to_string());
    }
    others
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm_runtime::Value;

    /// What `check_fields` reports for the keys of `yaml`, and gives back.
    fn sorted(yaml: &str, unknown: Unknown) -> (Vec<String>, Vec<String>, Vec<String>) {
        let doc = Value::from_yaml(yaml).unwrap();
        let (mut errors, mut warnings) = (Vec::new(), Vec::new());
        let kept = check_fields(
            doc.as_map().unwrap(),
            TERRAFORM,
            "terraform[x]",
            unknown,
            &mut Sink {
                fail: &mut |at, m| errors.push(format!("{at}: {m}")),
                warn: &mut |at, m| warnings.push(format!("{at}: {m}")),
            },
        );
        (errors, warnings, kept)
    }

    #[test]
    fn a_near_miss_is_a_typo_and_any_other_a_newer_field() {
        let (errors, warnings, kept) = sorted("{name: x, inptus: {}, lifecycle: {}, Path: p, zz: 1}", Unknown::Kept);
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("terraform[x].inptus: unknown field \"inptus\" (did you mean \"inputs\"?)"));
        assert!(errors[1].starts_with("terraform[x].Path: unknown field \"Path\" (did you mean \"path\"?)"));
        assert_eq!(
            warnings,
            [
                "terraform[x].lifecycle: unknown field \"lifecycle\": kept and passed into the blueprint as written",
                "terraform[x].zz: unknown field \"zz\": kept and passed into the blueprint as written",
            ]
        );
        assert_eq!(kept, ["lifecycle", "zz"]);
        assert!(warnings.iter().all(|w| is_unknown_field(w.split_once(": ").unwrap().1)));
        assert!(!is_unknown_field(errors[0].split_once(": ").unwrap().1));
    }

    #[test]
    fn an_ignored_field_says_so() {
        let (errors, warnings, _) = sorted("{labels: {}}", Unknown::Ignored);
        assert!(errors.is_empty());
        assert_eq!(
            warnings,
            ["terraform[x].labels: unknown field \"labels\": ignored, as Windsor ignores it"]
        );
    }
}
