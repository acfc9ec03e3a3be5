//! What several test modules use.

pub mod files;
pub mod scratch;

// Where the crates' tests share it (runtime's and cli's include it too).
#[path = "../../support/shared.rs"]
pub mod shared;
