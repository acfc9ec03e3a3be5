//! Argument groups and values that several commands share: which Windsor
//! project to render, a Bluelink render's flags, the output format, the
//! expression language and the formats of a report.
//!
//! A leaf: it imports nothing from this crate, so that every command and
//! loader can use it without a cycle.

mod bluelink;
mod dialect;
mod empty;
mod exclude;
mod output;
mod report;
mod windsor;

pub use bluelink::{BluelinkFlags, NEEDS_BLUEPRINT};
pub use dialect::{DialectArg, RulesArg};
pub use empty::AllowEmpty;
pub use exclude::ExcludeArgs;
pub use output::{Format, OutputFormat};
pub use report::ReportFormat;
pub use windsor::{Rules, WindsorTarget};
