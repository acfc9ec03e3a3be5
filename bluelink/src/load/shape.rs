//! A blueprint's fields, section by section: what the loader checks keys
//! and required fields against, and what `bpvm schema bluelink-blueprint`
//! prints. Both read these tables, so they cannot disagree.

use bpvm_runtime::shape::{Document, Field, Obj, Rest, Ty};

/// Blueprint versions accepted (B1).
pub const VERSIONS: [&str; 2] = ["2023-04-20", "2025-11-02"];

const DESCRIPTION: Field = Field::new("description", Ty::Str, "What it is, for people; may hold ${..}.");
/// A type name: a core type (string, integer, float, boolean, array,
/// object) or a provider's.
const TYPE: Field = Field::new("type", Ty::Str, "Its type.").required();
const SECRET: Field = Field::new("secret", Ty::Bool, "Mask its value in everything printed.");
const NAMES: Ty = Ty::Either(&[Ty::Str, Ty::List(&Ty::Str)]);

/// A variable's fields.
pub(super) const VARIABLE: &[Field] = &[
    Field::new(
        "type",
        Ty::Str,
        "string, integer, float, boolean, or a provider's type.",
    )
    .required(),
    DESCRIPTION,
    SECRET,
    Field::new("default", Ty::Any, "The value when none is given."),
    Field::new("allowedValues", Ty::List(&Ty::Any), "The only values it may be given."),
];

/// A value definition's fields.
pub(super) const VALUE: &[Field] = &[
    Field::new("type", Ty::Str, "string, integer, float, boolean, array or object.").required(),
    Field::new("value", Ty::Any, "The value; may hold ${..}.").required(),
    DESCRIPTION,
    SECRET,
];

/// An include's fields.
pub(super) const INCLUDE: &[Field] = &[
    Field::new("path", Ty::Str, "The child blueprint's path, relative to this one.").required(),
    Field::new("variables", Ty::Names(&Ty::Any), "The child's variables, by name."),
    Field::new("metadata", Ty::Names(&Ty::Any), "Anything the deploy tooling reads."),
    DESCRIPTION,
];

/// An export's fields.
pub(super) const EXPORT: &[Field] = &[
    TYPE,
    Field::new(
        "field",
        Ty::Str,
        "What it exports: a resource field, a data source field, a value….",
    )
    .required(),
    DESCRIPTION,
];

/// A data source's `metadata` fields.
pub(super) const DATASOURCE_META: &[Field] = &[
    Field::new("displayName", Ty::Str, "A name for people."),
    Field::new(
        "annotations",
        Ty::Names(&Ty::Any),
        "Annotations for the provider, by name.",
    ),
    Field::new("custom", Ty::Any, "Anything else."),
];

/// A data source filter's fields.
pub(super) const FILTER: &[Field] = &[
    Field::new("field", Ty::Str, "The field it compares.").required(),
    Field::new(
        "operator",
        Ty::Str,
        "How it compares (=, !=, in, not in, contains, starts with, …).",
    )
    .required(),
    Field::new("search", Ty::Any, "What it compares with.").required(),
];

/// A data source export's fields.
pub(super) const DATASOURCE_EXPORT: &[Field] = &[
    TYPE,
    Field::new("aliasFor", Ty::Str, "The provider's name for the field."),
    DESCRIPTION,
];

const FILTER_OBJ: Obj = Obj {
    doc: "A condition the data source's item must meet.",
    fields: &[FILTER],
    rest: Rest::Refused,
};
const DATASOURCE_EXPORT_OBJ: Obj = Obj {
    doc: "A field of the data source.",
    fields: &[DATASOURCE_EXPORT],
    rest: Rest::Refused,
};
const DATASOURCE_META_OBJ: Obj = Obj {
    doc: "The data source's metadata.",
    fields: &[DATASOURCE_META],
    rest: Rest::Refused,
};

/// A data source's fields.
pub(super) const DATASOURCE: &[Field] = &[
    TYPE,
    Field::new("metadata", Ty::Obj(&DATASOURCE_META_OBJ), "Its metadata."),
    Field::new(
        "filter",
        Ty::Either(&[Ty::Obj(&FILTER_OBJ), Ty::List(&Ty::Obj(&FILTER_OBJ))]),
        "Which item it reads: a filter, or (version 2025-11-02) a list of them.",
    )
    .required(),
    Field::new(
        "exports",
        Ty::Either(&[Ty::Names(&Ty::Obj(&DATASOURCE_EXPORT_OBJ)), Ty::OneOf(&["*"])]),
        "The fields it exports, by name; \"*\" for all (version 2025-11-02).",
    )
    .required(),
    DESCRIPTION,
];

/// A resource's `metadata` fields.
pub(super) const RESOURCE_META: &[Field] = &[
    DATASOURCE_META[0],
    DATASOURCE_META[1],
    Field::new("labels", Ty::Names(&Ty::Str), "Labels other resources select it by."),
    DATASOURCE_META[2],
];

/// A resource's `linkSelector` fields.
pub(super) const LINK_SELECTOR: &[Field] = &[
    Field::new(
        "byLabel",
        Ty::Names(&Ty::Str),
        "The labels of the resources it links to.",
    )
    .required(),
    Field::new(
        "exclude",
        Ty::List(&Ty::Str),
        "Resources it does not link to (version 2025-11-02).",
    ),
];

const RESOURCE_META_OBJ: Obj = Obj {
    doc: "The resource's metadata.",
    fields: &[RESOURCE_META],
    rest: Rest::Refused,
};
const LINK_SELECTOR_OBJ: Obj = Obj {
    doc: "Which resources it links to.",
    fields: &[LINK_SELECTOR],
    rest: Rest::Refused,
};

/// A resource's fields.
pub(super) const RESOURCE: &[Field] = &[
    TYPE,
    DESCRIPTION,
    Field::new("metadata", Ty::Obj(&RESOURCE_META_OBJ), "Its metadata."),
    Field::new("dependsOn", NAMES, "Resources that must be deployed first."),
    Field::new(
        "condition",
        Ty::Any,
        "It is deployed only when this holds: a ${..} string, or and/or/not of conditions.",
    ),
    Field::new("each", Ty::Str, "One resource for each item of this ${..} list."),
    Field::new(
        "linkSelector",
        Ty::Obj(&LINK_SELECTOR_OBJ),
        "Which resources it links to.",
    ),
    Field::new(
        "removalPolicy",
        Ty::OneOf(&["delete", "retain"]),
        "What happens to it when it is removed (version 2025-11-02).",
    ),
    Field::new("spec", Ty::Any, "What the provider creates; may hold ${..}.").required(),
];

const VARIABLE_OBJ: Obj = Obj {
    doc: "A variable: a value given when the blueprint is rendered.",
    fields: &[VARIABLE],
    rest: Rest::Refused,
};
const VALUE_OBJ: Obj = Obj {
    doc: "A named value.",
    fields: &[VALUE],
    rest: Rest::Refused,
};
const DATASOURCE_OBJ: Obj = Obj {
    doc: "A data source.",
    fields: &[DATASOURCE],
    rest: Rest::Refused,
};
const RESOURCE_OBJ: Obj = Obj {
    doc: "A resource.",
    fields: &[RESOURCE],
    rest: Rest::Refused,
};
const INCLUDE_OBJ: Obj = Obj {
    doc: "A child blueprint.",
    fields: &[INCLUDE],
    rest: Rest::Refused,
};
const EXPORT_OBJ: Obj = Obj {
    doc: "An export.",
    fields: &[EXPORT],
    rest: Rest::Refused,
};

/// A blueprint's top-level fields.
pub(super) const TOP: &[Field] = &[
    Field::new("version", Ty::OneOf(&VERSIONS), "The blueprint format's version.").required(),
    Field::new(
        "transform",
        NAMES,
        "Transformers applied to the blueprint before it is deployed.",
    ),
    Field::new(
        "variables",
        Ty::Names(&Ty::Obj(&VARIABLE_OBJ)),
        "Its variables, by name.",
    ),
    Field::new(
        "values",
        Ty::Names(&Ty::Obj(&VALUE_OBJ)),
        "Named values computed once, by name.",
    ),
    Field::new(
        "datasources",
        Ty::Names(&Ty::Obj(&DATASOURCE_OBJ)),
        "Data read from providers, by name.",
    ),
    Field::new(
        "resources",
        Ty::Names(&Ty::Obj(&RESOURCE_OBJ)),
        "Its resources, by name.",
    ),
    Field::new(
        "include",
        Ty::Names(&Ty::Obj(&INCLUDE_OBJ)),
        "Child blueprints, by name.",
    ),
    Field::new("exports", Ty::Names(&Ty::Obj(&EXPORT_OBJ)), "What it exports, by name."),
    Field::new("metadata", Ty::Names(&Ty::Any), "Anything the deploy tooling reads."),
];

const TOP_OBJ: Obj = Obj {
    doc: "A Bluelink blueprint (YAML or JSON).",
    fields: &[TOP],
    rest: Rest::Refused,
};

/// A Bluelink blueprint's schema, for `bpvm schema`.
///
/// ```
/// assert_eq!(bpvm_bluelink::SCHEMA.name, "bluelink-blueprint");
/// ```
pub const SCHEMA: Document = Document {
    name: "bluelink-blueprint",
    title: "Bluelink blueprint",
    globs: &["*.blueprint.yaml", "*.blueprint.yml", "*.blueprint.json"],
    ty: Ty::Obj(&TOP_OBJ),
};
