//! Which files of each template have diagnostics published, so that a
//! file whose findings are gone is cleared.

use super::findings::Diagnosed;
use super::template::Template;
use lsp_types::Diagnostic;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// The files each template last had diagnostics published for.
///
/// ```
/// use bpvm_lsp::diagnose::{Diagnosed, Published, Template};
/// let mut published = Published::default();
/// let t = Template::Bluelink("/p/bp.yaml".into());
/// let mut found = Diagnosed::new();
/// found.insert("/p/bp.yaml".into(), vec![lsp_types::Diagnostic::default()]);
/// assert_eq!(published.update(&t, found)[0].1.len(), 1);
/// // Nothing found any more: the file is cleared once.
/// let cleared = published.update(&t, Diagnosed::new());
/// assert_eq!((cleared.len(), cleared[0].1.len()), (1, 0));
/// assert!(published.update(&t, Diagnosed::new()).is_empty());
/// ```
#[derive(Debug, Default)]
pub struct Published {
    files: BTreeMap<Template, BTreeSet<PathBuf>>,
}

impl Published {
    /// What to publish for `template` now that it has `found`: each file
    /// with findings, and an empty list for each file that had some
    /// before and has none now.
    pub fn update(&mut self, template: &Template, found: Diagnosed) -> Vec<(PathBuf, Vec<Diagnostic>)> {
        let now: BTreeSet<PathBuf> = found.keys().cloned().collect();
        let before = self.files.insert(template.clone(), now.clone()).unwrap_or_default();
        let mut out: Vec<(PathBuf, Vec<Diagnostic>)> = found.into_iter().collect();
        out.extend(before.difference(&now).map(|f| (f.clone(), Vec::new())));
        out
    }
}
