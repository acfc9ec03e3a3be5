//! What a YAML tag asks for. A leaf.

use saphyr_parser_bw::Tag;

/// What a tag asks for, by the YAML core schema and the tags bpvm has
/// always recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TagKind {
    None,
    /// `!`: the text as it is.
    NonSpecific,
    Null,
    Bool,
    Int,
    Float,
    String,
    Seq,
    Map,
    Binary,
    TimeStamp,
    /// `!time`, `!degrees`, `!radians`: floats with units bpvm does not read.
    Unit,
    Merge,
    Value,
    Include,
    /// Any other tag: the value is read as if untagged.
    Other,
}

const YAML_TAGS: &str = "tag:yaml.org,2002:";

impl TagKind {
    /// The kind of `tag`, and the tag as written (for messages).
    pub(super) fn of(tag: &Tag) -> (TagKind, String) {
        let full = format!("{}{}", tag.handle, tag.suffix);
        let spelled = if tag.handle == YAML_TAGS {
            format!("!!{}", tag.suffix)
        } else if tag.handle == "!" {
            format!("!{}", tag.suffix)
        } else if tag.handle.is_empty() && tag.suffix == "!" {
            "!".to_string()
        } else if tag.handle.is_empty() {
            format!("!<{}>", tag.suffix)
        } else {
            full.clone()
        };
        (TagKind::classify(&full), spelled)
    }

    fn classify(full: &str) -> TagKind {
        for include in ["!include", "tag:yaml.org,2002:include", "tag:yaml.org,2002:!include"] {
            if let Some(rest) = full.strip_prefix(include)
                && (rest.is_empty() || rest.starts_with('#'))
            {
                return TagKind::Include;
            }
        }
        if let Some(name) = full.strip_prefix(YAML_TAGS) {
            if let Some(kind) = TagKind::core(name) {
                return kind;
            }
            return match name {
                "merge" => TagKind::Merge,
                "value" => TagKind::Value,
                _ => TagKind::named(name.strip_prefix('!').unwrap_or(name)),
            };
        }
        match full.strip_prefix('!') {
            Some("" | "!") => TagKind::NonSpecific,
            Some("!timestamp") => TagKind::TimeStamp,
            Some("!binary") => TagKind::Binary,
            Some(name) => match name.strip_prefix('!') {
                Some(core) => TagKind::core(core).unwrap_or(TagKind::Other),
                None => TagKind::named(name),
            },
            None => TagKind::Other,
        }
    }

    fn core(name: &str) -> Option<TagKind> {
        Some(match name {
            "null" => TagKind::Null,
            "bool" => TagKind::Bool,
            "int" => TagKind::Int,
            "float" => TagKind::Float,
            "map" => TagKind::Map,
            "seq" => TagKind::Seq,
            "str" => TagKind::String,
            _ => return None,
        })
    }

    fn named(name: &str) -> TagKind {
        match name {
            "timestamp" => TagKind::TimeStamp,
            "time" | "degrees" | "radians" => TagKind::Unit,
            "binary" => TagKind::Binary,
            "include" => TagKind::Include,
            other => TagKind::core(other).unwrap_or(TagKind::Other),
        }
    }
}
