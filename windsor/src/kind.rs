//! The two component lists a blueprint has and how a contribution folds
//! into what lower ordinals built: shared by every stage, importing
//! nothing of the crate.

/// Which list a component belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `terraform:`
    Terraform,
    /// `kustomize:`
    Kustomize,
}

impl Strategy {
    /// The strategy a name stands for.
    pub fn parse(s: &str) -> Option<Strategy> {
        match s {
            "merge" => Some(Strategy::Merge),
            "replace" => Some(Strategy::Replace),
            "remove" => Some(Strategy::Remove),
            _ => None,
        }
    }

    /// Which wins at equal ordinals: remove over replace over merge.
    pub fn rank(self) -> u8 {
        match self {
            Strategy::Merge => 1,
            Strategy::Replace => 2,
            Strategy::Remove => 3,
        }
    }
}

impl Kind {
    /// The list's key in a blueprint.
    pub fn key(self) -> &'static str {
        match self {
            Kind::Terraform => "terraform",
            Kind::Kustomize => "kustomize",
        }
    }
}

/// How a contribution folds into what lower ordinals built (W4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Overlay.
    Merge,
    /// Replace the whole component.
    Replace,
    /// Delete the listed items (or the whole component if only its
    /// identity is listed).
    Remove,
}
