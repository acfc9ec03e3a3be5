//! Writes a time by a Go layout (`Time.Format`), and as Go's `String()`,
//! `RFC3339Nano` and month and weekday names.

use super::civil::{MONTHS, WEEKDAYS};
use super::instant::Time;
use super::layout::{Element, next};
use std::fmt::Write;

/// The layout of Go's `Time.String()`.
pub const STRING: &str = "2006-01-02 15:04:05.999999999 -0700 MST";
/// Go's `time.RFC3339Nano`, how JSON and YAML write a time.
pub const RFC3339_NANO: &str = "2006-01-02T15:04:05.999999999Z07:00";

/// `t` written by `layout`.
///
/// ```
/// use bpvm_runtime::time::{Time, Zone, format};
/// let t = Time::from_civil(2017, 10, 23, [15, 4, 5, 0], Zone::UTC).unwrap();
/// assert_eq!(format::format(t, "Jan 2, 2006 at 3:04pm (MST)"), "Oct 23, 2017 at 3:04pm (UTC)");
/// ```
pub fn format(t: Time, layout: &str) -> String {
    let f = t.fields();
    let mut out = String::with_capacity(layout.len() + 10);
    let mut rest = layout;
    while !rest.is_empty() {
        let (text, element, after) = next(rest);
        out.push_str(text);
        if let Some(e) = element {
            write_element(&mut out, t, &f, e);
        }
        rest = after;
    }
    out
}

fn write_element(out: &mut String, t: Time, f: &super::instant::Fields, e: Element) {
    let month = MONTHS[(f.month - 1) as usize];
    let weekday = WEEKDAYS[f.weekday as usize];
    let hour12 = if f.hour % 12 == 0 { 12 } else { f.hour % 12 };
    let _ = match e {
        Element::LongMonth => write!(out, "{month}"),
        Element::Month => write!(out, "{}", &month[..3]),
        Element::NumMonth => write!(out, "{}", f.month),
        Element::ZeroMonth => write!(out, "{:02}", f.month),
        Element::LongWeekday => write!(out, "{weekday}"),
        Element::Weekday => write!(out, "{}", &weekday[..3]),
        Element::Day => write!(out, "{}", f.day),
        Element::UnderDay => write!(out, "{:>2}", f.day),
        Element::ZeroDay => write!(out, "{:02}", f.day),
        Element::UnderYearDay => write!(out, "{:>3}", f.yday),
        Element::ZeroYearDay => write!(out, "{:03}", f.yday),
        Element::Hour => write!(out, "{:02}", f.hour),
        Element::Hour12 => write!(out, "{hour12}"),
        Element::ZeroHour12 => write!(out, "{hour12:02}"),
        Element::Minute => write!(out, "{}", f.minute),
        Element::ZeroMinute => write!(out, "{:02}", f.minute),
        Element::Second => write!(out, "{}", f.second),
        Element::ZeroSecond => write!(out, "{:02}", f.second),
        Element::LongYear if f.year < 0 => write!(out, "-{:04}", -f.year),
        Element::LongYear => write!(out, "{:04}", f.year),
        Element::Year => write!(out, "{:02}", f.year.rem_euclid(100)),
        Element::Pm => write!(out, "{}", if f.hour >= 12 { "PM" } else { "AM" }),
        Element::LowerPm => write!(out, "{}", if f.hour >= 12 { "pm" } else { "am" }),
        Element::ZoneName => match t.zone.abbreviation_at(t.secs) {
            Some(name) => write!(out, "{name}"),
            None => write_offset(out, f.offset, true, false, false),
        },
        Element::Offset { iso: true, .. } if f.offset == 0 => write!(out, "Z"),
        Element::Offset {
            minutes,
            seconds,
            colons,
            ..
        } => write_offset(out, f.offset, minutes, seconds, colons),
        Element::Fraction { digits, trim, comma } => write_fraction(out, f.nanos, digits, trim, comma),
    };
}

fn write_offset(out: &mut String, offset: i32, minutes: bool, seconds: bool, colons: bool) -> std::fmt::Result {
    let sign = if offset < 0 { '-' } else { '+' };
    let s = offset.unsigned_abs();
    write!(out, "{sign}{:02}", s / 3600)?;
    let colon = if colons { ":" } else { "" };
    if minutes {
        write!(out, "{colon}{:02}", s / 60 % 60)?;
    }
    if seconds {
        write!(out, "{colon}{:02}", s % 60)?;
    }
    Ok(())
}

fn write_fraction(out: &mut String, nanos: u32, digits: u8, trim: bool, comma: bool) -> std::fmt::Result {
    let all = format!("{nanos:09}");
    let mut shown = &all[..digits as usize];
    if trim {
        shown = shown.trim_end_matches('0');
        if shown.is_empty() {
            return Ok(());
        }
    }
    write!(out, "{}{shown}", if comma { ',' } else { '.' })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Zone;

    #[test]
    fn string_and_rfc3339_are_gos() {
        let t = Time::from_civil(2017, 10, 23, [0, 0, 0, 500], Zone::UTC).unwrap();
        assert_eq!(format(t, STRING), "2017-10-23 00:00:00.0000005 +0000 UTC");
        assert_eq!(format(t, RFC3339_NANO), "2017-10-23T00:00:00.0000005Z");
        let z = t.with_zone(Zone::fixed(-7 * 3600));
        assert_eq!(format(z, STRING), "2017-10-22 17:00:00.0000005 -0700 -0700");
        assert_eq!(format(z, "Monday 002 __2 3PM .000 Z07"), "Sunday 295 295 5PM .000 -07");
    }
}
