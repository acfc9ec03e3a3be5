//! The context a render runs in: which one is current when none is named,
//! and its values — schema defaults, `windsor.yaml`, `values.yaml`, and
//! what Windsor v0.9 derives — and those values checked against the
//! schema. Imports the leaves, `blueprint::merge` and
//! `load`.

pub mod current;
pub mod origins;
pub(crate) mod resolve;
pub mod scope;
pub mod validate;
