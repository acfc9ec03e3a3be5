//! Where a time is shown: UTC, the machine's local zone, a fixed offset
//! from UTC, or an IANA zone (`Europe/Zurich`), packed in 32 bits so that
//! a time fits a value without making values larger.

use chrono::{Offset, TimeZone};
use chrono_tz::{OffsetName, Tz};
use std::sync::OnceLock;

/// A time's location, as Go's `*time.Location`.
///
/// ```
/// use bpvm_runtime::time::Zone;
/// let z = Zone::by_name("Europe/Zurich").unwrap();
/// assert_eq!(z.name(), "Europe/Zurich");
/// assert_eq!(z.offset_at(0), 3600);
/// assert_eq!(Zone::UTC.name(), "UTC");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zone(u32);

/// Marks a fixed offset; the low bits hold the offset plus [`BIAS`].
const FIXED: u32 = 1 << 31;
const BIAS: i32 = 1 << 24;
/// Named zones start here (0 is UTC, 1 is Local).
const NAMED: u32 = 2;

/// What a [`Zone`] is, unpacked.
enum Place {
    Utc,
    Local,
    Fixed(i32),
    Named(Tz),
}

impl Zone {
    /// Coordinated Universal Time.
    pub const UTC: Zone = Zone(0);
    /// The machine's zone (Go's `time.Local`): `TZ`, else `/etc/localtime`.
    pub const LOCAL: Zone = Zone(1);

    /// A fixed offset east of UTC, in seconds (Go's `FixedZone("", s)`).
    pub fn fixed(seconds: i32) -> Zone {
        Zone(FIXED | (seconds.clamp(1 - BIAS, BIAS - 1) + BIAS) as u32)
    }

    /// A zone by its IANA name; `""` and `UTC` are UTC, `Local` the
    /// machine's (as Go's `time.LoadLocation`).
    pub fn by_name(name: &str) -> Option<Zone> {
        match name {
            "" | "UTC" => Some(Zone::UTC),
            "Local" => Some(Zone::LOCAL),
            _ => name.parse::<Tz>().ok().map(named),
        }
    }

    fn place(self) -> Place {
        match self.0 {
            0 => Place::Utc,
            1 => Place::Local,
            z if z & FIXED != 0 => Place::Fixed((z & !FIXED) as i32 - BIAS),
            z => chrono_tz::TZ_VARIANTS
                .get((z - NAMED) as usize)
                .map_or(Place::Utc, |tz| Place::Named(*tz)),
        }
    }

    /// The name Go's `Location.String()` gives: `UTC`, `Local`, the IANA
    /// name, or `""` for a fixed offset.
    pub fn name(self) -> &'static str {
        match self.place() {
            Place::Utc => "UTC",
            Place::Local => "Local",
            Place::Fixed(_) => "",
            Place::Named(tz) => tz.name(),
        }
    }

    /// The offset east of UTC in seconds at the Unix instant `unix`.
    pub fn offset_at(self, unix: i64) -> i32 {
        match self.place() {
            Place::Utc => 0,
            Place::Fixed(s) => s,
            Place::Local => local().map_or(0, |tz| tz_offset(tz, unix).0),
            Place::Named(tz) => tz_offset(tz, unix).0,
        }
    }

    /// The zone's abbreviation at the Unix instant `unix` (`CET`); `None`
    /// for a fixed offset, which Go prints as the offset.
    pub fn abbreviation_at(self, unix: i64) -> Option<String> {
        match self.place() {
            Place::Utc => Some("UTC".into()),
            Place::Fixed(_) => None,
            Place::Local => Some(local().map_or("UTC".into(), |tz| tz_offset(tz, unix).1)),
            Place::Named(tz) => Some(tz_offset(tz, unix).1),
        }
    }

    /// The Unix instant of the wall clock reading `local` (seconds as if
    /// the wall clock were UTC) in this zone, chosen as Go's `time.Date`
    /// chooses where a change of offset makes a reading ambiguous or
    /// skips it: the offset at `local` read as UTC, unless the instant it
    /// gives has another offset, which is then taken.
    pub fn to_unix(self, local: i64) -> i64 {
        let first = self.offset_at(local) as i64;
        let second = self.offset_at(local - first) as i64;
        local - second
    }

    /// The offset `abbreviation` stands for in this zone around the Unix
    /// instant `unix`, if the zone uses it (Go's `lookupName`).
    pub fn offset_named(self, abbreviation: &str, unix: i64) -> Option<i32> {
        [0, -86400 * 183, 86400 * 183].iter().find_map(|shift| {
            let name = self.abbreviation_at(unix + shift)?;
            (name == abbreviation).then(|| self.offset_at(unix + shift))
        })
    }
}

fn named(tz: Tz) -> Zone {
    Zone(NAMED + tz as u32)
}

/// The offset and abbreviation of `tz` at `unix`; a zone without an
/// abbreviation then is named by its offset (`+03`), as the tz database does.
fn tz_offset(tz: Tz, unix: i64) -> (i32, String) {
    let Some(at) = chrono::DateTime::from_timestamp(unix, 0) else {
        return (0, "UTC".into());
    };
    let offset = tz.offset_from_utc_datetime(&at.naive_utc());
    let seconds = offset.fix().local_minus_utc();
    let name = offset
        .abbreviation()
        .map_or_else(|| numeric_name(seconds), str::to_string);
    (seconds, name)
}

fn numeric_name(seconds: i32) -> String {
    let (sign, s) = if seconds < 0 { ('-', -seconds) } else { ('+', seconds) };
    match (s / 60) % 60 {
        0 => format!("{sign}{:02}", s / 3600),
        m => format!("{sign}{:02}{m:02}", s / 3600),
    }
}

/// The machine's zone: `TZ` when set (empty or unknown is UTC, as Go),
/// else the zone `/etc/localtime` links to; `None` is UTC.
fn local() -> Option<Tz> {
    static LOCAL: OnceLock<Option<Tz>> = OnceLock::new();
    *LOCAL.get_or_init(|| match std::env::var("TZ") {
        Ok(name) => name.trim_start_matches(':').parse().ok(),
        Err(_) => std::fs::read_link("/etc/localtime")
            .ok()
            .and_then(|p| p.to_string_lossy().split_once("zoneinfo/").map(|(_, n)| n.to_string()))
            .and_then(|n| n.parse().ok()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_zones_round_trip_through_their_number() {
        for (i, tz) in chrono_tz::TZ_VARIANTS.iter().enumerate() {
            assert_eq!(*tz as usize, i);
        }
        assert_eq!(Zone::by_name("America/New_York").unwrap().name(), "America/New_York");
    }

    #[test]
    fn fixed_offsets_keep_their_sign() {
        assert_eq!(Zone::fixed(-25200).offset_at(0), -25200);
        assert_eq!(Zone::fixed(19800).offset_at(0), 19800);
        assert_eq!(Zone::fixed(19800).abbreviation_at(0), None);
    }
}
