//! The JSON Schemas of every file kind bpvm reads, for editors: each
//! built from the field tables its loader checks keys against, so a
//! schema and its loader cannot disagree. `bpvm schema NAME` prints one.

use bpvm_runtime::shape::{Document, json_schema};

/// Every schema, in the order `bpvm schema --list` prints them.
///
/// ```
/// let names: Vec<&str> = bpvm::schema::documents().iter().map(|d| d.name).collect();
/// assert!(names.contains(&"bluelink-blueprint") && names.contains(&"bpvm-batch"));
/// ```
pub fn documents() -> Vec<Document> {
    let mut out = bpvm_windsor::schemas::DOCUMENTS.to_vec();
    out.push(bpvm_bluelink::SCHEMA);
    out.push(crate::batch::discover::shape::SCHEMA);
    out.push(crate::check::tune::shape::SCHEMA);
    out
}

/// The schema named `name`, as JSON text ending in a newline.
///
/// ```
/// let text = bpvm::schema::json("bpvm-check").unwrap();
/// assert!(text.starts_with("{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\""));
/// assert!(bpvm::schema::json("no-such").is_none());
/// ```
pub fn json(name: &str) -> Option<String> {
    documents().iter().find(|d| d.name == name).map(json_schema)
}

/// The names of every schema, in order.
///
/// ```
/// assert_eq!(bpvm::schema::names()[0], "windsor-facet");
/// ```
pub fn names() -> Vec<&'static str> {
    documents().iter().map(|d| d.name).collect()
}
