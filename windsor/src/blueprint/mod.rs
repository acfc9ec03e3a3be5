//! A blueprint's component lists as data, shared by both rules: values and
//! components merged by strategy, a component's identity and normal form,
//! its dependencies as a graph, their cycles, and the order components
//! print in. Imports only the leaves (`error`, `kind`).

pub(crate) mod component;
pub(crate) mod cycles;
pub(crate) mod deps;
pub(crate) mod lists;
pub(crate) mod merge;
pub(crate) mod order;
