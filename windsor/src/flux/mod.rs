//! `flux:` systems (Windsor v0.9): a named unit of Flux kustomizations
//! with an `install` tier (controllers) and `resources` variants (what
//! the controllers serve). A facet's systems are compiled with it; each
//! render evaluates the included ones and folds same-name systems.
//!
//! The types are here; `parse`, `evaluate` and `fold` each import the
//! leaves, `blueprint` and `template`, never `load` or `render` (a facet
//! holds systems, a render folds them).

mod evaluate;
mod fold;
mod parse;
pub(crate) mod tiers;

pub use evaluate::evaluate;
pub(crate) use fold::reorder;
pub use fold::{merge, remove};
pub use parse::parse;

use crate::kind::Strategy;
use crate::template::condition::Cond;
use crate::template::tmpl::Tmpl;
use bpvm_runtime::Map;

/// An install tier or a resources variant, compiled.
#[derive(Debug, Clone)]
pub struct Tier {
    /// Its own condition (variants only).
    pub when: Option<Cond>,
    /// `components`, evaluated as a list of names.
    pub components: Option<Tmpl>,
    /// `dependsOn` (variants only).
    pub depends_on: Option<Tmpl>,
    /// `substitutions` with `substitute` over it.
    pub substitutions: Option<Tmpl>,
    /// Whether it declares `substitutions` (`substitute` alone does not
    /// keep an install tier without components).
    pub declares_substitutions: bool,
    /// Every other field, kept as written (durations, patches, enabled).
    pub raw: Map,
}

/// A system of a facet, compiled.
#[derive(Debug, Clone)]
pub struct System {
    /// Its identity.
    pub name: String,
    /// Its own condition (none: the facet's).
    pub when: Option<Cond>,
    /// How it folds into a same-name system.
    pub strategy: Strategy,
    /// Its own ordinal (none: the facet's).
    pub ordinal: Option<i64>,
    /// Cross-system dependencies.
    pub depends_on: Option<Tmpl>,
    /// The controller tier.
    pub install: Option<Tier>,
    /// The resources variants.
    pub resources: Vec<Tier>,
    /// `path`, `source`, `enabled`, `destroy`, `globalDependency` and
    /// `secrets`, kept as written: secrets are resolved at deploy time.
    pub raw: Map,
    /// Fields of a newer Windsor (W13), as written, in document order:
    /// printed after the known ones.
    pub extra: Map,
}
