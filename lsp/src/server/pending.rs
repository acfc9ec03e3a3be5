//! Checks waiting for edits to settle: a template is checked once no
//! edit to it has come for [`DEBOUNCE`], so a burst of keystrokes costs
//! one check, of the latest text.

use crate::diagnose::Template;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How long a template's edits must pause before it is checked. Short:
/// a check after an edit to one facet takes a few milliseconds (it
/// reuses the rest of the project), and a keystroke that comes during
/// one waits no longer than that.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// The templates waiting to be checked, each with when it is due.
///
/// ```
/// use bpvm_lsp::diagnose::Template;
/// use bpvm_lsp::server::Pending;
/// use std::time::{Duration, Instant};
/// let mut pending = Pending::default();
/// let t = Template::Bluelink("/p/bp.yaml".into());
/// let now = Instant::now();
/// pending.edited(t.clone(), now);
/// assert!(pending.due(now).is_empty());
/// assert_eq!(pending.due(now + Duration::from_secs(1)), vec![t]);
/// assert!(pending.wait().is_none());
/// ```
#[derive(Debug, Default)]
pub struct Pending {
    due: BTreeMap<Template, Instant>,
}

impl Pending {
    /// `template` was edited at `now`: its check is put off until the
    /// edits pause.
    pub fn edited(&mut self, template: Template, now: Instant) {
        self.due.insert(template, now + DEBOUNCE);
    }

    /// How long until the next check is due; `None` when none waits.
    pub fn wait(&self) -> Option<Duration> {
        let next = self.due.values().min()?;
        Some(next.saturating_duration_since(Instant::now()))
    }

    /// The templates due at `now`, no longer waiting.
    pub fn due(&mut self, now: Instant) -> Vec<Template> {
        let due: Vec<Template> = self
            .due
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(t, _)| t.clone())
            .collect();
        for t in &due {
            self.due.remove(t);
        }
        due
    }
}
