//! `bpvm check`: every template's mistakes found before anything renders,
//! for every context at once.

mod report;
mod run;

pub use bpvm_checker::{Finding, Rule, Severity};
pub use report::{Checked, Report};
pub use run::{check, rules};
