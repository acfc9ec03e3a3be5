//! A facet file's own fields and its config blocks', by both formats: the
//! tables the reader checks keys against and `bpvm schema` prints.

use crate::fields::table::{
    FACET_KUSTOMIZATION, FACET_ONLY, FACET_TERRAFORM, FLUX_SYSTEM_OBJ, MESSAGE_OBJ, REQUIRES, SEED_FACET_KUSTOMIZATION,
    SEED_FACET_TERRAFORM, WHEN,
};
use bpvm_runtime::field_names;
use bpvm_runtime::shape::{Field, Obj, Rest, Ty};

const KIND: Field = Field::new(
    "kind",
    Ty::OneOf(&["Facet", "Feature"]),
    "Facet (Feature is the older name, read the same way).",
)
.required();
const API_VERSION: Field = Field::new(
    "apiVersion",
    Ty::Str,
    "The API version (blueprints.windsorcli.dev/v1alpha1).",
);

/// A facet's `metadata`: its name is required, anything else is kept.
const METADATA_OBJ: Obj = Obj {
    doc: "The facet's identity.",
    fields: &[&[
        Field::new("name", Ty::Str, "The facet's name, unique in the template.").required(),
        Field::new("description", Ty::Str, "What the facet contributes, in one line."),
    ]],
    rest: Rest::Open,
};
const METADATA: Field = Field::new("metadata", Ty::Obj(&METADATA_OBJ), "The facet's identity.").required();
const ORDINAL: Field = Field::new(
    "ordinal",
    Ty::Int,
    "Where the facet folds among the others (higher wins); by default from its file name: config- 100, \
     provider-/platform- 200 (199 with -base), option- 300, addon- 400, else 0.",
);
const FACET_WHEN: Field = Field::new("when", WHEN, "The facet is applied only when this condition holds.");

/// A v0.9 config block's fields.
pub(super) const BLOCK: &[Field] = &[
    Field::new("name", Ty::Str, "The block's name: the scope key its value is read at.").required(),
    Field::new(
        "value",
        Ty::Any,
        "The block's value: a scalar, list or mapping; `${…}` in it is evaluated.",
    )
    .required(),
    Field::new("when", WHEN, "The block is applied only when this condition holds."),
    FACET_ONLY[1],
    FACET_ONLY[2],
    FACET_ONLY[3],
];

const BLOCK_OBJ: Obj = Obj {
    doc: "A named value the facet adds to the scope its expressions see.",
    fields: &[BLOCK],
    rest: Rest::Newer,
};

/// A seed-format config block: its body is written beside `name` and `when`.
const SEED_BLOCK_OBJ: Obj = Obj {
    doc: "A named value the facet adds to the scope: every key beside name and when is its body.",
    fields: &[&[BLOCK[0], BLOCK[2]]],
    rest: Rest::Open,
};

/// The top-level fields of a v0.9 facet.
pub(super) const FACET: &[Field] = &[
    KIND,
    API_VERSION,
    METADATA,
    ORDINAL,
    FACET_WHEN,
    Field::new(
        "backend",
        Ty::Str,
        "The terraform component that ends the backend tier.",
    ),
    Field::new(
        "config",
        Ty::List(&Ty::Obj(&BLOCK_OBJ)),
        "Named values added to the scope.",
    ),
    Field::new(
        "requires",
        REQUIRES,
        "Values that must be set when the facet is applied.",
    ),
    Field::new(
        "terraform",
        Ty::List(&Ty::Obj(&FACET_TERRAFORM)),
        "The terraform components it contributes.",
    ),
    Field::new(
        "kustomize",
        Ty::List(&Ty::Obj(&FACET_KUSTOMIZATION)),
        "The kustomizations it contributes.",
    ),
    Field::new(
        "flux",
        Ty::List(&Ty::Obj(&FLUX_SYSTEM_OBJ)),
        "The flux systems it contributes.",
    ),
    Field::new("crds", Ty::List(&Ty::Any), "The vendored CRDs it needs installed."),
    Field::new(
        "substitutions",
        Ty::Names(&Ty::Any),
        "Substitutions every kustomization gets; `${…}` in them is evaluated.",
    ),
    Field::new(
        "messages",
        Ty::List(&Ty::Obj(&MESSAGE_OBJ)),
        "Notes shown after a successful run.",
    ),
];

/// The top-level fields of a seed-format facet.
pub(super) const SEED_FACET: &[Field] = &[
    KIND,
    API_VERSION,
    METADATA,
    ORDINAL,
    FACET_WHEN,
    Field::new(
        "config",
        Ty::List(&Ty::Obj(&SEED_BLOCK_OBJ)),
        "Named values added to the scope.",
    ),
    Field::new(
        "terraform",
        Ty::List(&Ty::Obj(&SEED_FACET_TERRAFORM)),
        "The terraform components it contributes.",
    ),
    Field::new(
        "kustomize",
        Ty::List(&Ty::Obj(&SEED_FACET_KUSTOMIZATION)),
        "The kustomizations it contributes.",
    ),
];

/// A v0.9 facet file.
pub const FACET_OBJ: Obj = Obj {
    doc: "A Windsor facet (the v0.9 format): what it contributes to a context's blueprint, and when.",
    fields: &[FACET],
    rest: Rest::Newer,
};

/// A seed-format facet file.
pub const SEED_FACET_OBJ: Obj = Obj {
    doc: "A Windsor facet (the seed format): what it contributes to a context's blueprint, and when.",
    fields: &[SEED_FACET],
    rest: Rest::Newer,
};

/// The names of [`FACET`].
pub(super) const FACET_FIELDS: &[&str] = field_names!(FACET);
/// The names of [`SEED_FACET`].
pub(super) const SEED_FACET_FIELDS: &[&str] = field_names!(SEED_FACET);
/// The names of [`BLOCK`].
pub(super) const BLOCK_FIELDS: &[&str] = field_names!(BLOCK);
