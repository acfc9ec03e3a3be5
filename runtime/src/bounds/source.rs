//! How long one expression or host string may be. Compiling allocates
//! several times the source's length (tokens, the syntax tree, code, a
//! diagnostic's copy of the text), so the length is checked first, before
//! anything proportional to it is allocated: a 200 MB expression handed
//! to the C ABI would otherwise ask for gigabytes.

use std::sync::OnceLock;

/// The default limit, in KiB (32 MiB): half the largest file a template
/// may be read from, far past any real expression (the longest in the
/// seed corpus is under 4 KiB) and past the million-term expressions the
/// bounds tests compile (21 MB). Compiling is not light: a Windsor
/// `when` of 30 MB rendered with a peak of 1.7 GB (debug build), so the
/// memory limit of the process, not this one, is what bounds a render
/// near it; this one keeps a host's call from asking for gigabytes.
pub const DEFAULT_KIB: usize = 32 << 10;

/// The environment variable that sets the limit, in KiB.
pub const VARIABLE: &str = "BPVM_MAX_SOURCE_KIB";

/// The longest source in bytes: [`VARIABLE`] when it is set to a whole
/// number of KiB, else [`DEFAULT_KIB`].
///
/// ```
/// assert!(bpvm_runtime::source::bytes() >= 1 << 10);
/// ```
pub fn bytes() -> usize {
    static BYTES: OnceLock<usize> = OnceLock::new();
    *BYTES.get_or_init(|| {
        let kib = std::env::var(VARIABLE)
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&k| k > 0)
            .unwrap_or(DEFAULT_KIB);
        kib.saturating_mul(1 << 10)
    })
}

/// `Err` naming the limit and how to raise it when a source of `len`
/// bytes is longer than [`bytes`].
///
/// ```
/// assert!(bpvm_runtime::source::check(10).is_ok());
/// let e = bpvm_runtime::source::check(usize::MAX).unwrap_err();
/// assert!(e.ends_with("for one expression or host string; set BPVM_MAX_SOURCE_KIB to raise it"), "{e}");
/// ```
pub fn check(len: usize) -> Result<(), String> {
    let limit = bytes();
    if len <= limit {
        return Ok(());
    }
    Err(format!(
        "the source is {len} bytes, over the limit of {limit} bytes ({} KiB) for one expression or host string; \
         set {VARIABLE} to raise it",
        limit >> 10
    ))
}
