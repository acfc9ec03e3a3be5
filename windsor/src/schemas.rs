//! The files of a Windsor project bpvm reads, each as a [`Document`] for
//! `bpvm schema`: built from the same field tables the loaders check keys
//! against (`fields`, `load::facet`, `test::keys`), so a schema cannot
//! list a field a loader refuses, or miss one it reads.
//!
//! Imports those tables; nothing imports this but the crate's users.

use crate::fields::table::{BLUEPRINT, SEED_BLUEPRINT};
use crate::load::facet::{FACET_OBJ, SEED_FACET_OBJ};
use crate::test::keys::shape::{FILE_SEED_OBJ, FILE_V09_OBJ};
use bpvm_runtime::shape::{Document, Field, Obj, Rest, Ty};

/// Where a template's facets are.
const FACETS: &[&str] = &[
    "**/contexts/_template/facets/**/*.yaml",
    "**/contexts/_template/facets/**/*.yml",
];
/// Where a template's tests are.
const TESTS: &[&str] = &[
    "**/contexts/_template/tests/**/*.yaml",
    "**/contexts/_template/tests/**/*.yml",
];

const BASE_V09: Obj = Obj {
    doc: "A Windsor template's base blueprint (the v0.9 format): what every context's facets fold into.",
    fields: &[BLUEPRINT],
    rest: Rest::Newer,
};

const BASE_SEED: Obj = Obj {
    doc: "A Windsor template's base blueprint (the seed format): what every context's facets fold into.",
    fields: &[SEED_BLUEPRINT],
    rest: Rest::Newer,
};

/// `windsor.yaml`'s top-level fields: those bpvm reads (`context`,
/// `contexts`) and the others Windsor v0.9 defines.
const PROJECT: &[Field] = &[
    Field::new("version", Ty::Str, "The file's schema version (v1alpha1)."),
    Field::new(
        "context",
        Ty::Str,
        "The current context, when neither .windsor/context nor WINDSOR_CONTEXT names one.",
    ),
    Field::new(
        "contexts",
        Ty::Names(&Ty::Names(&Ty::Any)),
        "Each context's settings by name: values a render of that context sees, under its values.yaml.",
    ),
    Field::new(
        "terraform",
        Ty::Names(&Ty::Any),
        "Terraform settings every context shares (Windsor's own).",
    ),
    Field::new(
        "toolsManager",
        Ty::Str,
        "The tool manager pinning binary versions (Windsor's own).",
    ),
];

const PROJECT_OBJ: Obj = Obj {
    doc: "A Windsor project's windsor.yaml.",
    fields: &[PROJECT],
    rest: Rest::Unread,
};

/// Every Windsor file kind's schema, in the order `bpvm schema --list`
/// prints them.
///
/// ```
/// let names: Vec<&str> = bpvm_windsor::schemas::DOCUMENTS.iter().map(|d| d.name).collect();
/// assert!(names.contains(&"windsor-facet"));
/// ```
pub const DOCUMENTS: &[Document] = &[
    Document {
        name: "windsor-facet",
        title: "Windsor facet (v0.9 format)",
        globs: FACETS,
        ty: Ty::Obj(&FACET_OBJ),
    },
    Document {
        name: "windsor-facet-seed",
        title: "Windsor facet (seed format)",
        globs: FACETS,
        ty: Ty::Obj(&SEED_FACET_OBJ),
    },
    Document {
        name: "windsor-test",
        title: "Windsor template test file (v0.9 format)",
        globs: TESTS,
        ty: Ty::Obj(&FILE_V09_OBJ),
    },
    Document {
        name: "windsor-test-seed",
        title: "Windsor template test file (seed format)",
        globs: TESTS,
        ty: Ty::Obj(&FILE_SEED_OBJ),
    },
    Document {
        name: "windsor-blueprint",
        title: "Windsor base blueprint (v0.9 format)",
        globs: &["**/contexts/_template/blueprint.yaml"],
        ty: Ty::Obj(&BASE_V09),
    },
    Document {
        name: "windsor-blueprint-seed",
        title: "Windsor base blueprint (seed format)",
        globs: &["**/contexts/_template/blueprint.yaml"],
        ty: Ty::Obj(&BASE_SEED),
    },
    Document {
        name: "windsor-project",
        title: "Windsor project file (windsor.yaml)",
        globs: &["windsor.yaml", "windsor.yml"],
        ty: Ty::Obj(&PROJECT_OBJ),
    },
];
