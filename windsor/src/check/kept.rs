//! What one check of a project keeps for the next (an editor's check on
//! every edit): the load's files (see [`Reuse`]), and the findings about
//! values and test files with everything they read, taken again while
//! none of it changed. What the facets hold is checked every time: an
//! edit is most often to a facet.

use crate::format::Format;
use crate::load::project::Project;
use crate::load::reuse::Reuse;
use bpvm_checker::Finding;
use bpvm_runtime::Value;
use bpvm_runtime::root::inputs::Inputs;

/// What checks of one project keep between them; see
/// [`check_reusing`](super::check_reusing).
///
/// ```
/// use bpvm_windsor::check::{Kept, check, check_reusing};
/// let dir = std::path::Path::new("../examples/windsor");
/// let mut kept = Kept::default();
/// let first = check_reusing(dir, &mut kept);
/// assert_eq!(check_reusing(dir, &mut kept), first);
/// assert_eq!(first, check(dir));
/// ```
#[derive(Debug, Default)]
pub struct Kept {
    pub(super) load: Reuse,
    values: Option<Values>,
}

/// The findings about values and test files, and what they came from.
#[derive(Debug)]
struct Values {
    /// What of the project they depend on besides the files they read.
    schema: Option<Value>,
    windsor: Value,
    format: Format,
    /// Every file, folder and path read to find them.
    read: Inputs,
    findings: Vec<Finding>,
}

impl Kept {
    /// Whether findings about values and test files are kept.
    pub(super) fn has_values(&self) -> bool {
        self.values.is_some()
    }

    /// The findings about values and test files kept from the last
    /// check, when nothing they came from has changed since.
    pub(super) fn values(&mut self, project: &Project) -> Option<Vec<Finding>> {
        let v = self.values.take()?;
        let same = v.schema == project.schema && v.windsor == project.windsor && v.format == project.format;
        let root = &project.root;
        let unchanged = same
            && v.read.env.is_empty()
            && v.read
                .files
                .iter()
                .all(|(p, s)| root.seen_again(std::path::Path::new(p), s) == *s);
        unchanged.then(|| {
            let findings = v.findings.clone();
            self.values = Some(v);
            findings
        })
    }

    /// Keeps `findings` about values and test files, which `read` was
    /// read to find.
    pub(super) fn keep_values(&mut self, project: &Project, read: Inputs, findings: &[Finding]) {
        self.values = Some(Values {
            schema: project.schema.clone(),
            windsor: project.windsor.clone(),
            format: project.format,
            read,
            findings: findings.to_vec(),
        });
    }
}
