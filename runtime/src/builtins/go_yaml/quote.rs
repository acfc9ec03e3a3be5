//! Which strings goccy/go-yaml v1.19.2 (Windsor's YAML library) quotes
//! when it writes them, and how: its `token.IsNeedQuoted` rules, and Go's
//! `strconv.Quote` for the quoted text.

/// Words a YAML reader could take for null or a bool (YAML 1.1's too).
const KEYWORDS: &[&str] = &[
    "null", "Null", "NULL", "~", "true", "True", "TRUE", "false", "False", "FALSE", "y", "Y", "yes", "Yes", "YES", "n",
    "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
];

/// Whether goccy writes `s` in double quotes.
pub fn needs_quotes(s: &str) -> bool {
    let (Some(first), Some(last)) = (s.bytes().next(), s.bytes().last()) else {
        return true;
    };
    if KEYWORDS.contains(&s) || s == "-" || numeral(s) {
        return true;
    }
    if b"*&[{}],!|>%'\"@ `".contains(&first) || matches!(last, b':' | b' ') || timestamp(s) {
        return true;
    }
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .any(|(i, &c)| matches!(c, b'#' | b'\\') || (matches!(c, b':' | b'-') && b.get(i + 1) == Some(&b' ')))
}

/// goccy's number test when writing: a numeral by its reading rules
/// (`go_number` in the documents), or one out of range (which it reads
/// as text but still quotes).
fn numeral(s: &str) -> bool {
    if s.starts_with('_') || s.bytes().filter(|&c| c == b'.').count() > 1 {
        return false;
    }
    let unsigned = s.strip_prefix('+').unwrap_or(s);
    let unsigned = unsigned.strip_prefix('-').unwrap_or(unsigned);
    let digits: String = unsigned.chars().filter(|&c| c != '_').collect();
    let (radix, digits) = match digits.as_bytes() {
        [b'0', b'x', ..] => (16, &digits[2..]),
        [b'0', b'o', ..] => (8, &digits[2..]),
        [b'0', b'b', ..] => (2, &digits[2..]),
        [b'0', _, ..] if !digits.contains('.') => (8, &digits[..]),
        _ if digits.contains('.') => return float_numeral(&digits),
        _ => (10, &digits[..]),
    };
    !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
}

/// Go's `ParseFloat` syntax (a range error still counts).
fn float_numeral(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    !lower.contains("inf") && !lower.contains("nan") && s.parse::<f64>().is_ok()
}

/// goccy's timestamp layouts: RFC 3339 (`T` or `t`, fraction optional),
/// `2006-01-02 15:04:05`, `2006-01-02`, and `15:4` (hour and minute of
/// one or two digits).
fn timestamp(s: &str) -> bool {
    if let Some((h, m)) = s.split_once(':')
        && small(h, 23)
        && small(m, 59)
    {
        return true;
    }
    let Some(rest) = date(s) else { return false };
    if rest.is_empty() {
        return true;
    }
    if let Some(t) = rest.strip_prefix(' ') {
        return time(t) == Some("");
    }
    let Some(t) = rest.strip_prefix(['T', 't']) else {
        return false;
    };
    let Some(mut zone) = time(t) else { return false };
    if let Some(frac) = zone.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return false;
        }
        zone = &frac[n..];
    }
    zone == "Z"
        || zone
            .strip_prefix(['+', '-'])
            .and_then(time_hm)
            .is_some_and(str::is_empty)
}

/// One or two digits at most `max`.
fn small(s: &str, max: u32) -> bool {
    (1..=2).contains(&s.len()) && s.bytes().all(|c| c.is_ascii_digit()) && s.parse::<u32>().is_ok_and(|n| n <= max)
}

/// `2006-01-02` at the start of `s` (a real day), and what follows.
fn date(s: &str) -> Option<&str> {
    let b = s.as_bytes();
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| {
        s.get(r)
            .filter(|d| d.bytes().all(|c| c.is_ascii_digit()))?
            .parse::<u32>()
            .ok()
    };
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        1..=12 => 31,
        _ => 0,
    };
    (1..=days).contains(&day).then(|| &s[10..])
}

/// `15:04:05` at the start of `s`, and what follows.
fn time(s: &str) -> Option<&str> {
    let rest = time_hm(s)?;
    let sec = rest.strip_prefix(':')?;
    let ok = sec
        .get(..2)
        .is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()) && d < "60");
    ok.then(|| &sec[2..])
}

/// `15:04` at the start of `s`, and what follows.
fn time_hm(s: &str) -> Option<&str> {
    let two = |d: Option<&str>, max: &str| d.is_some_and(|d| d.bytes().all(|c| c.is_ascii_digit()) && d <= max);
    let ok = two(s.get(..2), "23") && s.as_bytes().get(2) == Some(&b':') && two(s.get(3..5), "59");
    ok.then(|| &s[5..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_goccy_quotes() {
        for s in [
            "",
            "true",
            "yes",
            "n",
            "~",
            "1.0",
            "0x1F",
            "012",
            "1_000",
            "+1",
            "-1",
            ".5",
            "0o17",
            "1.0e400",
            "99999999999999999999",
            "-",
            " a",
            "a ",
            "a:",
            "@x",
            "`x",
            "a #b",
            "a\\b",
            "a: b",
            "- x",
            "12:30",
            "1:2",
            "2026-01-01",
            "2006-01-02 15:04:05",
            "2001-12-14t21:59:43.10-05:00",
            "2026-01-01T00:00:00Z",
        ] {
            assert!(needs_quotes(s), "{s}");
        }
    }

    #[test]
    fn what_goccy_leaves_plain() {
        for s in [
            "10.0.0.1",
            "1e3",
            "1e400",
            ".inf",
            "NaN",
            "x:y",
            "?x",
            "a,b",
            "=",
            "<<",
            "v1.2",
            "${x}",
            "été",
            "2026-02-30",
            "24:00",
            "a\u{1}b",
            "https://x.y/z",
            "line1\nline2",
        ] {
            assert!(!needs_quotes(s), "{s}");
        }
    }
}
