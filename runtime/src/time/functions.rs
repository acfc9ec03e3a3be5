//! The Windsor dialect's time functions, as expr-lang's: `now()`,
//! `date(text [, layout [, zone]])`, `duration(text)`, `timezone(name)`,
//! and the hidden function method calls on time values compile to.

use super::clock;
use super::duration;
use super::instant::Calendar;
use super::parse::parse;
use super::zone::Zone;
use crate::builtins::args::{str_at, wrong};
use crate::func::{Builtin, Ctx, FnError, VARIADIC};
use crate::val::Val;

/// The name method calls compile to: `x.Year()` is `.method(x, "Year")`.
/// It starts with a dot, so no expression can name it.
pub const METHOD: &str = ".method";

/// The time functions. None is folded at compile time: `now()` reads the
/// clock, and the others make values a program's constants cannot hold.
pub static FUNCTIONS: &[Builtin] = &[
    Builtin {
        name: "now",
        min: 0,
        max: 1,
        f: now,
        pure: false,
    },
    Builtin {
        name: "date",
        min: 1,
        max: 4,
        f: date,
        pure: false,
    },
    Builtin {
        name: "duration",
        min: 1,
        max: 1,
        f: parse_duration,
        pure: false,
    },
    Builtin {
        name: "timezone",
        min: 1,
        max: 1,
        f: timezone,
        pure: false,
    },
    Builtin {
        name: METHOD,
        min: 2,
        max: VARIADIC,
        f: super::methods::call,
        pure: false,
    },
];

/// The layouts `date(text)` tries, in order, as expr-lang.
const LAYOUTS: &[&str] = &[
    "2006-01-02",
    "15:04:05",
    "2006-01-02 15:04:05",
    "2006-01-02T15:04:05Z07:00",
    "02 Jan 06 15:04 MST",
    "Monday, 02-Jan-06 15:04:05 MST",
    "Mon, 02 Jan 2006 15:04:05 MST",
];

fn now<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let t = clock::now();
    match a.first() {
        None => Ok(Val::Time(t)),
        Some(Val::Calendar(Calendar::Zone(z))) => Ok(Val::Time(t.with_zone(*z))),
        Some(other) => Err(wrong("now", 0, "a time zone (timezone(name))", *other)),
    }
}

/// A zone name's zone, or an error naming `f`.
pub fn zone_named(f: &str, name: &str) -> Result<Zone, FnError> {
    Zone::by_name(name).ok_or_else(|| FnError::new(format!("{f}() knows no time zone {name:?}")))
}

fn date<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let (zone, a) = match a[0] {
        Val::Calendar(Calendar::Zone(z)) => (Some(z), &a[1..]),
        _ => (None, a),
    };
    if a.is_empty() || a.len() > 3 {
        return Err(FnError::new(format!(
            "date() takes a date, a layout and a time zone, got {} arguments",
            a.len()
        )));
    }
    let text = str_at("date", a, 0)?;
    let zone = match a.get(2) {
        Some(_) => zone_named("date", str_at("date", a, 2)?)?,
        None => zone.unwrap_or(Zone::UTC),
    };
    if a.len() >= 2 {
        let layout = str_at("date", a, 1)?;
        return parse(text, layout, zone)
            .map(Val::Time)
            .map_err(|e| FnError::arg(0, format!("date() {e}")));
    }
    LAYOUTS
        .iter()
        .find_map(|l| parse(text, l, zone).ok())
        .map(Val::Time)
        .ok_or_else(|| {
            FnError::arg(
                0,
                format!(
                    "date() cannot parse {text:?} by any layout it tries without one (2006-01-02, 15:04:05, \
                 2006-01-02 15:04:05, RFC 3339, RFC 822, RFC 850, RFC 1123); give its layout as the second argument"
                ),
            )
        })
}

fn parse_duration<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let text = str_at("duration", a, 0)?;
    duration::parse(text)
        .map(Val::Duration)
        .map_err(|e| FnError::arg(0, format!("duration() {e}")))
}

fn timezone<'a>(_: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let name = str_at("timezone", a, 0)?;
    zone_named("timezone", name).map(|z| Val::Calendar(Calendar::Zone(z)))
}
