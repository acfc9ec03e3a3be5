//! Go's `time.Duration`: an `i64` of nanoseconds, read from and written
//! as text the way `time.ParseDuration` and `Duration.String` do.

/// Nanoseconds in each unit `ParseDuration` knows.
const UNITS: &[(&str, u64)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("µs", 1_000),
    ("μs", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// Reads `[-+]` then one or more `number unit` (`1h30m`, `1.5s`, `-2µs`);
/// `0` alone is zero.
///
/// ```
/// use bpvm_runtime::time::duration;
/// assert_eq!(duration::parse("1h30m"), Ok(5_400_000_000_000));
/// assert_eq!(duration::parse("-1.5s"), Ok(-1_500_000_000));
/// assert!(duration::parse("1").unwrap_err().contains("missing unit"));
/// ```
pub fn parse(text: &str) -> Result<i64, String> {
    let invalid = || format!("invalid duration {text:?}");
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let (nanos, after) = term(rest, text)?;
        total = total.checked_add(nanos).ok_or_else(invalid)?;
        rest = after;
    }
    if negative {
        return 0i64.checked_sub_unsigned(total).ok_or_else(invalid);
    }
    i64::try_from(total).map_err(|_| invalid())
}

/// One `number unit` at the start of `s`: its nanoseconds and the rest.
fn term<'s>(s: &'s str, text: &str) -> Result<(u64, &'s str), String> {
    let invalid = || format!("invalid duration {text:?}");
    let whole_len = s.bytes().take_while(u8::is_ascii_digit).count();
    let (whole, mut rest) = s.split_at(whole_len);
    let mut fraction = "";
    if let Some(after) = rest.strip_prefix('.') {
        let n = after.bytes().take_while(u8::is_ascii_digit).count();
        fraction = &after[..n];
        rest = &after[n..];
    }
    if whole.is_empty() && fraction.is_empty() {
        return Err(invalid());
    }
    let unit_len = rest
        .find(|c: char| c == '.' || c.is_ascii_digit())
        .unwrap_or(rest.len());
    let (unit, rest) = rest.split_at(unit_len);
    if unit.is_empty() {
        return Err(format!("missing unit in duration {text:?}"));
    }
    let Some(&(_, scale)) = UNITS.iter().find(|(u, _)| *u == unit) else {
        return Err(format!("unknown unit {unit:?} in duration {text:?}"));
    };
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| invalid())?
    };
    let mut nanos = whole.checked_mul(scale).ok_or_else(invalid)?;
    // The fraction's digits past what a u64 holds add nothing.
    let (mut numerator, mut denominator) = (0u64, 1u64);
    for d in fraction.bytes().take(18) {
        numerator = numerator * 10 + (d - b'0') as u64;
        denominator *= 10;
    }
    let part = (numerator as u128 * scale as u128 / denominator as u128) as u64;
    nanos = nanos.checked_add(part).ok_or_else(invalid)?;
    if nanos > 1 << 63 {
        return Err(invalid());
    }
    Ok((nanos, rest))
}

/// Go's `Duration.String`: `1h0m0s`, `1m30s`, `1.5s`, `2ms`, `0s`.
///
/// ```
/// use bpvm_runtime::time::duration;
/// assert_eq!(duration::text(3_600_000_000_000), "1h0m0s");
/// assert_eq!(duration::text(1_500_000), "1.5ms");
/// assert_eq!(duration::text(-90_000_000_000), "-1m30s");
/// ```
pub fn text(d: i64) -> String {
    if d == 0 {
        return "0s".into();
    }
    let sign = if d < 0 { "-" } else { "" };
    let u = d.unsigned_abs();
    if u < 1_000_000_000 {
        let (digits, unit) = match u {
            0..1_000 => (0, "ns"),
            1_000..1_000_000 => (3, "µs"),
            _ => (6, "ms"),
        };
        return format!("{sign}{}{unit}", with_fraction(u, digits));
    }
    let seconds = with_fraction(u % 60_000_000_000, 9);
    let minutes = u / 60_000_000_000;
    match (minutes / 60, minutes % 60) {
        (0, 0) => format!("{sign}{seconds}s"),
        (0, m) => format!("{sign}{m}m{seconds}s"),
        (h, m) => format!("{sign}{h}h{m}m{seconds}s"),
    }
}

/// `v / 10^digits` with its fraction, trailing zeros dropped.
fn with_fraction(v: u64, digits: u32) -> String {
    let scale = 10u64.pow(digits);
    let (whole, fraction) = (v / scale, v % scale);
    if fraction == 0 {
        return whole.to_string();
    }
    let f = format!("{fraction:0width$}", width = digits as usize);
    format!("{whole}.{}", f.trim_end_matches('0'))
}

/// `d` in units of `unit` nanoseconds as a float, whole and remainder
/// apart so that large durations keep their precision (Go's `Hours`,
/// `Minutes`, `Seconds`).
pub fn in_units(d: i64, unit: i64) -> f64 {
    (d / unit) as f64 + (d % unit) as f64 / unit as f64
}

/// Go's `Duration.Truncate`: toward zero to a multiple of `m`.
pub fn truncate(d: i64, m: i64) -> i64 {
    if m <= 0 { d } else { d - d % m }
}

/// Go's `Duration.Round`: to the nearest multiple of `m`, halves away
/// from zero, held to the range at its ends.
pub fn round(d: i64, m: i64) -> i64 {
    if m <= 0 {
        return d;
    }
    let r = d % m;
    if d < 0 {
        let r = -r;
        if r + r < m {
            return d + r;
        }
        return d.checked_sub(m - r).unwrap_or(i64::MIN);
    }
    if r + r < m {
        return d - r;
    }
    d.checked_add(m - r).unwrap_or(i64::MAX)
}

/// Go's `Duration.Abs`: the minimum duration has no opposite and gives
/// the maximum.
pub fn abs(d: i64) -> i64 {
    d.checked_abs().unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_reads_every_unit_and_fractions() {
        assert_eq!(parse("1.5h"), Ok(5_400_000_000_000));
        assert_eq!(parse("300ms"), Ok(300_000_000));
        assert_eq!(parse("2h45m"), Ok(9_900_000_000_000));
        assert_eq!(parse("1µs1ns"), Ok(1_001));
        assert_eq!(parse(".5s"), Ok(500_000_000));
        assert!(parse("").is_err());
        assert!(parse("1x").unwrap_err().contains("unknown unit \"x\""));
        assert!(parse("9999999999h").is_err());
        assert_eq!(parse("-9223372036854775808ns"), Ok(i64::MIN));
    }

    #[test]
    fn text_matches_go() {
        assert_eq!(text(1), "1ns");
        assert_eq!(text(1_100), "1.1µs");
        assert_eq!(text(9_900_000_000_000), "2h45m0s");
        assert_eq!(text(1_500_000_000), "1.5s");
        assert_eq!(text(i64::MIN), "-2562047h47m16.854775808s");
    }
}
