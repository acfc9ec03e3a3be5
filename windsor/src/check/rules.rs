//! The rules only Windsor templates have.

use bpvm_checker::{Rule, Severity};

/// A condition with one result for every value the schema allows.
pub static CONSTANT_WHEN: Rule = Rule {
    id: "constant-when",
    severity: Severity::Warning,
    summary: "A `when` that gives the same result for every value the schema allows (or reads nothing at all).",
};

/// Something no context can include.
pub static UNREACHABLE: Rule = Rule {
    id: "unreachable",
    severity: Severity::Warning,
    summary: "A facet, component or config block whose conditions no combination of the schema's values can satisfy.",
};

/// A config block nothing reads.
pub static UNUSED_CONFIG: Rule = Rule {
    id: "unused-config",
    severity: Severity::Warning,
    summary: "A config block that no expression, requirement or Jsonnet file of the template reads.",
};

/// A `dependsOn` naming nothing.
pub static UNKNOWN_DEPENDENCY: Rule = Rule {
    id: "unknown-dependency",
    severity: Severity::Error,
    summary: "A `dependsOn` naming a component that neither the blueprint nor any facet defines.",
};

/// `dependsOn` chains that lead back to where they start.
pub static DEPENDENCY_CYCLE: Rule = Rule {
    id: "dependency-cycle",
    severity: Severity::Error,
    summary: "Terraform components or kustomizations whose `dependsOn` lead back to themselves: a render that includes them all fails.",
};

/// A file a call reads that is not there.
pub static MISSING_FILE: Rule = Rule {
    id: "missing-file",
    severity: Severity::Error,
    summary: "A `file()` or `jsonnet()` call whose path names no file inside the project.",
};

/// Context values the schema refuses.
pub static SCHEMA_VIOLATION: Rule = Rule {
    id: "schema-violation",
    severity: Severity::Error,
    summary: "A context's `values.yaml` or a test case's `values` that the template's schema refuses.",
};

/// A field Windsor v0.9 does not know, far from every one it does.
pub static UNKNOWN_FIELD: Rule = Rule {
    id: "unknown-field",
    severity: Severity::Warning,
    summary: "A field that a facet, component, flux system, config block or the base blueprint does not have and that is no typo of one (a newer Windsor's): passed through as written, or ignored where nothing is output.",
};

/// The rules Windsor checks add to the shared ones.
pub static WINDSOR: &[&Rule] = &[
    &CONSTANT_WHEN,
    &UNREACHABLE,
    &UNUSED_CONFIG,
    &UNKNOWN_DEPENDENCY,
    &DEPENDENCY_CYCLE,
    &MISSING_FILE,
    &SCHEMA_VIOLATION,
    &UNKNOWN_FIELD,
    &TEST_UNKNOWN_KEY,
    &TEST_IGNORED_KEY,
    &TEST_DUPLICATE_NAME,
];

/// A test file key no field stands for, or a typo of one.
pub static TEST_UNKNOWN_KEY: Rule = Rule {
    id: "test-unknown-key",
    severity: Severity::Error,
    summary: "A key of a test file, a case or an expectation that no field stands for: a misspelt `expect` or `inputs` asserts nothing, so the case would pass.",
};

/// An expectation key Windsor's runner ignores.
pub static TEST_IGNORED_KEY: Rule = Rule {
    id: "test-ignored-key",
    severity: Severity::Warning,
    summary: "A key of a test expectation that is no field of what it expects (not close to one): Windsor's runner ignores it, so it asserts nothing.",
};

/// A case name given twice in one test file.
pub static TEST_DUPLICATE_NAME: Rule = Rule {
    id: "test-duplicate-name",
    severity: Severity::Error,
    summary: "Two cases of one test file with the same name: `bpvm test NAME` and Windsor's report cannot tell them apart.",
};
