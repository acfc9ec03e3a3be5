//! Checks waiting for edits to settle. An edit after a pause is checked
//! at once, so a single change shows its findings as soon as the check
//! is done; an edit within [`BURST`] of the one before waits until no
//! edit has come for [`DEBOUNCE`], so a burst of keystrokes costs one
//! check more, of the latest text.

use crate::diagnose::Template;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How long a template's edits must pause, within a burst, before it is
/// checked. Short: a check after an edit to one facet takes a few
/// milliseconds (it reuses the rest of the project), and a keystroke
/// that comes during one waits no longer than that.
pub const DEBOUNCE: Duration = Duration::from_millis(50);

/// Edits closer than this to the one before are a burst.
pub const BURST: Duration = Duration::from_millis(250);

/// The templates waiting to be checked, each with when it is due, and
/// when each template was last edited.
///
/// ```
/// use bpvm_lsp::diagnose::Template;
/// use bpvm_lsp::server::{DEBOUNCE, Pending};
/// use std::time::{Duration, Instant};
/// let mut pending = Pending::default();
/// let t = Template::Bluelink("/p/bp.yaml".into());
/// let now = Instant::now();
/// // After a pause: checked at once.
/// pending.edited(t.clone(), now);
/// assert_eq!(pending.due(now), vec![t.clone()]);
/// // Within a burst: once the edits pause.
/// let soon = now + Duration::from_millis(20);
/// pending.edited(t.clone(), soon);
/// assert!(pending.due(soon).is_empty());
/// assert_eq!(pending.due(soon + DEBOUNCE), vec![t]);
/// assert!(pending.wait().is_none());
/// ```
#[derive(Debug, Default)]
pub struct Pending {
    due: BTreeMap<Template, Instant>,
    edited: BTreeMap<Template, Instant>,
}

impl Pending {
    /// `template` was edited at `now`: checked at once after a pause,
    /// put off until the edits pause within a burst.
    pub fn edited(&mut self, template: Template, now: Instant) {
        let burst = self
            .edited
            .insert(template.clone(), now)
            .is_some_and(|last| now.saturating_duration_since(last) < BURST);
        let at = if burst { now + DEBOUNCE } else { now };
        self.due.insert(template, at);
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
