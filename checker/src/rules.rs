//! The rules both languages' checks share (each language adds its own).

use super::IssueKind;
use super::finding::{Rule, Severity};

/// A template a render would refuse before evaluating anything.
pub static INVALID_TEMPLATE: Rule = Rule {
    id: "invalid-template",
    severity: Severity::Error,
    summary: "The template does not load: a render would refuse it before evaluating anything.",
};

/// A path nothing declared provides.
pub static UNKNOWN_PATH: Rule = Rule {
    id: "unknown-path",
    severity: Severity::Warning,
    summary: "An expression reads a path that nothing the template declares can provide.",
};

/// An operation the operands' declared types rule out.
pub static TYPE_MISMATCH: Rule = Rule {
    id: "type-mismatch",
    severity: Severity::Error,
    summary: "An operation its operands' declared types rule out, or a comparison that can never hold.",
};

/// A comparison with a value the schema does not allow.
pub static NOT_IN_ENUM: Rule = Rule {
    id: "not-in-enum",
    severity: Severity::Warning,
    summary: "An expression compares a value with a text its schema's enum does not allow.",
};

/// The rules of this module.
pub static SHARED: &[&Rule] = &[&INVALID_TEMPLATE, &UNKNOWN_PATH, &TYPE_MISMATCH, &NOT_IN_ENUM];

impl IssueKind {
    /// The rule an issue of this kind breaks.
    ///
    /// ```
    /// use bpvm_checker::IssueKind;
    /// assert_eq!(IssueKind::UnknownPath.rule().id, "unknown-path");
    /// ```
    pub fn rule(self) -> &'static Rule {
        match self {
            IssueKind::UnknownPath => &UNKNOWN_PATH,
            IssueKind::Mismatch => &TYPE_MISMATCH,
            IssueKind::NotInEnum => &NOT_IN_ENUM,
        }
    }
}
