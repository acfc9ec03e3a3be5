//! What one load of a project keeps for the next: each YAML file's text
//! with the document it reads as, and each facet as parsed and compiled,
//! so that a load after an edit parses and compiles only the files whose
//! bytes changed (an editor's check of a project on every edit).
//!
//! A load that reuses gives what a fresh load gives: a file is reused
//! only when its bytes are the ones read before and it is parsed by the
//! same rules, and its documents still count towards the load's limit of
//! values. Expressions keep the path numbers they were compiled with:
//! the loads share one path table, which only grows.

use crate::error::Error;
use crate::load::facet::{self, Facet};
use bpvm_runtime::govern::{add_values, values_left};
use bpvm_runtime::{PathTable, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What loads of one project keep between them; see
/// [`Project::load_reusing`](crate::Project::load_reusing).
///
/// ```
/// use bpvm_windsor::{Project, Reuse};
/// let mut reuse = Reuse::default();
/// let first = Project::load_reusing("../examples/windsor".as_ref(), &mut reuse).unwrap();
/// let again = Project::load_reusing("../examples/windsor".as_ref(), &mut reuse).unwrap();
/// assert_eq!(first.facets.len(), again.facets.len());
/// assert_eq!(reuse.reused(), first.facets.len());
/// ```
#[derive(Debug, Default)]
pub struct Reuse {
    /// The table every load through this numbers its paths in.
    pub(crate) paths: PathTable,
    /// Each file read, by its path relative to the project.
    files: BTreeMap<String, Kept>,
    /// How many facets the last load took as they were.
    reused: usize,
}

/// One file as read last.
#[derive(Debug)]
struct Kept {
    text: String,
    /// The document, or why the text is not YAML.
    doc: Result<Arc<Value>, String>,
    /// The values its document counted towards the load's limit.
    charged: usize,
    /// The facet it is, by the rules it was parsed by (`true`: v0.9),
    /// with the warnings parsing gave.
    facet: Option<(bool, Parsed)>,
}

/// A facet parsed: the facet or its errors, and its warnings.
type Parsed = (Result<Facet, Vec<Error>>, Vec<Error>);

impl Reuse {
    /// How many facets the last load took as they were, unparsed.
    pub fn reused(&self) -> usize {
        self.reused
    }

    /// The document of `text`, the file `rel`: the one kept when the
    /// text is the same (its values counted again), else `text` parsed.
    /// An error gives the text with why it is not YAML.
    pub(crate) fn document(&mut self, rel: &str, text: String) -> Result<Arc<Value>, (String, String)> {
        if let Some(kept) = self.files.get(rel)
            && kept.text == text
            && values_left() >= kept.charged
        {
            // Cannot fail: there is room for it.
            let _ = add_values(kept.charged);
            return kept.doc.clone().map_err(|e| (text, e));
        }
        let before = values_left();
        let doc = Value::from_yaml_as(&text, bpvm_runtime::Typing::GoYaml).map(Arc::new);
        let charged = before.saturating_sub(values_left());
        let kept = Kept {
            text: text.clone(),
            doc: doc.clone(),
            charged,
            facet: None,
        };
        self.files.insert(rel.to_string(), kept);
        doc.map_err(|e| (text, e))
    }

    /// The facet `doc` (the document of file `rel` just read) is, by the
    /// v0.9 rules when `v09`; its warnings go to `warnings`.
    pub(crate) fn facet(
        &mut self,
        rel: &str,
        doc: &Value,
        v09: bool,
        warnings: &mut Vec<Error>,
    ) -> Result<Facet, Vec<Error>> {
        let kept = self.files.get_mut(rel);
        if let Some(Kept {
            facet: Some((rules, (parsed, warned))),
            ..
        }) = &kept
            && *rules == v09
        {
            self.reused += 1;
            warnings.extend(warned.iter().cloned());
            return parsed.clone();
        }
        let mut warned = Vec::new();
        let mut parsed = facet::parse(doc, rel, v09, &mut warned);
        // What a render that leaves it out depends on, noted now from the
        // document at hand (after a warning the file counts whole).
        if let (Ok(f), true) = (&mut parsed, warned.is_empty()) {
            f.left_out = Some(facet::left_out(doc, f, v09));
        }
        warnings.extend(warned.iter().cloned());
        if let Some(kept) = kept {
            kept.facet = Some((v09, (parsed.clone(), warned)));
        }
        parsed
    }

    /// The document of file `rel` as the last load read it, when `text`
    /// is still its text: a check reads the facets again as written.
    pub(crate) fn kept_document(&self, rel: &str, text: &str) -> Option<Arc<Value>> {
        let kept = self.files.get(rel).filter(|k| k.text == text)?;
        kept.doc.as_ref().ok().cloned()
    }

    /// Starts a load: nothing reused yet.
    pub(crate) fn start(&mut self) {
        self.reused = 0;
    }

    /// Forgets the files a load did not read (removed, or no longer a
    /// facet): what is kept is what the last load read.
    pub(crate) fn keep_only(&mut self, read: &[String]) {
        self.files.retain(|rel, _| read.contains(rel));
    }
}
