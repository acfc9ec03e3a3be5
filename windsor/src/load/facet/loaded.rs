//! A facet as loaded: its config blocks, components and messages, each
//! with its condition and compiled templates.

use crate::flux::System;
use crate::kind::{Kind, Strategy};
use crate::load::requires::Requirement;
use crate::template::condition::Cond;
use crate::template::tmpl::Tmpl;

/// A named config block: a body evaluated late, in dependency order (W3).
#[derive(Debug, Clone)]
pub struct Block {
    /// The name it is read by (`talos.controlplanes`).
    pub name: String,
    /// Its condition.
    pub when: Option<Cond>,
    /// Every other key (v0.9: its `value`).
    pub body: Tmpl,
    /// How it folds into a same-name block of a lower ordinal (v0.9).
    pub strategy: Strategy,
    /// Its own ordinal (v0.9; none: the facet's).
    pub ordinal: Option<i64>,
    /// What it needs set (v0.9).
    pub requires: Vec<Requirement>,
}

/// A terraform component or kustomization of a facet.
#[derive(Debug, Clone)]
pub struct Part {
    /// Terraform or kustomize.
    pub kind: Kind,
    /// Its identity: terraform `name`, else `path`; kustomize `name`.
    pub id: String,
    /// Its own condition (none: it goes with its facet).
    pub when: Option<Cond>,
    /// How it folds.
    pub strategy: Strategy,
    /// Its own ordinal, overriding the facet's for this component.
    pub ordinal: Option<i64>,
    /// The component without `when`, `strategy`, `ordinal`, compiled.
    pub body: Tmpl,
    /// What it needs set (v0.9).
    pub requires: Vec<Requirement>,
}

/// A message of a facet: text shown after a deploy, when its condition
/// holds (v0.9).
#[derive(Debug, Clone)]
pub struct Message {
    /// Its condition.
    pub when: Option<Cond>,
    /// Its text, with `${…}` parts.
    pub text: Tmpl,
}

/// One facet file.
#[derive(Debug, Clone)]
pub struct Facet {
    /// `metadata.name`.
    pub name: String,
    /// The file, relative to the project root.
    pub file: String,
    /// Ordinal: explicit, or from the file name (W1).
    pub ordinal: i64,
    /// Its condition.
    pub when: Option<Cond>,
    /// Config blocks.
    pub config: Vec<Block>,
    /// Terraform components, then kustomizations.
    pub parts: Vec<Part>,
    /// What the facet needs set (v0.9).
    pub requires: Vec<Requirement>,
    /// Flux systems (v0.9).
    pub flux: Vec<System>,
    /// CRD layer references (v0.9).
    pub crds: Option<Tmpl>,
    /// Blueprint-wide substitutions (v0.9).
    pub substitutions: Option<Tmpl>,
    /// Messages shown after a deploy (v0.9).
    pub messages: Vec<Message>,
    /// The terraform component that holds the state backend (v0.9).
    pub backend: Option<String>,
    /// What a render that leaves this facet out depends on, hashed as
    /// [`crate::facet_left_out`] hashes the file: noted by the project's
    /// load; `None` when the facet loaded with a warning (the file then
    /// counts whole) or was parsed alone.
    pub left_out: Option<[u8; 32]>,
}
