//! How much work one evaluation may do (D10): a predicate inside a
//! predicate inside a predicate over a few thousand items is a few bytes
//! of template and hours of work, with almost no memory to stop it.
//!
//! A step is one turn of a loop — an item of `all`, `map`, `filter`,
//! `count`, `reduce`, `sortBy`… — or one call of a function value by a
//! builtin (`map` over a Bluelink partial). Everything else an evaluation
//! does is bounded by its expression's size or by the memory budget.

use std::sync::OnceLock;

/// The default step budget of one evaluation: about a second or two of
/// tight loops on a slow machine, millions of times what real templates
/// take (the largest template in the corpus takes a few hundred).
pub const DEFAULT_STEPS: u64 = 50_000_000;

/// The environment variable that sets the step budget.
pub const VARIABLE: &str = "BPVM_STEP_BUDGET";

/// Steps between two looks at the clock: the render's deadline is checked
/// this often, so a look costs nothing measurable.
pub const CLOCK_EVERY: u32 = 4096;

/// The step budget of one evaluation: [`VARIABLE`] when it is set to a
/// whole number, else [`DEFAULT_STEPS`].
///
/// ```
/// assert!(bpvm_runtime::steps::budget() >= 1);
/// ```
pub fn budget() -> u64 {
    static STEPS: OnceLock<u64> = OnceLock::new();
    *STEPS.get_or_init(|| {
        std::env::var(VARIABLE)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|&n| n > 0)
            .unwrap_or(DEFAULT_STEPS)
    })
}

/// The message of an evaluation past its step budget.
///
/// ```
/// assert!(bpvm_runtime::steps::exceeded().contains("BPVM_STEP_BUDGET"));
/// ```
pub fn exceeded() -> String {
    format!(
        "the evaluation took more than {} steps (loop turns and function-value calls), its step budget (set {VARIABLE} to raise it)",
        budget()
    )
}
