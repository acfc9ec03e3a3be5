//! What one render shares across its blueprint and every child blueprint
//! it includes, however deep: the memory its results hold (D10), each
//! child file loaded once, and how many children were rendered — bounded,
//! since files that each include the next several times would otherwise
//! render a number of children exponential in their depth (D9).

use crate::blueprint::Blueprint;
use bpvm_runtime::budget::Tally;
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::OnceLock;

/// The default bound on the children one render renders, all levels
/// counted.
pub const DEFAULT_CHILD_RENDERS: usize = 1000;

/// The environment variable that sets that bound.
pub const CHILD_RENDERS_VARIABLE: &str = "BPVM_MAX_CHILD_RENDERS";

/// The bound on the children one render renders: [`CHILD_RENDERS_VARIABLE`]
/// when set to a whole number above zero, else [`DEFAULT_CHILD_RENDERS`].
pub fn child_renders() -> usize {
    static BOUND: OnceLock<usize> = OnceLock::new();
    *BOUND.get_or_init(|| {
        std::env::var(CHILD_RENDERS_VARIABLE)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(DEFAULT_CHILD_RENDERS)
    })
}

/// The state a render's blueprints share.
#[derive(Default)]
pub(super) struct Shared {
    /// What the render's results hold so far, in every blueprint.
    pub tally: Tally,
    /// Each child file by where it is: loaded, or `None` when loading
    /// failed (reported the first time).
    pub loaded: HashMap<PathBuf, Option<Rc<Blueprint>>>,
    /// Children rendered so far.
    pub renders: usize,
}

impl Shared {
    /// Counts one more child render; `Err` with the message once there
    /// are more than the bound.
    pub fn count_render(&mut self) -> Result<(), String> {
        self.renders += 1;
        let bound = child_renders();
        if self.renders <= bound {
            return Ok(());
        }
        Err(format!(
            "the render includes more than {bound} child blueprints in all (counting every level; set {CHILD_RENDERS_VARIABLE} to raise the limit)"
        ))
    }
}
