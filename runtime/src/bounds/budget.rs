//! How much memory one evaluation may use (D9), so that a template cannot
//! make bpvm allocate until the machine gives out: a function that would
//! build a value past the budget fails with an error instead.

use crate::Value;
use crate::bounds::limits::VALUE_DEPTH;
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

/// The bytes an evaluation's arena holds: what it has handed out, not the
/// room it has reserved ahead (its chunks grow by doubling).
pub fn held(arena: &bumpalo::Bump) -> usize {
    arena.allocated_bytes().saturating_sub(arena.chunk_capacity())
}

/// `Err` with the words "would need N bytes, over the memory budget …"
/// (the caller puts what would need them in front) when `used` bytes plus
/// `more` exceed the budget.
pub fn check(used: usize, more: usize) -> Result<(), String> {
    let limit = bytes();
    if used.saturating_add(more) <= limit {
        return Ok(());
    }
    // A budget used up step by step must not blame the last small step
    // alone: say what the evaluation already holds.
    let held = match used >> 20 {
        0 => String::new(),
        mib => format!(" more, and the evaluation already holds {mib} MiB"),
    };
    Err(format!(
        "would need {more} bytes{held}, over the memory budget of one evaluation ({} MiB; set {VARIABLE} to raise it)",
        limit >> 20
    ))
}

/// What one render may hold in the values its evaluations produce: four
/// evaluations' worth, so that many results that each fit cannot add up to
/// more than the machine has.
pub fn render_bytes() -> usize {
    bytes().saturating_mul(4)
}

/// The memory a render's results use, counted as they are produced, and
/// the rule that none of them nests deeper than a document may.
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
    /// more than [`render_bytes`], or when `v` nests deeper than a
    /// document may ([`VALUE_DEPTH`] levels).
    pub fn add(&mut self, v: &Value) -> Result<(), String> {
        self.add_at(v, 0)
    }

    /// [`Tally::add`] for a value placed `depth` lists and maps deep: a
    /// result that nests a value built from other results (a config block
    /// reading the one before it) must not add up past the limit.
    ///
    /// ```
    /// use bpvm_runtime::{Value, budget::Tally};
    /// let v = Value::from_yaml("[[[1]]]").unwrap();
    /// assert!(Tally::default().add_at(&v, 61).is_ok());
    /// let e = Tally::default().add_at(&v, 62).unwrap_err();
    /// assert!(e.starts_with("the value nests more than 64 levels"), "{e}");
    /// ```
    pub fn add_at(&mut self, v: &Value, depth: usize) -> Result<(), String> {
        let m = measure(v, VALUE_DEPTH.saturating_sub(depth));
        if m.too_deep {
            return Err(format!(
                "the value nests more than {VALUE_DEPTH} levels of lists and maps{} (values built from other values add up)",
                match depth {
                    0 => String::new(),
                    d => format!(", {d} of them around it"),
                }
            ));
        }
        self.add_bytes(m.bytes)
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
/// assert!(footprint(&Value::Str("x".repeat(1000).into())) > 1000);
/// ```
pub fn footprint(v: &Value) -> usize {
    measure(v, usize::MAX).bytes
}

/// What a value occupies, and whether it nests past a limit.
struct Measure {
    bytes: usize,
    too_deep: bool,
}

/// Roughly what `v` occupies (a slot per value, plus its text), walked
/// without recursion and stopped at the first level past `levels`, so
/// that a value too deep for any recursive walk is measured safely.
fn measure(v: &Value, levels: usize) -> Measure {
    const SLOT: usize = std::mem::size_of::<Value>();
    let mut bytes = 0usize;
    let mut open: Vec<(&Value, usize)> = vec![(v, 0)];
    while let Some((v, depth)) = open.pop() {
        bytes = bytes.saturating_add(SLOT);
        let inner = depth + 1;
        match v {
            Value::Str(s) => bytes = bytes.saturating_add(s.len()),
            Value::Bytes(b) => bytes = bytes.saturating_add(b.len()),
            Value::List(_) | Value::Map(_) if inner > levels => return Measure { bytes, too_deep: true },
            Value::List(items) => open.extend(items.iter().map(|x| (x, inner))),
            Value::Map(m) => {
                for (k, x) in m.iter() {
                    bytes = bytes.saturating_add(k.as_str().len());
                    open.push((x, inner));
                }
            }
            _ => {}
        }
    }
    Measure { bytes, too_deep: false }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[[…[1]…]]`, `n` levels, built without recursion.
    fn nested(n: usize) -> Value {
        let mut v = Value::Int(1);
        for _ in 0..n {
            v = Value::List(vec![v]);
        }
        v
    }

    #[test]
    fn a_value_as_deep_as_a_document_may_be_is_counted() {
        let mut t = Tally::default();
        assert!(t.add(&nested(VALUE_DEPTH)).is_ok());
        assert!(t.add(&nested(VALUE_DEPTH + 1)).is_err());
    }

    #[test]
    fn a_very_deep_value_is_refused_without_recursion() {
        let v = nested(200_000);
        let e = Tally::default().add(&v).unwrap_err();
        assert_eq!(
            e,
            "the value nests more than 64 levels of lists and maps (values built from other values add up)"
        );
        // Dropping it recurses: take it apart first.
        let mut v = v;
        while let Value::List(mut items) = v {
            v = items.pop().unwrap_or(Value::Null);
        }
    }

    #[test]
    fn a_budget_used_step_by_step_says_what_is_held() {
        let e = check(bytes() - 10, 100).unwrap_err();
        assert!(
            e.starts_with("would need 100 bytes more, and the evaluation already holds "),
            "{e}"
        );
        let e = check(0, bytes() + 1).unwrap_err();
        assert!(
            e.starts_with(&format!("would need {} bytes, over the memory budget", bytes() + 1)),
            "{e}"
        );
    }
}
