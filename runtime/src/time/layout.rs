//! Go's layout strings: text in which parts of the reference time
//! `Mon Jan 2 15:04:05 MST 2006` stand for the parts of a time. A layout
//! is read as literal text and [`Element`]s, as Go's `time` package does.

/// One part of the reference time in a layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// `January`
    LongMonth,
    /// `Jan`
    Month,
    /// `1`
    NumMonth,
    /// `01`
    ZeroMonth,
    /// `Monday`
    LongWeekday,
    /// `Mon`
    Weekday,
    /// `2`
    Day,
    /// `_2`
    UnderDay,
    /// `02`
    ZeroDay,
    /// `__2`
    UnderYearDay,
    /// `002`
    ZeroYearDay,
    /// `15`
    Hour,
    /// `3`
    Hour12,
    /// `03`
    ZeroHour12,
    /// `4`
    Minute,
    /// `04`
    ZeroMinute,
    /// `5`
    Second,
    /// `05`
    ZeroSecond,
    /// `2006`
    LongYear,
    /// `06`
    Year,
    /// `PM`
    Pm,
    /// `pm`
    LowerPm,
    /// `MST`
    ZoneName,
    /// `-0700`, `-07:00`, `-07`, `-070000`, `-07:00:00`; with `iso`
    /// (`Z0700` …) UTC is written `Z`.
    Offset {
        /// The `Z` forms.
        iso: bool,
        /// Minutes shown.
        minutes: bool,
        /// Seconds shown.
        seconds: bool,
        /// Parts apart by `:`.
        colons: bool,
    },
    /// `.000` (fixed digits) or `.999` (trailing zeros dropped), `,`
    /// for `.` too; `digits` is how many.
    Fraction {
        /// The digits.
        digits: u8,
        /// The `9` form.
        trim: bool,
        /// The separator, `.` or `,`.
        comma: bool,
    },
}

/// The layout element at the start of `s` and its length, if one starts there.
fn element_at(s: &str) -> Option<(Element, usize)> {
    use Element::*;
    const WORDS: &[(&str, Element)] = &[
        ("January", LongMonth),
        ("Jan", Month),
        ("Monday", LongWeekday),
        ("Mon", Weekday),
        ("MST", ZoneName),
        ("2006", LongYear),
        ("002", ZeroYearDay),
        ("01", ZeroMonth),
        ("02", ZeroDay),
        ("03", ZeroHour12),
        ("04", ZeroMinute),
        ("05", ZeroSecond),
        ("06", Year),
        ("15", Hour),
        ("1", NumMonth),
        ("2", Day),
        ("__2", UnderYearDay),
        ("_2", UnderDay),
        ("3", Hour12),
        ("4", Minute),
        ("5", Second),
        ("PM", Pm),
        ("pm", LowerPm),
    ];
    if s.starts_with("_2006") {
        // A literal `_` before the year, as in Go.
        return None;
    }
    if let Some(found) = offset_at(s) {
        return Some(found);
    }
    if let Some(found) = fraction_at(s) {
        return Some(found);
    }
    WORDS.iter().find(|(w, _)| s.starts_with(w)).map(|(w, e)| (*e, w.len()))
}

fn offset_at(s: &str) -> Option<(Element, usize)> {
    const FORMS: &[(&str, bool, bool, bool)] = &[
        ("07:00:00", true, true, true),
        ("070000", true, true, false),
        ("07:00", true, false, true),
        ("0700", true, false, false),
        ("07", false, false, false),
    ];
    let (iso, rest) = match s.as_bytes().first() {
        Some(b'Z') => (true, &s[1..]),
        Some(b'-') => (false, &s[1..]),
        _ => return None,
    };
    let (form, minutes, seconds, colons) = FORMS.iter().find(|(f, ..)| rest.starts_with(f))?;
    let e = Element::Offset {
        iso,
        minutes: *minutes,
        seconds: *seconds,
        colons: *colons,
    };
    Some((e, 1 + form.len()))
}

fn fraction_at(s: &str) -> Option<(Element, usize)> {
    let b = s.as_bytes();
    let comma = match b.first() {
        Some(b'.') => false,
        Some(b',') => true,
        _ => return None,
    };
    let digit = *b.get(1).filter(|d| **d == b'0' || **d == b'9')?;
    let n = b[1..].iter().take_while(|d| **d == digit).count();
    if b.get(1 + n).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let e = Element::Fraction {
        digits: n.min(9) as u8,
        trim: digit == b'9',
        comma,
    };
    Some((e, 1 + n))
}

/// The next piece of `layout`: literal text before the next element, the
/// element (if any), and what follows it.
pub fn next(layout: &str) -> (&str, Option<Element>, &str) {
    for (i, _) in layout.char_indices() {
        if let Some((e, len)) = element_at(&layout[i..]) {
            return (&layout[..i], Some(e), &layout[i + len..]);
        }
    }
    (layout, None, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_split_into_text_and_elements() {
        assert_eq!(next("2006-01-02"), ("", Some(Element::LongYear), "-01-02"));
        assert_eq!(next("-01-02"), ("-", Some(Element::ZeroMonth), "-02"));
        assert_eq!(next("T15:04"), ("T", Some(Element::Hour), ":04"));
        assert_eq!(next("_2006"), ("_", Some(Element::LongYear), ""));
        let (_, e, rest) = next("Z07:00");
        assert_eq!(
            (e, rest),
            (
                Some(Element::Offset {
                    iso: true,
                    minutes: true,
                    seconds: false,
                    colons: true
                }),
                ""
            )
        );
        let (_, e, _) = next(".999999999");
        assert_eq!(
            e,
            Some(Element::Fraction {
                digits: 9,
                trim: true,
                comma: false
            })
        );
    }
}
