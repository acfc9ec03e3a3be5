//! Document symbols: what a file declares, read from its YAML (or `.bp`)
//! tree with positions — a facet's components, kustomizations, config
//! blocks and flux systems; a blueprint's resources, variables, values,
//! data sources and exports; any other file's top-level keys. Imports
//! `text`.

mod outline;
mod sections;

pub use outline::symbols;
