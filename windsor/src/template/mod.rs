//! Values with `${…}` inside, compiled once when the project loads and
//! evaluated for every context: the template tree, `when:` conditions,
//! the path table their programs read through, the secret shorthands
//! rewritten before compiling, and which values are computed from secrets. Imports the leaves, `host` and
//! `blueprint::merge`.

pub(crate) mod condition;
pub(crate) mod numbering;
pub mod secrecy;
pub mod shorthand;
pub(crate) mod tmpl;
