//! How much memory one evaluation may use (D9), so that a template cannot
//! make bpvm allocate until the machine gives out: a function that would
//! build a value past the budget fails with an error instead.

use std::sync::OnceLock;

/// The default budget of one evaluation, in MiB.
pub const DEFAULT_MIB: usize = 256;

/// The environment variable that sets the budget, in MiB.
pub const VARIABLE: &str = "BPVM_MEMORY_BUDGET_MIB";

/// The memory budget of one evaluation in bytes: [`VARIABLE`] when it is
/// set to a whole number of MiB, else [`DEFAULT_MIB`].
///
/// ```
/// assert!(bpvm_runtime::budget::bytes() >= 1 << 20);
/// ```
pub fn bytes() -> usize {
    static BYTES: OnceLock<usize> = OnceLock::new();
    *BYTES.get_or_init(|| {
        let mib = std::env::var(VARIABLE)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&m| m > 0)
            .unwrap_or(DEFAULT_MIB);
        mib.saturating_mul(1 << 20)
    })
}

/// `Err` with the words "would need N bytes, over the memory budget …"
/// (the caller puts what would need them in front) when `used` bytes plus
/// `more` exceed the budget.
pub fn check(used: usize, more: usize) -> Result<(), String> {
    let limit = bytes();
    if used.saturating_add(more) <= limit {
        return Ok(());
    }
    Err(format!(
        "would need {more} bytes, over the memory budget of one evaluation ({} MiB; set {VARIABLE} to raise it)",
        limit >> 20
    ))
}
