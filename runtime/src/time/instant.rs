//! An instant with the zone it is shown in: Go's `time.Time`, to the
//! nanosecond, in 16 bytes.

use super::civil::{civil_from_days, days_from_civil};
use super::zone::Zone;

/// A time: seconds and nanoseconds since the Unix epoch, and its zone.
///
/// ```
/// use bpvm_runtime::time::{Time, Zone};
/// let t = Time::from_civil(2017, 10, 23, [0, 0, 0, 0], Zone::UTC).unwrap();
/// assert_eq!(t.secs, 1_508_716_800);
/// assert_eq!(t.fields().weekday, 1);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Time {
    /// Whole seconds since 1970-01-01 UTC.
    pub secs: i64,
    /// Nanoseconds past `secs`, below one second.
    pub nanos: u32,
    /// Where it is shown.
    pub zone: Zone,
}

/// The small named values a time gives: Go's `time.Month`,
/// `time.Weekday` and `*time.Location`. They compare with their own kind
/// and print as names (`October`, `Monday`, `Europe/Zurich`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Calendar {
    /// 1 (January) to 12.
    Month(u8),
    /// 0 (Sunday) to 6.
    Weekday(u8),
    /// A location.
    Zone(Zone),
}

impl Calendar {
    /// The name Go prints.
    pub fn name(self) -> &'static str {
        match self {
            Calendar::Month(m) => super::civil::MONTHS.get(m as usize - 1).copied().unwrap_or("%!Month"),
            Calendar::Weekday(d) => super::civil::WEEKDAYS.get(d as usize).copied().unwrap_or("%!Weekday"),
            Calendar::Zone(z) => z.name(),
        }
    }

    /// Go's type name (`time.Month`).
    pub fn type_name(self) -> &'static str {
        match self {
            Calendar::Month(_) => "time.Month",
            Calendar::Weekday(_) => "time.Weekday",
            Calendar::Zone(_) => "*time.Location",
        }
    }
}

/// The Unix seconds of Go's zero time, January 1 of year 1 UTC.
pub const ZERO_SECS: i64 = -62_135_596_800;

const NANOS: i64 = 1_000_000_000;

/// A time's wall clock in its zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    /// The year.
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 to 59.
    pub second: u32,
    /// 0 to 999,999,999.
    pub nanos: u32,
    /// 0 (Sunday) to 6.
    pub weekday: u32,
    /// 1 to 366.
    pub yday: u32,
    /// Seconds east of UTC.
    pub offset: i32,
}

impl Time {
    /// The time at `nanos` nanoseconds since the epoch (any sign) in `zone`.
    pub fn from_unix_nanos(nanos: i128, zone: Zone) -> Option<Time> {
        let secs = i64::try_from(nanos.div_euclid(NANOS as i128)).ok()?;
        let nanos = nanos.rem_euclid(NANOS as i128) as u32;
        Some(Time { secs, nanos, zone })
    }

    /// Nanoseconds since the epoch.
    pub fn unix_nanos(self) -> i128 {
        self.secs as i128 * NANOS as i128 + self.nanos as i128
    }

    /// The time of a wall clock reading in `zone`, normalised as Go's
    /// `time.Date` does (month 13 is January of the next year, day 0 the
    /// last of the month before): `clock` is hour, minute, second,
    /// nanosecond. `None` when out of range.
    pub fn from_civil(year: i64, month: i64, day: i64, clock: [i64; 4], zone: Zone) -> Option<Time> {
        let year = year.checked_add((month - 1).div_euclid(12))?;
        let month = ((month - 1).rem_euclid(12) + 1) as u32;
        if year.unsigned_abs() > 1 << 40 || day.unsigned_abs() > 1 << 40 {
            return None;
        }
        let days = days_from_civil(year, month, day) as i128;
        let [h, m, s, ns] = clock.map(|x| x as i128);
        let local = (((days * 24 + h) * 60 + m) * 60 + s) * NANOS as i128 + ns;
        let local_secs = i64::try_from(local.div_euclid(NANOS as i128)).ok()?;
        let unix = zone.to_unix(local_secs);
        let nanos = local.rem_euclid(NANOS as i128) as u32;
        Some(Time {
            secs: unix,
            nanos,
            zone,
        })
    }

    /// The wall clock in the time's zone.
    pub fn fields(self) -> Fields {
        let offset = self.zone.offset_at(self.secs);
        let local = self.secs.saturating_add(offset as i64);
        let days = local.div_euclid(86_400);
        let in_day = local.rem_euclid(86_400) as u32;
        let (year, month, day) = civil_from_days(days);
        Fields {
            year,
            month,
            day,
            hour: in_day / 3600,
            minute: in_day / 60 % 60,
            second: in_day % 60,
            nanos: self.nanos,
            weekday: (days + 4).rem_euclid(7) as u32,
            yday: (days - days_from_civil(year, 1, 1) + 1) as u32,
            offset,
        }
    }

    /// The same instant shown in `zone`.
    pub fn with_zone(self, zone: Zone) -> Time {
        Time { zone, ..self }
    }

    /// `self + d` nanoseconds; `None` past the range.
    pub fn add_nanos(self, d: i64) -> Option<Time> {
        Time::from_unix_nanos(self.unix_nanos() + d as i128, self.zone)
    }

    /// `self - other` in nanoseconds, held to the range of a duration as
    /// Go's `Sub` holds it.
    pub fn since(self, other: Time) -> i64 {
        let d = self.unix_nanos() - other.unix_nanos();
        d.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    /// Go's `IsZero`: January 1 of year 1, 00:00:00 UTC.
    pub fn is_zero(self) -> bool {
        self.secs == ZERO_SECS && self.nanos == 0
    }

    /// Rounds down (`round` false) or to the nearest (halves up) multiple
    /// of `d` since the zero time, as Go's `Truncate` and `Round`; `d <= 0`
    /// leaves the time as it is.
    pub fn step(self, d: i64, round: bool) -> Option<Time> {
        if d <= 0 {
            return Some(self);
        }
        let since_zero = self.unix_nanos() - ZERO_SECS as i128 * NANOS as i128;
        let r = since_zero.rem_euclid(d as i128);
        let moved = if round && r + r >= d as i128 {
            self.unix_nanos() + (d as i128 - r)
        } else {
            self.unix_nanos() - r
        };
        Time::from_unix_nanos(moved, self.zone)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<Time>(), 16);
    }

    #[test]
    fn civil_times_normalise_as_go_does() {
        let t = Time::from_civil(2000, 13, 0, [24, 0, 0, 0], Zone::UTC).unwrap();
        let f = t.fields();
        assert_eq!((f.year, f.month, f.day, f.hour), (2001, 1, 1, 0));
        assert!(Time::from_civil(1, 1, 1, [0; 4], Zone::UTC).unwrap().is_zero());
    }
}
