//! What a render is asked (`Options`) and what it gives (`Rendered`,
//! with what a condition kept out), whichever rules render it.

use crate::load::facet::Facet;
use bpvm_runtime::{Map, Value};

/// How to render.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Terraform outputs by component (W9); without them
    /// `terraform_output()` stays as written.
    pub outputs: Option<Value>,
    /// The variables `env(name)` reads: the process's environment when
    /// unset; a test case gives its own, so that a test is hermetic.
    pub environment: Option<Map>,
    /// The values the operator set, without schema defaults (Windsor
    /// v0.9: they win over facet config); all of the context when unset.
    pub operator: Option<Value>,
    /// The limits of the render's Jsonnet evaluations (its time limit
    /// among them); the environment's by default.
    pub jsonnet: crate::host::jsonnet::Limits,
    /// The instant `now()` gives in this render's expressions, for
    /// output that is the same every run; the real clock when unset.
    ///
    /// ```
    /// use bpvm_windsor::render::Options;
    /// use bpvm_runtime::time::clock;
    /// let opts = Options { now: Some(clock::rfc3339("2024-05-06T07:08:09Z").unwrap()), ..Options::default() };
    /// assert_eq!(opts.now.unwrap().secs, 1_714_979_289);
    /// ```
    ///
    /// Functions that render without `Options` (`render_files`,
    /// `test::run`) read a clock pinned around them with
    /// [`bpvm_runtime::time::clock::pinned`].
    pub now: Option<bpvm_runtime::time::Time>,
    /// How values computed from a sensitive value show: masked as
    /// `********` unless told otherwise.
    pub secrets: crate::template::secrecy::Secrets,
}

/// A rendered blueprint, and what decided it.
#[derive(Debug, Clone)]
pub struct Rendered {
    /// The blueprint, fields in output order.
    pub blueprint: Value,
    /// Which facets and components were included or skipped, and why.
    pub explain: Vec<String>,
    /// The components `terraform_output()` read supplied outputs of.
    pub asked: Vec<String>,
    /// Components and flux systems a `when` kept out: those of the facets
    /// left out, then those their own condition left out, each in facet
    /// order (a component another facet contributes is in the blueprint
    /// all the same).
    pub excluded: Vec<Excluded>,
    /// The facets included, by their index in the project's facets.
    pub included: Vec<usize>,
    /// The facets whose condition held in some inclusion round (the
    /// included ones, and under the v0.9 rules those a later round left
    /// out), by index: every other facet gave the render nothing but what
    /// [`crate::facet_left_out`] hashes.
    pub took_part: Vec<usize>,
    /// The scope the blueprint's fields were evaluated in: the context's
    /// values and the config blocks (what `explain` reads them from),
    /// values computed from secrets masked unless they are shown.
    pub scope: Map,
    /// Which of the scope's values are computed from secrets, and how
    /// they show.
    pub secrecy: crate::template::secrecy::Secrecy,
}

/// What a render decided before composing: enough for `explain` to
/// trace a render that failed.
#[derive(Debug, Clone)]
pub struct Settled {
    /// The facets included, by their index in the project's facets.
    pub included: Vec<usize>,
    /// The facets whose condition held in some inclusion round (see
    /// [`Rendered::took_part`]).
    pub took_part: Vec<usize>,
    /// The scope with the config blocks evaluated.
    pub scope: Map,
    /// The requirements not met (v0.9 rules).
    pub unmet: Vec<crate::render::v09::rounds::Unmet>,
}

/// A component or flux system a `when` kept out of the blueprint.
#[derive(Debug, Clone, PartialEq)]
pub struct Excluded {
    /// Its list: `terraform`, `kustomize` or `flux`.
    pub list: &'static str,
    /// Its identity there (terraform `name`, else `path`; else `name`).
    pub id: String,
    /// The facet that defines it.
    pub facet: String,
    /// The facet's file, relative to the project.
    pub file: String,
    /// The condition that was false: its own, else its facet's.
    pub when: String,
}

impl Excluded {
    /// Everything facet `f` defines, kept out by condition `when`.
    pub(crate) fn all_of(f: &Facet, when: &str) -> Vec<Excluded> {
        let parts = f.parts.iter().map(|p| (p.kind.key(), p.id.clone()));
        let systems = f.flux.iter().map(|s| ("flux", s.name.clone()));
        parts
            .chain(systems)
            .map(|(list, id)| Excluded::of(f, list, id, when))
            .collect()
    }

    /// `id` of `list`, defined by facet `f`, kept out by condition `when`.
    pub(crate) fn of(f: &Facet, list: &'static str, id: String, when: &str) -> Excluded {
        Excluded {
            list,
            id,
            facet: f.name.clone(),
            file: f.file.clone(),
            when: when.to_string(),
        }
    }
}
