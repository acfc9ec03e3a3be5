//! Windsor's blueprint types as field tables: each field's name, what it
//! holds and what it is for. The loaders' unknown-field checks read the
//! names (`super`), `bpvm schema` the rest.

use bpvm_runtime::shape::{Field, Obj, Rest, Ty};

/// A value Windsor reads as a boolean, or a `${…}` text giving one.
pub(crate) const BOOL_OR_EXPR: Ty = Ty::Either(&[Ty::Bool, Ty::Str]);
/// A list of names, or a `${…}` text giving one.
pub(crate) const NAMES: Ty = Ty::Either(&[Ty::List(&Ty::Str), Ty::Str]);
/// A condition: an expression without `${…}`, or a boolean.
pub(crate) const WHEN: Ty = Ty::Either(&[Ty::Str, Ty::Bool]);
/// A fold strategy.
pub(crate) const STRATEGY: Ty = Ty::OneOf(&["merge", "replace", "remove"]);

/// A component's identity field.
const NAME: Field = Field::new(
    "name",
    Ty::Str,
    "The name: what dependsOn and later facets refer to it by.",
);
const SOURCE: Field = Field::new("source", Ty::Str, "The name of the source that provides it.");
const DEPENDS_ON: Field = Field::new(
    "dependsOn",
    NAMES,
    "The components that must be applied before this one.",
);
const DESTROY: Field = Field::new(
    "destroy",
    BOOL_OR_EXPR,
    "Whether it is destroyed on teardown (default true).",
);
const ENABLED: Field = Field::new(
    "enabled",
    BOOL_OR_EXPR,
    "Whether it is part of the blueprint (default true); decided at deploy time.",
);
const PATCHES: Field = Field::new(
    "patches",
    Ty::List(&Ty::Any),
    "Patches applied to the kustomization: a path to a patch file, or an inline patch with its target.",
);
const SUBSTITUTIONS: Field = Field::new(
    "substitutions",
    Ty::Names(&Ty::Any),
    "Post-build variable substitutions, by name.",
);

/// A terraform component's fields.
pub const TERRAFORM: &[Field] = &[
    Field::new("name", Ty::Str, "The component's id; when absent, its path is."),
    SOURCE,
    Field::new("path", Ty::Str, "The module's path within its source."),
    DEPENDS_ON,
    Field::new(
        "inputs",
        Ty::Names(&Ty::Any),
        "The module's input values; `${…}` in them is evaluated.",
    ),
    DESTROY,
    Field::new(
        "parallelism",
        Ty::Either(&[Ty::Int, Ty::Str]),
        "How many operations terraform runs at once for this component.",
    ),
    ENABLED,
];

/// The fields both formats' kustomizations have, before their own.
const KUSTOMIZATION_HEAD: [Field; 3] = [
    NAME,
    Field::new(
        "path",
        Ty::Str,
        "The kustomize base's path within its source (default: the name).",
    ),
    SOURCE,
];

const INTERVAL: Field = Field::new("interval", Ty::Str, "How often it is reconciled (a duration: 5m, 1h).");
const RETRY: Field = Field::new(
    "retryInterval",
    Ty::Str,
    "How long to wait before retrying a failed reconciliation.",
);
const TIMEOUT: Field = Field::new("timeout", Ty::Str, "How long one reconciliation may take.");
const WAIT: Field = Field::new("wait", BOOL_OR_EXPR, "Wait for its resources to be ready.");
const FORCE: Field = Field::new("force", BOOL_OR_EXPR, "Recreate resources that cannot be updated.");
const PRUNE: Field = Field::new(
    "prune",
    BOOL_OR_EXPR,
    "Delete resources removed from the source (default true).",
);
const COMPONENTS: Field = Field::new("components", NAMES, "The kustomize components composed into it.");
const DESTROY_ONLY: Field = Field::new("destroyOnly", BOOL_OR_EXPR, "Applied only on teardown.");

/// A kustomization's fields by the v0.9 format (also a flux system's tiers').
pub const KUSTOMIZATION: &[Field] = &[
    KUSTOMIZATION_HEAD[0],
    KUSTOMIZATION_HEAD[1],
    KUSTOMIZATION_HEAD[2],
    Field::new("namespace", Ty::Str, "The namespace the Kustomization object lives in."),
    Field::new(
        "targetNamespace",
        Ty::Str,
        "The namespace every resource it reconciles is put in.",
    ),
    DEPENDS_ON,
    INTERVAL,
    RETRY,
    TIMEOUT,
    PATCHES,
    WAIT,
    FORCE,
    PRUNE,
    COMPONENTS,
    DESTROY,
    DESTROY_ONLY,
    ENABLED,
    SUBSTITUTIONS,
    Field::new(
        "substitute",
        Ty::Names(&Ty::Any),
        "Post-build substitutions (Flux's spelling), merged with substitutions.",
    ),
    Field::new(
        "decryption",
        Ty::Names(&Ty::Any),
        "In-cluster decryption of its manifests: a provider and a secretRef.",
    ),
];

/// A seed-format kustomization's fields.
pub const SEED_KUSTOMIZATION: &[Field] = &[
    KUSTOMIZATION_HEAD[0],
    KUSTOMIZATION_HEAD[1],
    KUSTOMIZATION_HEAD[2],
    DEPENDS_ON,
    INTERVAL,
    RETRY,
    TIMEOUT,
    PATCHES,
    WAIT,
    FORCE,
    PRUNE,
    COMPONENTS,
    Field::new("cleanup", NAMES, "What is cleaned up when it is destroyed."),
    DESTROY,
    DESTROY_ONLY,
    ENABLED,
    SUBSTITUTIONS,
];

/// A requirement's fields (a facet's, a config block's or a component's
/// `requires:` items).
pub const REQUIREMENT: &[Field] = &[
    Field::new(
        "paths",
        Ty::List(&Ty::Str),
        "Dotted scope paths that must be set (at least one).",
    )
    .required(),
    Field::new("when", WHEN, "Checked only when this condition holds."),
    Field::new("message", Ty::Str, "Printed under a missing path (never evaluated)."),
];

/// A requirement, as one mapping.
pub const REQUIREMENT_OBJ: Obj = Obj {
    doc: "Values that must be set when what it belongs to is active.",
    fields: &[REQUIREMENT],
    rest: Rest::Newer,
};

pub(crate) const REQUIRES: Ty = Ty::List(&Ty::Obj(&REQUIREMENT_OBJ));

/// What a facet's components, systems and config blocks add to their
/// type's fields (the v0.9 format).
pub const FACET_ONLY: &[Field] = &[
    Field::new("when", WHEN, "It is contributed only when this condition holds."),
    Field::new(
        "strategy",
        STRATEGY,
        "How it folds into a same-named one of a lower ordinal: merge (default), replace or remove.",
    ),
    Field::new(
        "ordinal",
        Ty::Int,
        "Its own ordinal, in place of its facet's, for the order contributions fold in.",
    ),
    Field::new("requires", REQUIRES, "Values that must be set when it is contributed."),
];

/// What the seed format's facets add to a component's fields.
pub const SEED_FACET_ONLY: &[Field] = &[FACET_ONLY[0], FACET_ONLY[1], FACET_ONLY[2]];

/// A flux system's resources variant: a kustomization's fields and `when`.
const VARIANT: Obj = Obj {
    doc: "A custom-resource tier variant of a flux system.",
    fields: &[
        KUSTOMIZATION,
        &[Field::new(
            "when",
            WHEN,
            "The variant is included only when this holds.",
        )],
    ],
    rest: Rest::Newer,
};

/// A flux system's install tier.
const INSTALL: Obj = Obj {
    doc: "The controller tier of a flux system.",
    fields: &[KUSTOMIZATION],
    rest: Rest::Newer,
};

/// A flux system's fields.
pub const FLUX_SYSTEM: &[Field] = &[
    Field::new(
        "name",
        Ty::Str,
        "The system's name; its tiers are <name>-install and <name>-resources.",
    )
    .required(),
    Field::new("path", Ty::Str, "The base path of its tiers (default: the name)."),
    SOURCE,
    ENABLED,
    DESTROY,
    Field::new("when", WHEN, "The system is contributed only when this holds."),
    Field::new("dependsOn", NAMES, "Other systems this one needs."),
    FACET_ONLY[1],
    FACET_ONLY[2],
    Field::new(
        "globalDependency",
        BOOL_OR_EXPR,
        "Whether every other system depends on this one.",
    ),
    Field::new("install", Ty::Obj(&INSTALL), "The controller tier."),
    Field::new(
        "resources",
        Ty::List(&Ty::Obj(&VARIANT)),
        "The custom-resource tier's variants.",
    ),
    Field::new(
        "secrets",
        Ty::Names(&Ty::Any),
        "Secrets the system's tiers are given, by name.",
    ),
];

/// A flux system, as one mapping.
pub const FLUX_SYSTEM_OBJ: Obj = Obj {
    doc: "A flux system: an install tier and resources variants.",
    fields: &[FLUX_SYSTEM],
    rest: Rest::Newer,
};

/// A post-run message's fields.
pub const MESSAGE: &[Field] = &[
    Field::new("when", WHEN, "The message is shown only when this holds."),
    Field::new("text", Ty::Str, "The message; `${…}` in it is evaluated."),
];

/// A message, as one mapping.
pub const MESSAGE_OBJ: Obj = Obj {
    doc: "A note shown after a successful run.",
    fields: &[MESSAGE],
    rest: Rest::Newer,
};

/// A v0.9 facet's terraform component.
pub const FACET_TERRAFORM: Obj = Obj {
    doc: "A terraform component this facet contributes.",
    fields: &[TERRAFORM, FACET_ONLY],
    rest: Rest::Newer,
};

/// A v0.9 facet's kustomization.
pub const FACET_KUSTOMIZATION: Obj = Obj {
    doc: "A kustomization this facet contributes.",
    fields: &[KUSTOMIZATION, FACET_ONLY],
    rest: Rest::Newer,
};

/// A seed-format facet's terraform component.
pub const SEED_FACET_TERRAFORM: Obj = Obj {
    doc: "A terraform component this facet contributes.",
    fields: &[TERRAFORM, SEED_FACET_ONLY],
    rest: Rest::Newer,
};

/// A seed-format facet's kustomization.
pub const SEED_FACET_KUSTOMIZATION: Obj = Obj {
    doc: "A kustomization this facet contributes.",
    fields: &[SEED_KUSTOMIZATION, SEED_FACET_ONLY],
    rest: Rest::Newer,
};

const KIND: Field = Field::new("kind", Ty::Str, "What the document is.");
const API_VERSION: Field = Field::new(
    "apiVersion",
    Ty::Str,
    "The API version (blueprints.windsorcli.dev/v1alpha1).",
);
const METADATA: Field = Field::new("metadata", Ty::Names(&Ty::Any), "The blueprint's name and description.");
const REPOSITORY: Field = Field::new(
    "repository",
    Ty::Names(&Ty::Any),
    "The repository the blueprint comes from.",
);
const SOURCES: Field = Field::new(
    "sources",
    Ty::List(&Ty::Any),
    "The Git or OCI sources that provide modules and kustomize bases.",
);
const CONFIG_MAPS: Field = Field::new(
    "configMaps",
    Ty::Names(&Ty::Any),
    "ConfigMaps to create, by name, each a mapping of data.",
);

/// A blueprint's top-level fields by the v0.9 format.
pub const BLUEPRINT: &[Field] = &[
    KIND,
    API_VERSION,
    METADATA,
    Field::new(
        "backend",
        Ty::Str,
        "The terraform component that ends the backend tier.",
    ),
    REPOSITORY,
    SOURCES,
    Field::new(
        "terraform",
        Ty::List(&Ty::Obj(&FACET_TERRAFORM)),
        "The terraform components.",
    ),
    Field::new("crds", Ty::List(&Ty::Any), "The vendored CRDs to install."),
    Field::new(
        "kustomize",
        Ty::List(&Ty::Obj(&FACET_KUSTOMIZATION)),
        "The kustomizations.",
    ),
    Field::new("flux", Ty::List(&Ty::Obj(&FLUX_SYSTEM_OBJ)), "The flux systems."),
    SUBSTITUTIONS,
    CONFIG_MAPS,
    Field::new(
        "messages",
        Ty::List(&Ty::Obj(&MESSAGE_OBJ)),
        "Notes shown after a successful run.",
    ),
];

/// A seed-format blueprint's top-level fields.
pub const SEED_BLUEPRINT: &[Field] = &[
    KIND,
    API_VERSION,
    METADATA,
    REPOSITORY,
    SOURCES,
    Field::new(
        "terraform",
        Ty::List(&Ty::Obj(&SEED_FACET_TERRAFORM)),
        "The terraform components.",
    ),
    Field::new(
        "kustomize",
        Ty::List(&Ty::Obj(&SEED_FACET_KUSTOMIZATION)),
        "The kustomizations.",
    ),
    CONFIG_MAPS,
];
