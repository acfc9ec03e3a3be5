//! The rules a Bluelink check applies: the shared ones it uses, and those
//! only blueprints have.

use bpvm_checker::rules::{INVALID_TEMPLATE, TYPE_MISMATCH, UNKNOWN_PATH};
use bpvm_checker::{Rule, Severity};

/// A `children.<name>.<export>` reference to an export the child
/// blueprint does not declare.
///
/// ```
/// use bpvm_bluelink::check::UNKNOWN_EXPORT;
/// use bpvm_checker::Severity;
/// assert_eq!((UNKNOWN_EXPORT.id, UNKNOWN_EXPORT.severity), ("unknown-export", Severity::Error));
/// ```
pub static UNKNOWN_EXPORT: Rule = Rule {
    id: "unknown-export",
    severity: Severity::Error,
    summary: "A `children.<name>.<export>` reference to an export the child blueprint does not declare.",
};

/// An include passing a variable the child blueprint does not declare.
///
/// ```
/// use bpvm_bluelink::check::UNKNOWN_CHILD_VARIABLE;
/// assert_eq!(UNKNOWN_CHILD_VARIABLE.id, "unknown-child-variable");
/// ```
pub static UNKNOWN_CHILD_VARIABLE: Rule = Rule {
    id: "unknown-child-variable",
    severity: Severity::Error,
    summary: "An include passes a variable the child blueprint does not declare.",
};

/// An include that does not pass a variable the child blueprint
/// declares without a default.
///
/// ```
/// use bpvm_bluelink::check::MISSING_CHILD_VARIABLE;
/// assert_eq!(MISSING_CHILD_VARIABLE.id, "missing-child-variable");
/// ```
pub static MISSING_CHILD_VARIABLE: Rule = Rule {
    id: "missing-child-variable",
    severity: Severity::Error,
    summary: "An include does not pass a variable the child blueprint declares without a default.",
};

/// Every rule a Bluelink check reports, shared ones first.
///
/// ```
/// use bpvm_bluelink::check::RULES;
/// let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
/// assert!(ids.contains(&"unknown-export") && ids.contains(&"type-mismatch"));
/// ```
pub static RULES: &[&Rule] = &[
    &INVALID_TEMPLATE,
    &UNKNOWN_PATH,
    &TYPE_MISMATCH,
    &UNKNOWN_EXPORT,
    &UNKNOWN_CHILD_VARIABLE,
    &MISSING_CHILD_VARIABLE,
];
