//! The `check:` section's fields, and `bpvm.yaml`'s: what the reader
//! checks keys against and what `bpvm schema bpvm-check` prints.

use bpvm_runtime::shape::{Document, Field, Obj, Rest, Ty};

/// The severities a rule can be set to.
pub(super) const LEVELS: &[&str] = &["off", "note", "warning", "error"];

/// Each rule's severity, by rule id.
const RULES: Ty = Ty::Keys(crate::check::rules::rule_ids, &Ty::OneOf(LEVELS));

/// A `paths` entry's fields.
pub(super) const ENTRY: &[Field] = &[
    Field::new(
        "glob",
        Ty::Str,
        "The files its rules apply to, relative to this file's folder (contexts/*/tests/**).",
    )
    .required(),
    Field::new("rules", RULES, "Severities for those files, over the section's own."),
];

const ENTRY_OBJ: Obj = Obj {
    doc: "Severities for the files a glob matches.",
    fields: &[ENTRY],
    rest: Rest::Refused,
};

/// The section's fields.
pub(super) const SECTION: &[Field] = &[
    Field::new(
        "rules",
        RULES,
        "Each rule's severity (off, note, warning or error), by rule id.",
    ),
    Field::new(
        "paths",
        Ty::List(&Ty::Obj(&ENTRY_OBJ)),
        "Severities for some files only; a later entry wins over an earlier one.",
    ),
];

/// The `check:` section, as one mapping (also `bpvm-batch.yaml`'s).
pub const SECTION_OBJ: Obj = Obj {
    doc: "How bpvm check judges the files under this folder: each rule's severity.",
    fields: &[SECTION],
    rest: Rest::Refused,
};

/// `bpvm.yaml`'s fields.
pub(super) const FILE: &[Field] = &[Field::new(
    "check",
    Ty::Obj(&SECTION_OBJ),
    "bpvm check's configuration.",
)];

const FILE_OBJ: Obj = Obj {
    doc: "bpvm's configuration for the files under this folder.",
    fields: &[FILE],
    rest: Rest::Refused,
};

/// `bpvm.yaml`'s schema.
pub const SCHEMA: Document = Document {
    name: "bpvm-check",
    title: "bpvm configuration (bpvm.yaml)",
    globs: &["bpvm.yaml", "bpvm.yml"],
    ty: Ty::Obj(&FILE_OBJ),
};
