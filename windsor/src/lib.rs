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

#![warn(missing_docs)]

mod barriers;
mod blocks;
pub mod check;
mod compose;
mod config;
mod configmaps;
mod contributions;
pub mod current;
mod cycles;
mod deps;
mod error;
mod expect;
pub mod explain;
mod facet;
mod fields;
mod flux;
mod fold;
mod format;
mod host;
mod jsonnet;
mod lists;
mod merge;
mod numbering;
mod order;
pub mod output;
mod project;
mod prune;
pub mod render;
mod requires;
mod resolve;
mod rounds;
pub mod scope;
mod sensitive;
pub mod shorthand;
pub mod test;
mod texts;
mod tiers;
mod tmpl;

pub use error::{Error, Errors};
pub use facet::ordinal_from_basename;
pub use format::Format;
pub use project::{Project, TEMPLATE};
pub use scope::schema_defaults;
