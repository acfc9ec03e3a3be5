//! How much memory one evaluation may use (D9), so that a template cannot
//! make bpvm allocate until the machine gives out: a function that would
//! build a value past the budget fails with an error instead.

use crate::Value;
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

/// What one render may hold in the values its evaluations produce: four
/// evaluations' worth, so that many results that each fit cannot add up to
/// more than the machine has.
pub fn render_bytes() -> usize {
    bytes().saturating_mul(4)
}

/// The memory a render's results use, counted as they are produced.
///
/// ```
/// use bpvm_runtime::{Value, budget::Tally};
/// let mut t = Tally::default();
/// assert!(t.add(&Value::Str("x".repeat(1000).into())).is_ok());
/// assert!(t.used() >= 1000);
/// ```
#[derive(Debug, Default)]
pub struct Tally {
    used: usize,
}

impl Tally {
    /// The bytes counted so far.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Counts `v`; `Err` with a message when the render would then hold
    /// more than [`render_bytes`].
    pub fn add(&mut self, v: &Value) -> Result<(), String> {
        self.add_bytes(footprint(v))
    }

    /// Counts `bytes` the render holds besides its values (copies made
    /// for the output, the output text); `Err` as [`Tally::add`].
    pub fn add_bytes(&mut self, bytes: usize) -> Result<(), String> {
        self.used = self.used.saturating_add(bytes);
        if self.used <= render_bytes() {
            return Ok(());
        }
        Err(format!(
            "the render would hold more than {} MiB of values (four times the memory budget of one evaluation; set {VARIABLE} to raise it)",
            render_bytes() >> 20
        ))
    }
}

/// Roughly what `v` occupies: a slot per value, plus its text.
///
/// ```
/// use bpvm_runtime::{Value, budget::footprint};
/// assert!(footprint(&Value::Str("x".repeat(100).into())) > 100);
/// ```
pub fn footprint(v: &Value) -> usize {
    const SLOT: usize = std::mem::size_of::<Value>();
    match v {
        Value::Str(s) => SLOT + s.len(),
        Value::Bytes(b) => SLOT + b.len(),
        Value::List(items) => items.iter().fold(SLOT, |n, x| n.saturating_add(footprint(x))),
        Value::Map(m) => m
            .iter()
            .fold(SLOT, |n, (k, x)| n.saturating_add(k.as_str().len() + footprint(x))),
        _ => SLOT,
    }
}
