//! What `now()` reads: the real clock, or an instant a render pins so
//! that its output is the same every run.
//!
//! The pin is per thread, as the render's deadline is (see
//! [`crate::govern`]): a render runs on one thread, and `now()` is read
//! only where an expression calls it.

use super::instant::Time;
use super::zone::Zone;
use std::cell::Cell;

thread_local! {
    static PINNED: Cell<Option<Time>> = const { Cell::new(None) };
}

/// Runs `f` with `now()` reading `now` (the real clock when `None`);
/// the pin before is back when `f` ends, however it ends.
///
/// ```
/// use bpvm_runtime::time::{clock, Time, Zone};
/// let t = Time::from_civil(2024, 5, 6, [7, 8, 9, 0], Zone::UTC).unwrap();
/// assert_eq!(clock::pinned(Some(t), clock::now), t);
/// assert_ne!(clock::now(), t);
/// ```
pub fn pinned<R>(now: Option<Time>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Time>);
    impl Drop for Restore {
        fn drop(&mut self) {
            PINNED.with(|p| p.set(self.0));
        }
    }
    let _restore = Restore(PINNED.with(|p| p.replace(now)));
    f()
}

/// The pinned instant, else the real clock in the local zone (Go's
/// `time.Now()`).
pub fn now() -> Time {
    if let Some(t) = PINNED.with(Cell::get) {
        return t;
    }
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    let nanos = since.map_or(0, |d| d.as_nanos() as i128);
    Time::from_unix_nanos(nanos, Zone::LOCAL).unwrap_or(Time {
        secs: 0,
        nanos: 0,
        zone: Zone::LOCAL,
    })
}

/// Reads an RFC 3339 instant (`2024-05-06T07:08:09Z`,
/// `2024-05-06T09:08:09.5+02:00`) as `--now` gives it: `Z` is UTC,
/// another offset a fixed zone.
///
/// ```
/// use bpvm_runtime::time::clock;
/// assert_eq!(clock::rfc3339("2024-05-06T07:08:09Z").unwrap().secs, 1_714_979_289);
/// assert!(clock::rfc3339("yesterday").is_err());
/// ```
pub fn rfc3339(text: &str) -> Result<Time, String> {
    super::parse::parse(text, super::format::RFC3339_NANO, Zone::UTC)
        .map_err(|_| format!("{text:?} is not an RFC 3339 time such as 2024-05-06T07:08:09Z"))
}
