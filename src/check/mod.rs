//! `bpvm check`: every template's mistakes found before anything renders,
//! for every context at once.
//!
//! Here: running the checks over a batch's targets and projects (`run`), the
//! findings' `report`, the `bpvm:ignore` comments (`ignore`) and the
//! configuration (`tune`) that shape it, and its writers (`human`, `json`, `sarif`). It
//! imports `batch` for discovery and the worker pool.

mod human;
mod ignore;
mod json;
mod listing;
mod report;
mod rules;
mod run;
mod sarif;
pub mod tune;

pub use bpvm_checker::{Finding, Rule, Severity};
pub use human::human;
pub use ignore::{INVALID_IGNORE, UNUSED_IGNORE};
pub use json::json;
pub use listing::{listing, listing_json};
pub use report::{Checked, Report, Suppressed, Tally};
pub use rules::{rule_ids, rules};
pub use run::{Kept, check, check_searching, check_windsor_reusing, check_with, tunings};
pub use sarif::sarif;
