//! The workspace's YAML cases, one test each: the expression cases of
//! both dialects, the parse cases of Bluelink's substitutions and the
//! cases of every `bpvm check` rule. `bpvm-harness` names them, prints a
//! diff when one fails and, under `BPVM_BLESS=1`, writes what they gave
//! back into their files (its crate doc says how).
//!
//! A binary of its own: its tests are made at run time from the case
//! files, so it has `harness = false` (Cargo.toml) and its own `main`,
//! which no other test of the crate could share.
//!
//! The cases are this crate's because their code is only all together
//! here: an expression case runs the compiler, the VM and the runtime's
//! functions (a Bluelink one the checker too), a check case `bpvm::check`.
//! The parse cases exercise the compiler's parser alone, but sit among the
//! expression cases (`tests/cases/bluelink/reference/`) and stay beside
//! them. Each kind's format is in its module's doc. Windsor's project
//! cases run in `windsor/tests/harness`, Bluelink's blueprint cases in
//! `bluelink/tests/harness`.

mod checks;
mod expressions;
mod parses;

use bpvm_harness::Suite;

fn main() {
    let mut suite = Suite::new();
    expressions::add(&mut suite);
    parses::add(&mut suite);
    checks::add(&mut suite);
    suite.run()
}
