//! `bpvm-batch.yaml`'s fields: what the manifest reader checks keys
//! against and what `bpvm schema bpvm-batch` prints.

use bpvm_runtime::shape::{Document, Field, Obj, Rest, Ty};

/// A Windsor target's fields.
pub(super) const WINDSOR: &[Field] = &[
    Field::new(
        "windsor",
        Ty::Str,
        "The Windsor project's folder, relative to this file's.",
    )
    .required(),
    Field::new(
        "contexts",
        Ty::List(&Ty::Str),
        "The contexts to render (by default every context folder of the project).",
    ),
];

/// A Bluelink target's fields.
pub(super) const BLUELINK: &[Field] = &[
    Field::new(
        "bluelink",
        Ty::Str,
        "The blueprint file, relative to this file's folder.",
    )
    .required(),
    Field::new(
        "vars",
        Ty::Str,
        "Its variable file (by default <stem>.vars.yaml and each <stem>.SET.vars.yaml beside it).",
    ),
    Field::new("set", Ty::Str, "Only the variable set <stem>.SET.vars.yaml beside it."),
    Field::new(
        "datasources",
        Ty::Str,
        "Its data source values file (by default <stem>.datasources.yaml beside it).",
    ),
    Field::new(
        "resource-state",
        Ty::Str,
        "Its resource state file (by default <stem>.resource-state.yaml beside it).",
    ),
];

const WINDSOR_OBJ: Obj = Obj {
    doc: "A Windsor project's contexts.",
    fields: &[WINDSOR],
    rest: Rest::Refused,
};

const BLUELINK_OBJ: Obj = Obj {
    doc: "A Bluelink blueprint with its variable sets.",
    fields: &[BLUELINK],
    rest: Rest::Refused,
};

/// The top-level fields.
pub(super) const TOP: &[Field] = &[
    Field::new(
        "targets",
        Ty::List(&Ty::Either(&[Ty::Obj(&WINDSOR_OBJ), Ty::Obj(&BLUELINK_OBJ)])),
        "This folder's targets, rendered instead of those discovery would find.",
    ),
    Field::new(
        "exclude",
        Ty::List(&Ty::Str),
        "Globs, relative to this file's folder, of paths discovery leaves out.",
    ),
    Field::new(
        "check",
        Ty::Obj(&crate::check::tune::shape::SECTION_OBJ),
        "bpvm check's configuration for the files under this folder.",
    ),
];

const TOP_OBJ: Obj = Obj {
    doc: "The targets bpvm batch renders in this folder, or what it leaves out.",
    fields: &[TOP],
    rest: Rest::Refused,
};

/// `bpvm-batch.yaml`'s schema.
pub const SCHEMA: Document = Document {
    name: "bpvm-batch",
    title: "bpvm batch manifest (bpvm-batch.yaml)",
    globs: &["bpvm-batch.yaml"],
    ty: Ty::Obj(&TOP_OBJ),
};
