//! What a whole render may use (D10): a wall-clock deadline and a count of
//! the values its documents hold, shared by everything the render does on
//! its thread — loading files, evaluating, host functions.
//!
//! A render is governed by running it inside [`govern`]; the loaders and
//! renderers call it themselves, so library users are governed too, and a
//! command that loads and renders wraps both in one call so that the
//! deadline covers both. Nested calls join the outer render.
//!
//! The state is per thread: a render runs on one thread, and the checks
//! sit on hot paths (the VM asks for the time once every few thousand
//! steps), where a thread-local read costs a load and a branch.

use std::cell::RefCell;
use std::time::{Duration, Instant};

/// The default deadline of one render, in seconds.
pub const DEFAULT_SECONDS: u64 = 120;

/// The environment variable that sets the deadline, in seconds (the
/// `--timeout` flag sets it for the command).
pub const VARIABLE: &str = "BPVM_TIMEOUT_SECONDS";

/// How many values the documents one render reads may hold in all
/// (every file, `yaml()` result and Jsonnet result): each document is
/// bounded on its own, and this keeps many documents from adding up.
pub const RENDER_VALUES: usize = 4 << 20;

/// How long one render may run: [`VARIABLE`] when it is set to a whole
/// number of seconds, else [`DEFAULT_SECONDS`].
///
/// ```
/// assert!(bpvm_runtime::govern::timeout().as_secs() >= 1);
/// ```
pub fn timeout() -> Duration {
    let seconds = std::env::var(VARIABLE)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|&s| s > 0)
        .unwrap_or(DEFAULT_SECONDS);
    Duration::from_secs(seconds)
}

struct Render {
    deadline: Instant,
    timeout: Duration,
    values: usize,
    /// Evaluations started (see [`tick`]).
    ticks: u32,
}

/// Evaluations between two looks at the clock in [`tick`].
const TICKS_PER_LOOK: u32 = 256;

thread_local! {
    static CURRENT: RefCell<Option<Render>> = const { RefCell::new(None) };
}

/// Runs `f` as one governed render with the deadline [`timeout`] from now;
/// inside a render already governed on this thread, `f` joins it.
///
/// ```
/// use bpvm_runtime::govern;
/// let inside = govern::govern(|| govern::governed());
/// assert!(inside && !govern::governed());
/// ```
pub fn govern<R>(f: impl FnOnce() -> R) -> R {
    govern_for(timeout(), f)
}

/// [`govern`] with its own deadline, `timeout` from now.
pub fn govern_for<R>(timeout: Duration, f: impl FnOnce() -> R) -> R {
    if governed() {
        return f();
    }
    let render = Render {
        deadline: Instant::now().checked_add(timeout).unwrap_or_else(far_future),
        timeout,
        values: 0,
        ticks: 0,
    };
    CURRENT.with(|c| *c.borrow_mut() = Some(render));
    // Ended however `f` ends, a panic included.
    struct End;
    impl Drop for End {
        fn drop(&mut self) {
            CURRENT.with(|c| *c.borrow_mut() = None);
        }
    }
    let _end = End;
    f()
}

fn far_future() -> Instant {
    Instant::now() + Duration::from_secs(100 * 365 * 24 * 3600)
}

/// Whether a governed render is running on this thread.
pub fn governed() -> bool {
    CURRENT.with(|c| c.borrow().is_some())
}

/// `Err` with a message naming the deadline and how to raise it once the
/// render has run past its deadline.
///
/// ```
/// use bpvm_runtime::govern;
/// use std::time::Duration;
/// let e = govern::govern_for(Duration::ZERO, govern::on_time).unwrap_err();
/// assert!(e.starts_with("the render ran past its deadline of 0 s"), "{e}");
/// ```
pub fn on_time() -> Result<(), String> {
    CURRENT.with(|c| match &*c.borrow() {
        Some(r) if Instant::now() >= r.deadline => Err(late(r.timeout)),
        _ => Ok(()),
    })
}

/// [`on_time`], looking at the clock only every few hundred calls: made
/// once per evaluation, so that a render of many short expressions is
/// held to its deadline too, at no measurable cost.
///
/// ```
/// use bpvm_runtime::govern;
/// use std::time::Duration;
/// let late = govern::govern_for(Duration::ZERO, || (0..1000).find_map(|_| govern::tick().err()));
/// assert!(late.is_some());
/// ```
pub fn tick() -> Result<(), String> {
    let look = CURRENT.with(|c| match &mut *c.borrow_mut() {
        Some(r) => {
            r.ticks = r.ticks.wrapping_add(1);
            r.ticks % TICKS_PER_LOOK == 0
        }
        None => false,
    });
    if look { on_time() } else { Ok(()) }
}

fn late(timeout: Duration) -> String {
    format!(
        "the render ran past its deadline of {} s (--timeout SECONDS or {VARIABLE} raises it)",
        timeout.as_secs()
    )
}

/// How many more values the render's documents may hold (`usize::MAX`
/// outside a governed render).
pub fn values_left() -> usize {
    CURRENT.with(|c| {
        c.borrow()
            .as_ref()
            .map_or(usize::MAX, |r| RENDER_VALUES.saturating_sub(r.values))
    })
}

/// Counts `n` values read into the render; `Err` once the render's
/// documents hold more than [`RENDER_VALUES`].
pub fn add_values(n: usize) -> Result<(), String> {
    CURRENT.with(|c| match &mut *c.borrow_mut() {
        Some(r) => {
            r.values = r.values.saturating_add(n);
            if r.values > RENDER_VALUES {
                return Err(too_many_values());
            }
            Ok(())
        }
        None => Ok(()),
    })
}

/// The message for a render whose documents hold too many values.
pub fn too_many_values() -> String {
    format!(
        "the documents this render reads hold more than {RENDER_VALUES} values in all (files, yaml() and jsonnet() results; an alias counts the values it repeats)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_add_up_across_documents_and_end_with_the_render() {
        govern(|| {
            assert!(add_values(RENDER_VALUES - 1).is_ok());
            assert_eq!(values_left(), 1);
            assert_eq!(add_values(2).unwrap_err(), too_many_values());
        });
        assert_eq!(values_left(), usize::MAX);
        assert!(add_values(RENDER_VALUES * 2).is_ok());
    }

    #[test]
    fn a_nested_render_joins_the_outer_one() {
        govern_for(Duration::ZERO, || {
            govern_for(Duration::from_secs(1000), || assert!(on_time().is_err()));
        });
        assert!(on_time().is_ok());
    }

    #[test]
    fn a_panic_ends_the_render() {
        let caught = std::panic::catch_unwind(|| govern(|| panic!("inside")));
        assert!(caught.is_err());
        assert!(!governed());
    }
}
