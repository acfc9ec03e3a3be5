//! Windsor blueprints: a project's facets composed into one blueprint per
//! context (`bpvm render`), and the template's test suites (`bpvm test`).
//!
//! ```no_run
//! use bpvm_windsor::{Project, render, scope};
//! let project = Project::load(std::path::Path::new("my-project")).unwrap();
//! let ctx = scope::context(&project, "local", scope::Values::Files, true).unwrap();
//! let out = render::render(&project, "local", ctx, &render::Options::default()).unwrap();
//! print!("{}", bpvm_windsor::output::to_yaml(&out.blueprint));
//! ```
//!
//! The crate's rooms, each importing only those listed before it:
//!
//! - `error`, `texts`, `format`, `fields`, `kind`: leaves — diagnostics,
//!   which rules a template follows, Windsor's field tables, the component
//!   kinds and fold strategies.
//! - `host`: the functions a renderer adds to the dialect (files, YAML,
//!   Jsonnet, terraform outputs).
//! - `blueprint`: component lists as data — merging, identities, the
//!   dependency graph and its order.
//! - `template`: values with `${…}` compiled once, conditions, the path
//!   table, secret shorthands.
//! - `flux`: Windsor v0.9's flux systems — parsed, evaluated, folded and
//!   compiled to kustomizations.
//! - `load`: a project's files read into facets, checked and compiled.
//! - `context`: which context, the values a render evaluates against, and
//!   their check against the schema.
//! - `render`: one render — the seed rules (`render::seed`) or Windsor
//!   v0.9's (`render::v09`) — and its output.
//! - `test`, `explain`, `check`: what is built on renders and on loading:
//!   the template's test suites, where a value came from, static checks.
//! - `schemas`: the JSON Schemas of the files a project has, from the
//!   loaders' field tables.

#![warn(missing_docs)]

mod blueprint;
pub mod check;
mod context;
mod error;
pub mod explain;
mod fields;
mod flux;
pub mod format;
mod host;
mod kind;
mod load;
pub mod render;
pub mod schemas;
mod template;
pub mod test;
mod texts;

pub use context::{current, origins, scope, validate};
pub use error::{Error, Errors, Why, warning_line};
pub use format::Format;
pub use host::{allow, jsonnet};
pub use load::facet::{Facet, facet_left_out, ordinal_from_basename};
// What an editor's completion offers: the expression functions, the
// project's files and the schema's `$ref`s as the loader reads them.
pub use host::compiler_for;
pub use load::project::files_under;
pub use load::project::{Project, TEMPLATE};
pub use load::reuse::Reuse;
pub use load::schema::resolve_reference;
pub use render::output;
pub use scope::schema_defaults;
pub use template::secrecy::{MASK, Secrecy, Secrets};
pub use template::shorthand;
