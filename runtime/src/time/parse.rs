//! Reads a time by a Go layout (`time.Parse`, `time.ParseInLocation`).

use super::civil::{MONTHS, WEEKDAYS, days_in_month};
use super::instant::Time;
use super::layout::{Element, next};
use super::zone::Zone;

/// What the text said, before it becomes a time.
#[derive(Default)]
struct Reading {
    year: i64,
    month: Option<i64>,
    day: Option<i64>,
    yday: Option<i64>,
    hour: i64,
    minute: i64,
    second: i64,
    nanos: i64,
    pm: Option<bool>,
    utc: bool,
    offset: Option<i32>,
    zone_name: Option<String>,
}

/// `value` read by `layout`; a time without a zone in the text is in
/// `zone` (UTC for Go's `Parse`).
///
/// ```
/// use bpvm_runtime::time::{Zone, format, parse};
/// let t = parse::parse("24.11.1987 20:30", "02.01.2006 15:04", Zone::by_name("Europe/Zurich").unwrap()).unwrap();
/// assert_eq!(format::format(t, format::RFC3339_NANO), "1987-11-24T20:30:00+01:00");
/// assert!(parse::parse("2017-13-01", "2006-01-02", Zone::UTC).unwrap_err().contains("month out of range"));
/// ```
pub fn parse(value: &str, layout: &str, zone: Zone) -> Result<Time, String> {
    let fail = |why: String| format!("cannot parse {value:?} as {layout:?}: {why}");
    let mut r = Reading::default();
    let (mut v, mut rest) = (value, layout);
    while !rest.is_empty() {
        let (text, element, after) = next(rest);
        v = skip(v, text).ok_or_else(|| fail(format!("{v:?} does not match {text:?}")))?;
        if let Some(e) = element {
            let source = &rest[text.len()..rest.len() - after.len()];
            v = read_element(&mut r, v, e, after)
                .map_err(|why| fail(why.unwrap_or_else(|| format!("cannot read {v:?} as {source:?}"))))?;
        }
        rest = after;
    }
    if !v.is_empty() {
        return Err(fail(format!("extra text {v:?}")));
    }
    finish(r, zone).map_err(fail)
}

/// Skips `prefix` at the start of `v`; a space in the prefix matches one
/// or more spaces, as in Go.
fn skip<'v>(mut v: &'v str, mut prefix: &str) -> Option<&'v str> {
    while let Some(c) = prefix.chars().next() {
        if c == ' ' {
            if !v.starts_with(' ') {
                return None;
            }
            prefix = prefix.trim_start_matches(' ');
            v = v.trim_start_matches(' ');
            continue;
        }
        v = v.strip_prefix(c)?;
        prefix = &prefix[c.len_utf8()..];
    }
    Some(v)
}

/// One or two digits (exactly two when `fixed`), or three for `width` 3.
fn number(v: &str, width: usize, fixed: bool) -> Option<(i64, &str)> {
    let n = v.bytes().take(width).take_while(u8::is_ascii_digit).count();
    if n == 0 || (fixed && n < width) {
        return None;
    }
    Some((v[..n].parse().ok()?, &v[n..]))
}

/// The index of the name of `names` (or of its first three letters when
/// `short`) that `v` starts with, any case.
fn name_in(v: &str, names: &[&str], short: bool) -> Option<(usize, usize)> {
    names.iter().enumerate().find_map(|(i, n)| {
        let n = if short { &n[..3] } else { n };
        let head = v.get(..n.len())?;
        head.eq_ignore_ascii_case(n).then_some((i, n.len()))
    })
}

type Step<'v> = Result<&'v str, Option<String>>;

fn in_range<'v>(x: i64, lo: i64, hi: i64, what: &str, v: &'v str) -> Step<'v> {
    if x < lo || x > hi {
        return Err(Some(format!("{what} out of range")));
    }
    Ok(v)
}

fn read_element<'v>(r: &mut Reading, v: &'v str, e: Element, after: &str) -> Step<'v> {
    use Element::*;
    match e {
        Year => {
            let (y, v) = number(v, 2, true).ok_or(None)?;
            r.year = if y >= 69 { 1900 + y } else { 2000 + y };
            Ok(v)
        }
        LongYear => {
            let digits = v
                .get(..4)
                .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
                .ok_or(None)?;
            r.year = digits.parse().map_err(|_| None)?;
            Ok(&v[4..])
        }
        Month | LongMonth => {
            let (i, n) = name_in(v, &MONTHS, e == Month).ok_or(None)?;
            r.month = Some(i as i64 + 1);
            Ok(&v[n..])
        }
        NumMonth | ZeroMonth => {
            let (m, v) = number(v, 2, e == ZeroMonth).ok_or(None)?;
            r.month = Some(m);
            in_range(m, 1, 12, "month", v)
        }
        Weekday | LongWeekday => {
            let (_, n) = name_in(v, &WEEKDAYS, e == Weekday).ok_or(None)?;
            Ok(&v[n..])
        }
        Day | UnderDay | ZeroDay => {
            let v = if e == UnderDay {
                v.strip_prefix(' ').unwrap_or(v)
            } else {
                v
            };
            let (d, v) = number(v, 2, e == ZeroDay).ok_or(None)?;
            r.day = Some(d);
            Ok(v)
        }
        UnderYearDay | ZeroYearDay => {
            let v = if e == UnderYearDay {
                v.trim_start_matches(' ')
            } else {
                v
            };
            let (d, v) = number(v, 3, e == ZeroYearDay).ok_or(None)?;
            r.yday = Some(d);
            in_range(d, 1, 366, "day-of-year", v)
        }
        Hour => read_clock(&mut r.hour, v, false, 23, "hour"),
        Hour12 | ZeroHour12 => read_clock(&mut r.hour, v, e == ZeroHour12, 12, "hour"),
        Minute | ZeroMinute => read_clock(&mut r.minute, v, e == ZeroMinute, 59, "minute"),
        Second | ZeroSecond => {
            let v = read_clock(&mut r.second, v, e == ZeroSecond, 59, "second")?;
            Ok(seconds_fraction(r, v, after))
        }
        Pm | LowerPm => {
            let (pm, am) = if e == Pm { ("PM", "AM") } else { ("pm", "am") };
            r.pm = Some(match v.get(..2) {
                Some(p) if p == pm => true,
                Some(p) if p == am => false,
                _ => return Err(None),
            });
            Ok(&v[2..])
        }
        Offset {
            iso,
            minutes,
            seconds,
            colons,
        } => read_offset(r, v, iso, minutes, seconds, colons),
        ZoneName => read_zone_name(r, v),
        Fraction { digits, trim, .. } => read_fraction(r, v, digits as usize, trim),
    }
}

fn read_clock<'v>(slot: &mut i64, v: &'v str, fixed: bool, hi: i64, what: &str) -> Step<'v> {
    let (x, v) = number(v, 2, fixed).ok_or(None)?;
    *slot = x;
    in_range(x, 0, hi, what, v)
}

/// Go reads a fraction after the seconds even when the layout has none,
/// unless the layout's next element is the fraction.
fn seconds_fraction<'v>(r: &mut Reading, v: &'v str, after: &str) -> &'v str {
    let b = v.as_bytes();
    let has = b.len() >= 2 && (b[0] == b'.' || b[0] == b',') && b[1].is_ascii_digit();
    if !has || matches!(next(after), ("", Some(Element::Fraction { .. }), _)) {
        return v;
    }
    let n = 1 + b[1..].iter().take_while(|d| d.is_ascii_digit()).count();
    r.nanos = nanoseconds(&v[1..n]);
    &v[n..]
}

fn nanoseconds(digits: &str) -> i64 {
    let kept = &digits[..digits.len().min(9)];
    let n: i64 = kept.parse().unwrap_or(0);
    n * 10i64.pow(9 - kept.len() as u32)
}

fn read_fraction<'v>(r: &mut Reading, v: &'v str, digits: usize, trim: bool) -> Step<'v> {
    let b = v.as_bytes();
    let separated = !b.is_empty() && (b[0] == b'.' || b[0] == b',');
    if trim {
        if !separated || !b.get(1).is_some_and(u8::is_ascii_digit) {
            return Ok(v);
        }
        // No more digits than the layout has.
        let n = 1 + b[1..].iter().take(digits).take_while(|d| d.is_ascii_digit()).count();
        r.nanos = nanoseconds(&v[1..n]);
        return Ok(&v[n..]);
    }
    if !separated || b.len() < 1 + digits || !b[1..=digits].iter().all(u8::is_ascii_digit) {
        return Err(None);
    }
    r.nanos = nanoseconds(&v[1..=digits]);
    Ok(&v[1 + digits..])
}

fn read_offset<'v>(r: &mut Reading, v: &'v str, iso: bool, minutes: bool, seconds: bool, colons: bool) -> Step<'v> {
    if let Some(v) = v.strip_prefix('Z').filter(|_| iso) {
        r.utc = true;
        return Ok(v);
    }
    let sign = match v.as_bytes().first() {
        Some(b'+') => 1,
        Some(b'-') => -1,
        _ => return Err(None),
    };
    let mut rest = &v[1..];
    let mut total = 0i64;
    for (i, limit) in [(0, 24), (1, 60), (2, 60)] {
        if (i == 1 && !minutes) || (i == 2 && !seconds) {
            break;
        }
        if i > 0 && colons {
            rest = rest.strip_prefix(':').ok_or(None)?;
        }
        let (x, after) = number(rest, 2, true).ok_or(None)?;
        if x > limit {
            return Err(Some("time zone offset out of range".into()));
        }
        total = total * 60 + x;
        rest = after;
    }
    let scale = if seconds {
        1
    } else if minutes {
        60
    } else {
        3600
    };
    r.offset = Some((sign * total * scale) as i32);
    Ok(rest)
}

fn read_zone_name<'v>(r: &mut Reading, v: &'v str) -> Step<'v> {
    if let Some(v) = v.strip_prefix("UTC") {
        r.utc = true;
        return Ok(v);
    }
    let n = zone_name_len(v).ok_or(None)?;
    r.zone_name = Some(v[..n].to_string());
    Ok(&v[n..])
}

/// The length of a zone abbreviation at the start of `v` (`MST`, `CEST`,
/// `GMT+1`, `+03`), by Go's rules.
fn zone_name_len(v: &str) -> Option<usize> {
    if v.starts_with("ChST") || v.starts_with("MeST") {
        return Some(4);
    }
    if let Some(after) = v.strip_prefix("GMT") {
        let sign = after.starts_with(['+', '-']);
        let digits = after
            .get(1..)
            .map_or(0, |d| d.bytes().take_while(u8::is_ascii_digit).count());
        return Some(if sign && digits > 0 { 4 + digits } else { 3 });
    }
    if v.starts_with(['+', '-']) {
        let digits = v[1..].bytes().take_while(u8::is_ascii_digit).count();
        return matches!(digits, 2 | 4).then_some(1 + digits);
    }
    let upper = v.bytes().take_while(u8::is_ascii_uppercase).count();
    let b = v.as_bytes();
    match upper {
        3 => Some(3),
        4 if b[3] == b'T' || v.starts_with("WITA") => Some(4),
        5 if b[4] == b'T' => Some(5),
        _ => None,
    }
}

/// The time a reading names, with Go's checks and zone rules.
fn finish(r: Reading, zone: Zone) -> Result<Time, String> {
    let mut hour = r.hour;
    match r.pm {
        Some(true) if hour < 12 => hour += 12,
        Some(false) if hour == 12 => hour = 0,
        _ => {}
    }
    let (month, day) = match r.yday {
        Some(yday) => from_year_day(r.year, yday, r.month, r.day)?,
        None => (r.month.unwrap_or(1), r.day.unwrap_or(1)),
    };
    if day < 1 || day > days_in_month(r.year, month as u32) as i64 {
        return Err("day out of range".into());
    }
    let clock = [hour, r.minute, r.second, r.nanos];
    let at = |z: Zone| Time::from_civil(r.year, month, day, clock, z).ok_or_else(|| "time out of range".to_string());
    if r.utc {
        return at(Zone::UTC);
    }
    if let Some(offset) = r.offset {
        let t = at(Zone::UTC)?
            .add_nanos(-(offset as i64) * 1_000_000_000)
            .ok_or("time out of range")?;
        let same = zone.offset_at(t.secs) == offset;
        return Ok(t.with_zone(if same { zone } else { Zone::fixed(offset) }));
    }
    if let Some(name) = r.zone_name {
        let t = at(Zone::UTC)?;
        if let Some(offset) = zone.offset_named(&name, t.secs) {
            let moved = t
                .add_nanos(-(offset as i64) * 1_000_000_000)
                .ok_or("time out of range")?;
            return Ok(moved.with_zone(zone));
        }
        // An abbreviation the zone does not use is a zone of its own with
        // offset 0 (`GMT+3`: 3 hours), the clock read as UTC, as in Go;
        // its name is not kept.
        return Ok(t.with_zone(Zone::fixed(gmt_offset(&name).unwrap_or(0))));
    }
    at(zone)
}

fn gmt_offset(name: &str) -> Option<i32> {
    let hours: i32 = name.strip_prefix("GMT")?.parse().ok()?;
    Some(hours * 3600)
}

/// Month and day of day `yday` of `year`; a month or day also given must agree.
fn from_year_day(year: i64, yday: i64, month: Option<i64>, day: Option<i64>) -> Result<(i64, i64), String> {
    let mut left = yday;
    for m in 1..=12u32 {
        let n = days_in_month(year, m) as i64;
        if left <= n {
            let agrees = month.is_none_or(|x| x == m as i64) && day.is_none_or(|x| x == left);
            return if agrees {
                Ok((m as i64, left))
            } else {
                Err("day-of-year does not match month or day".into())
            };
        }
        left -= n;
    }
    Err("day-of-year out of range".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::format::{RFC3339_NANO, format};

    fn round_trip(value: &str, layout: &str) -> String {
        format(parse(value, layout, Zone::UTC).unwrap(), RFC3339_NANO)
    }

    #[test]
    fn reads_the_layouts_date_tries() {
        assert_eq!(round_trip("2017-10-23", "2006-01-02"), "2017-10-23T00:00:00Z");
        assert_eq!(round_trip("10:15:00", "15:04:05"), "0000-01-01T10:15:00Z");
        assert_eq!(
            round_trip("2006-01-02T15:04:05.5+07:00", RFC3339_NANO),
            "2006-01-02T15:04:05.5+07:00"
        );
        assert_eq!(
            round_trip("02 Jan 06 15:04 MST", "02 Jan 06 15:04 MST"),
            "2006-01-02T15:04:00Z"
        );
        assert_eq!(
            round_trip("Monday, 02-Jan-06 3:04PM UTC", "Monday, 02-Jan-06 3:04PM MST"),
            "2006-01-02T15:04:00Z"
        );
        assert_eq!(
            round_trip("2023-02-03 04:05:06.789", "2006-01-02 15:04:05"),
            "2023-02-03T04:05:06.789Z"
        );
    }

    #[test]
    fn checks_ranges() {
        assert!(
            parse("2023-02-29", "2006-01-02", Zone::UTC)
                .unwrap_err()
                .contains("day out of range")
        );
        assert!(
            parse("2023-02-28x", "2006-01-02", Zone::UTC)
                .unwrap_err()
                .contains("extra text")
        );
        assert!(
            parse("24:00", "15:04", Zone::UTC)
                .unwrap_err()
                .contains("hour out of range")
        );
    }
}
