//! Why a target is affected: the changed path, and how the target
//! depends on it. A leaf.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a target runs: a changed path and how its render depends on it.
///
/// ```
/// use bpvm::batch::{How, Why};
/// let why = Why::new("platform/contexts/_template/facets/dns.yaml", How::Read);
/// assert_eq!(why.to_string(), "platform/contexts/_template/facets/dns.yaml changed, which its render reads");
/// assert_eq!(Why::new("apps/orders.yaml", How::New).to_string(), "a new target (apps/orders.yaml)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Why {
    /// The changed path, relative to the repository's top (for a new
    /// target: its template's path there).
    pub path: String,
    /// How the target depends on it.
    pub how: How,
}

/// How a target depends on a changed path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum How {
    /// The target was not in the revision compared with.
    New,
    /// Its render reads the file (or a link on the way to it).
    Read,
    /// Its render looks at the path, or for it.
    Looked,
    /// The file was added to or removed from a folder its render lists.
    Listed,
    /// What decides whether a facet its render leaves out takes part
    /// changed (its condition, name, ordinal, what it provides, or
    /// whether it loads cleanly).
    FacetLeftOut,
    /// The path lies where its render may read files that loading the
    /// template does not show (its context folder, or its template's
    /// folder when the template reads files by expressions).
    Within,
}

impl Why {
    /// `path` changed, affecting a target `how`.
    pub fn new(path: impl Into<String>, how: How) -> Why {
        Why { path: path.into(), how }
    }
}

impl fmt::Display for Why {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = &self.path;
        match self.how {
            How::New => write!(f, "a new target ({p})"),
            How::Read => write!(f, "{p} changed, which its render reads"),
            How::Looked => write!(f, "{p} changed, which its render looks for"),
            How::Listed => write!(f, "{p} was added or removed in a folder its render lists"),
            How::FacetLeftOut => write!(f, "{p} changed what decides whether its render leaves that facet out"),
            How::Within => write!(f, "{p} changed where its render may read files"),
        }
    }
}
