//! Durations as Windsor prints them: a kustomization's `interval`,
//! `retryInterval` and `timeout` are Go `time.Duration`s in Windsor, read
//! with `time.ParseDuration` and printed with `Duration.String()`, so
//! `5m` prints as `5m0s` and `90m` as `1h30m0s`.

/// Nanoseconds per unit, by the unit names Go's parser knows.
const UNITS: &[(&str, u64)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("\u{b5}s", 1_000),
    ("\u{3bc}s", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
];

/// `text` as Go's `Duration.String()` prints it, or `None` when it is not
/// a duration `time.ParseDuration` reads (Windsor refuses such a file;
/// bpvm leaves the text as written).
///
/// ```
/// use bpvm_windsor::output::go_duration;
/// assert_eq!(go_duration("5m").as_deref(), Some("5m0s"));
/// assert_eq!(go_duration("1.5h").as_deref(), Some("1h30m0s"));
/// assert_eq!(go_duration("soon"), None);
/// ```
pub fn go_duration(text: &str) -> Option<String> {
    parse(text).map(|(negative, ns)| print(negative, ns))
}

/// Go's `time.ParseDuration`: the sign and the magnitude in nanoseconds.
fn parse(text: &str) -> Option<(bool, u64)> {
    let (negative, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Some((false, 0));
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let (ns, after) = component(rest)?;
        total = total.checked_add(ns)?;
        rest = after;
    }
    let limit = if negative { 1u64 << 63 } else { (1u64 << 63) - 1 };
    (total <= limit).then_some((negative, total))
}

/// One `<number><unit>` of a duration, in nanoseconds, and the text after.
fn component(text: &str) -> Option<(u64, &str)> {
    let digits = |s: &str| s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
    let whole_len = digits(text);
    let mut whole: u64 = 0;
    for d in text[..whole_len].bytes() {
        whole = whole.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
    }
    let mut rest = &text[whole_len..];
    let (mut fraction, mut scale) = (0u64, 1f64);
    let has_fraction = rest.starts_with('.');
    if has_fraction {
        rest = &rest[1..];
        let len = digits(rest);
        for d in rest[..len].bytes() {
            // Go stops adding digits once the fraction would overflow.
            if let Some(f) = fraction
                .checked_mul(10)
                .and_then(|f| f.checked_add(u64::from(d - b'0')))
            {
                fraction = f;
                scale *= 10.0;
            }
        }
        if whole_len == 0 && len == 0 {
            return None;
        }
        rest = &rest[len..];
    } else if whole_len == 0 {
        return None;
    }
    let unit_len = rest
        .find(|c: char| c == '.' || c.is_ascii_digit())
        .unwrap_or(rest.len());
    let unit = UNITS.iter().find(|(name, _)| *name == &rest[..unit_len])?.1;
    let mut ns = whole.checked_mul(unit)?;
    if fraction > 0 {
        // As Go computes it: through a float, truncated.
        ns = ns.checked_add((fraction as f64 * (unit as f64 / scale)) as u64)?;
    }
    Some((ns, &rest[unit_len..]))
}

/// Go's `Duration.String()` of a duration of `ns` nanoseconds.
fn print(negative: bool, ns: u64) -> String {
    let sign = if negative && ns > 0 { "-" } else { "" };
    if ns == 0 {
        return "0s".into();
    }
    if ns < 1_000_000_000 {
        let (unit, per) = match ns {
            n if n < 1_000 => ("ns", 1),
            n if n < 1_000_000 => ("\u{b5}s", 1_000),
            _ => ("ms", 1_000_000),
        };
        return format!("{sign}{}{unit}", decimal(ns, per));
    }
    let (hours, minutes) = (ns / 3_600_000_000_000, ns / 60_000_000_000 % 60);
    let seconds = decimal(ns % 60_000_000_000, 1_000_000_000);
    match (hours, minutes) {
        (0, 0) => format!("{sign}{seconds}s"),
        (0, m) => format!("{sign}{m}m{seconds}s"),
        (h, m) => format!("{sign}{h}h{m}m{seconds}s"),
    }
}

/// `n / per` with its fraction, trailing zeros dropped.
fn decimal(n: u64, per: u64) -> String {
    let (whole, part) = (n / per, n % per);
    if part == 0 {
        return whole.to_string();
    }
    let width = per.to_string().len() - 1;
    let digits = format!("{part:0width$}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::go_duration;

    #[test]
    fn prints_as_go_does() {
        for (text, go) in [
            ("5m", "5m0s"),
            ("1h", "1h0m0s"),
            ("90m", "1h30m0s"),
            ("30s", "30s"),
            ("1m30s", "1m30s"),
            ("2h45m", "2h45m0s"),
            ("1.5s", "1.5s"),
            ("500ms", "500ms"),
            ("1500ms", "1.5s"),
            ("2us", "2\u{b5}s"),
            ("1\u{3bc}s", "1\u{b5}s"),
            ("7ns", "7ns"),
            ("0", "0s"),
            ("0s", "0s"),
            ("-5m", "-5m0s"),
            ("+5m", "5m0s"),
            ("1h0m0s", "1h0m0s"),
            (".5h", "30m0s"),
            ("5.m", "5m0s"),
            ("25h", "25h0m0s"),
        ] {
            assert_eq!(go_duration(text).as_deref(), Some(go), "{text}");
        }
    }

    #[test]
    fn text_go_does_not_read_is_none() {
        for text in [
            "",
            "5",
            "m",
            "5 m",
            "5mm",
            "five",
            "-",
            ".s",
            "5m ",
            "1d",
            "9999999999999999999h",
        ] {
            assert_eq!(go_duration(text), None, "{text}");
        }
    }
}
