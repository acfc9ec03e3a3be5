//! `--allow-env PATTERN`: the environment variables templates may read
//! with `env()`. The patterns join those of `BPVM_ALLOW_ENV` in that
//! variable itself, once, before anything runs: every render of the
//! process reads one list from there, and so does every process bpvm
//! starts (batch workers), whichever command asked.

use bpvm::windsor::allow::{EnvAllow, VARIABLE};

/// Puts `patterns` on the allow-list in [`VARIABLE`] (nothing when none
/// are given: the variable, set or not, decides alone).
///
/// Must run before the process starts a thread: it changes the process's
/// environment.
pub fn apply(patterns: &[String]) {
    if patterns.is_empty() {
        return;
    }
    let mut allow = EnvAllow::from_environment().unwrap_or_default();
    allow.extend(patterns.iter().cloned());
    // SAFETY: called first thing in `main`, while the process has one
    // thread, so nothing reads the environment while it changes.
    unsafe { std::env::set_var(VARIABLE, allow.patterns().join(",")) };
}
