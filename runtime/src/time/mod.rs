//! Go's time values in the Windsor dialect, as expr-lang has them: a
//! [`Time`] (an instant and its zone), a duration (an `i64` of
//! nanoseconds), months, weekdays and locations; Go's layout strings;
//! the functions `now()`, `date()`, `duration()`, `timezone()` and the
//! methods called on these values (`now().Year()`).

pub mod civil;
pub mod clock;
pub mod duration;
pub mod format;
pub mod functions;
pub mod instant;
pub mod layout;
mod methods;
pub mod parse;
pub mod zone;

pub use instant::{Calendar, Fields, Time};
pub use zone::Zone;
