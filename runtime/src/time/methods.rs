//! Methods called on time values (`now().Year()`, `d.Hours()`), as Go's
//! `time.Time`, `time.Duration`, `time.Month`, `time.Weekday` and
//! `*time.Location` have them.

use super::duration;
use super::format::format;
use super::instant::{Calendar, Time};
use super::zone::Zone;
use crate::builtins::args::{int_at, str_at, wrong};
use crate::func::{Ctx, FnError};
use crate::val::Val;

/// `receiver.name(args…)`: `a` is the receiver, the method's name, then
/// its arguments.
pub fn call<'a>(c: &mut Ctx<'a>, a: &[Val<'a>]) -> Result<Val<'a>, FnError> {
    let (receiver, name, args) = match a {
        [r, Val::Str(n), rest @ ..] => (*r, *n, rest),
        _ => return Err(FnError::new("a method call needs a receiver and a name")),
    };
    let result = match receiver {
        Val::Time(t) => time_method(c, t, name, args),
        Val::Duration(d) => duration_method(c, d, name, args),
        Val::Calendar(k) => calendar_method(c, k, name, args),
        Val::Nil => return Err(FnError::new(format!("cannot call method {name}() on nil"))),
        _ => None,
    };
    result.unwrap_or_else(|| {
        let kind = receiver.kind().name(crate::Vocabulary::Expr);
        Err(FnError::new(format!("{kind} has no method {name}()")))
    })
}

/// Checks a method's argument count.
fn arity(name: &str, args: &[Val<'_>], n: usize) -> Result<(), FnError> {
    if args.len() == n {
        return Ok(());
    }
    let s = if n == 1 { "" } else { "s" };
    Err(FnError::new(format!(
        "{name}() takes {n} argument{s}, got {}",
        args.len()
    )))
}

fn time_at(method: &str, a: &[Val<'_>], i: usize) -> Result<Time, FnError> {
    match a.get(i).copied().unwrap_or(Val::Nil) {
        Val::Time(t) => Ok(t),
        other => Err(wrong(method, i, "a time.Time", other)),
    }
}

fn duration_at(method: &str, a: &[Val<'_>], i: usize) -> Result<i64, FnError> {
    match a.get(i).copied().unwrap_or(Val::Nil) {
        Val::Duration(d) => Ok(d),
        other => Err(wrong(method, i, "a time.Duration", other)),
    }
}

fn zone_at(method: &str, a: &[Val<'_>], i: usize) -> Result<Zone, FnError> {
    match a.get(i).copied().unwrap_or(Val::Nil) {
        Val::Calendar(Calendar::Zone(z)) => Ok(z),
        other => Err(wrong(method, i, "a *time.Location", other)),
    }
}

type Called<'a> = Option<Result<Val<'a>, FnError>>;

/// A method without arguments giving a number or name of the wall clock.
fn time_field<'a>(t: Time, name: &str) -> Option<Val<'a>> {
    let f = t.fields();
    let ms = t.unix_nanos().div_euclid(1_000_000);
    Some(match name {
        "Year" => Val::Int(f.year),
        "Month" => Val::Calendar(Calendar::Month(f.month as u8)),
        "Day" => Val::Int(f.day as i64),
        "Hour" => Val::Int(f.hour as i64),
        "Minute" => Val::Int(f.minute as i64),
        "Second" => Val::Int(f.second as i64),
        "Nanosecond" => Val::Int(f.nanos as i64),
        "Weekday" => Val::Calendar(Calendar::Weekday(f.weekday as u8)),
        "YearDay" => Val::Int(f.yday as i64),
        "Unix" => Val::Int(t.secs),
        "UnixMilli" => Val::Int(ms as i64),
        "UnixMicro" => Val::Int(t.unix_nanos().div_euclid(1_000) as i64),
        "UnixNano" => Val::Int(t.unix_nanos() as i64),
        "IsZero" => Val::Bool(t.is_zero()),
        "UTC" => Val::Time(t.with_zone(Zone::UTC)),
        "Local" => Val::Time(t.with_zone(Zone::LOCAL)),
        "Location" => Val::Calendar(Calendar::Zone(t.zone)),
        _ => return None,
    })
}

fn time_method<'a>(c: &mut Ctx<'a>, t: Time, name: &str, a: &[Val<'a>]) -> Called<'a> {
    if let Some(v) = time_field(t, name) {
        return Some(arity(name, a, 0).map(|_| v));
    }
    let order = |a: &[Val<'a>]| -> Result<std::cmp::Ordering, FnError> {
        arity(name, a, 1)?;
        Ok(t.unix_nanos().cmp(&time_at(name, a, 0)?.unix_nanos()))
    };
    let moved = |r: Option<Time>| {
        r.map(Val::Time)
            .ok_or_else(|| FnError::new(format!("{name}() is out of the time range")))
    };
    Some(match name {
        "String" => arity(name, a, 0).map(|_| c.str(&format(t, super::format::STRING))),
        "Format" => arity(name, a, 1).and_then(|_| Ok(c.str(&format(t, str_at(name, a, 0)?)))),
        "Add" => arity(name, a, 1).and_then(|_| moved(t.add_nanos(duration_at(name, a, 0)?))),
        "Sub" => arity(name, a, 1).and_then(|_| Ok(Val::Duration(t.since(time_at(name, a, 0)?)))),
        "AddDate" => arity(name, a, 3).and_then(|_| moved(add_date(t, name, a)?)),
        "Before" => order(a).map(|o| Val::Bool(o.is_lt())),
        "After" => order(a).map(|o| Val::Bool(o.is_gt())),
        "Equal" => order(a).map(|o| Val::Bool(o.is_eq())),
        "Compare" => order(a).map(|o| Val::Int(o as i64)),
        "In" => arity(name, a, 1).and_then(|_| Ok(Val::Time(t.with_zone(zone_at(name, a, 0)?)))),
        "Truncate" => arity(name, a, 1).and_then(|_| moved(t.step(duration_at(name, a, 0)?, false))),
        "Round" => arity(name, a, 1).and_then(|_| moved(t.step(duration_at(name, a, 0)?, true))),
        _ => return None,
    })
}

/// Go's `AddDate`: the wall clock's year, month and day moved, then
/// normalised (October 31 plus one month is December 1).
fn add_date(t: Time, name: &str, a: &[Val<'_>]) -> Result<Option<Time>, FnError> {
    let (y, m, d) = (int_at(name, a, 0)?, int_at(name, a, 1)?, int_at(name, a, 2)?);
    let f = t.fields();
    let clock = [f.hour as i64, f.minute as i64, f.second as i64, f.nanos as i64];
    let (year, month, day) = (
        f.year.checked_add(y),
        (f.month as i64).checked_add(m),
        (f.day as i64).checked_add(d),
    );
    Ok(match (year, month, day) {
        (Some(year), Some(month), Some(day)) => Time::from_civil(year, month, day, clock, t.zone),
        _ => None,
    })
}

fn duration_method<'a>(c: &mut Ctx<'a>, d: i64, name: &str, a: &[Val<'a>]) -> Called<'a> {
    let none = |v: Val<'a>| Some(arity(name, a, 0).map(|_| v));
    match name {
        "Hours" => none(Val::Float(duration::in_units(d, 3_600_000_000_000))),
        "Minutes" => none(Val::Float(duration::in_units(d, 60_000_000_000))),
        "Seconds" => none(Val::Float(duration::in_units(d, 1_000_000_000))),
        "Milliseconds" => none(Val::Int(d / 1_000_000)),
        "Microseconds" => none(Val::Int(d / 1_000)),
        "Nanoseconds" => none(Val::Int(d)),
        "Abs" => none(Val::Duration(duration::abs(d))),
        "String" => none(c.str(&duration::text(d))),
        "Truncate" => {
            Some(arity(name, a, 1).and_then(|_| Ok(Val::Duration(duration::truncate(d, duration_at(name, a, 0)?)))))
        }
        "Round" => {
            Some(arity(name, a, 1).and_then(|_| Ok(Val::Duration(duration::round(d, duration_at(name, a, 0)?)))))
        }
        _ => None,
    }
}

fn calendar_method<'a>(c: &mut Ctx<'a>, k: Calendar, name: &str, a: &[Val<'a>]) -> Called<'a> {
    match name {
        "String" => Some(arity(name, a, 0).map(|_| c.str(k.name()))),
        _ => None,
    }
}
