//! `bpvm check`: every template's mistakes found before anything renders,
//! for every context at once.
//!
//! Here: running the checks over a batch's targets and projects (`run`), the
//! findings' `report`, and its writers (`human`, `json`, `sarif`). It
//! imports `batch` for discovery and the worker pool.

mod human;
mod json;
mod report;
mod run;
mod sarif;

pub use bpvm_checker::{Finding, Rule, Severity};
pub use human::human;
pub use json::json;
pub use report::{Checked, Report};
pub use run::{check, check_searching, check_with, rules};
pub use sarif::sarif;
