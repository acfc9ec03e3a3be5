//! What `explain` answers: a value, every contribution to it in fold
//! order, and what became of each.

use crate::context::origins::{Origin, Origins};
use bpvm_runtime::Value;
use bpvm_vm::reads::Read;

/// What a path of a rendered blueprint is, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The path asked about, as given.
    pub path: String,
    /// Its value in the blueprint (in the scope, for a config block);
    /// `None` when it is not there.
    pub value: Option<Value>,
    /// Every contribution that sets it or removes it, in fold order.
    pub contributions: Vec<Contribution>,
    /// Items of a list value that no deciding contribution gave: what
    /// Windsor adds after composing (v0.9 dependency barriers: a bare
    /// system name becomes its install tier, systems without dependencies
    /// wait for the CRD layer, everything waits for global-dependency
    /// systems).
    pub added: Vec<Value>,
    /// Where the value came from when it is one of the scope's (a value
    /// of the context, or what a config block set): each leaf at the path
    /// or under it, with its origin.
    pub origin: Vec<(String, Origin)>,
    /// Where every leaf of the scope came from (what each expression
    /// read); empty when not traced.
    pub origins: Origins,
    /// Whether the path is one of the scope's (a value of the context or
    /// a config block's key).
    pub scoped: bool,
}

/// One facet's (or the base blueprint's) part in a value.
#[derive(Debug, Clone, PartialEq)]
pub struct Contribution {
    /// The facet's name; `None` for the base blueprint.
    pub facet: Option<String>,
    /// The file, as messages print it (from where bpvm runs).
    pub file: String,
    /// Where the value is written in the file (line, column from 1).
    pub at: Option<(usize, usize)>,
    /// The ordinal it folds at (`None`: the base blueprint, first).
    pub ordinal: Option<i64>,
    /// How it folds: `merge`, `replace` or `remove`.
    pub strategy: &'static str,
    /// The conditions that decide it, the facet's first, each with what
    /// it gave in this render.
    pub conditions: Vec<(String, bool)>,
    /// What it gives at the path (`None`: it removes it, or failed).
    pub value: Option<Value>,
    /// Why evaluating it failed.
    pub error: Option<String>,
    /// The expression, when the value is computed (the `${…}` text).
    pub expression: Option<String>,
    /// What the expression read, in the order it reads them.
    pub reads: Vec<Read>,
    /// What became of it.
    pub role: Role,
}

/// What became of a contribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// It decided the value (a list or map: one of those merged into it).
    Effective,
    /// A later one (higher ordinal, or later facet) decided it instead.
    Overridden,
    /// A condition was false: it took no part.
    Excluded,
}
