//! What a render resolved, kept for writing the output document: the
//! resolver fills these, `output` reads them. A leaf: it imports nothing
//! of the renderer.

use crate::resolved::Resolved;
use bpvm_runtime::Value;

/// Everything a render resolved, by definition, for the output.
pub(crate) struct Results {
    pub variables: Vec<Option<Resolved>>,
    pub values: Vec<Option<Resolved>>,
    pub value_descriptions: Vec<Option<Resolved>>,
    pub datasources: Vec<Option<DataOut>>,
    pub resources: Vec<Option<ResourceOut>>,
    pub children: Vec<Option<ChildOut>>,
    pub exports: Vec<Option<Resolved>>,
    pub export_descriptions: Vec<Option<Resolved>>,
    pub metadata: Option<Resolved>,
}

/// A data source as rendered.
pub(crate) struct DataOut {
    /// The exported fields, when the data is known.
    pub fields: Option<Vec<(String, Value)>>,
    /// Each filter's search.
    pub searches: Vec<Resolved>,
    pub metadata: Option<Resolved>,
    pub description: Option<Resolved>,
}

/// An include as rendered.
pub(crate) struct ChildOut {
    pub path: Resolved,
    pub variables: Option<Resolved>,
    pub metadata: Option<Resolved>,
    pub description: Option<Resolved>,
    pub exports: Vec<(String, Resolved)>,
}

/// One resource of a template (or the resource itself).
pub(crate) struct Instance {
    pub name: String,
    pub spec: Resolved,
    pub display_name: Option<Resolved>,
    pub annotations: Option<Resolved>,
    pub custom: Option<Resolved>,
    pub description: Option<Resolved>,
    pub links: Vec<String>,
}

/// A resource after its condition and `each`.
pub(crate) enum ResourceOut {
    /// Its condition is false.
    Absent,
    /// Created; `condition` is kept when it is only known at deploy time.
    Present {
        instances: Vec<Instance>,
        condition_deferred: bool,
    },
}
