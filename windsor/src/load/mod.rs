//! A project on disk read into what renders reuse: `windsor.yaml`, the
//! base blueprint, every facet parsed, checked and compiled, their
//! requirements, which schema properties are sensitive, and the schema as
//! a validator of values; what a load keeps for the next (`reuse`). Imports the
//! leaves, `host`, `template` and `flux`.

pub(crate) mod facet;
pub(crate) mod files;
pub(crate) mod project;
pub(crate) mod requires;
pub(crate) mod reuse;
pub(crate) mod rules;
pub(crate) mod schema;
pub(crate) mod sensitive;
