//! Upper and lower case, for both dialects (`upper`/`lower`,
//! `to_upper`/`to_lower`).

use crate::func::Ctx;
use crate::val::Val;

/// `s` in upper case, rune by rune as Go's `strings.ToUpper`.
pub fn upper<'a>(c: &Ctx<'a>, s: &'a str) -> Val<'a> {
    recase::<true>(c, s)
}

/// `s` in lower case, rune by rune as Go's `strings.ToLower`.
pub fn lower<'a>(c: &Ctx<'a>, s: &'a str) -> Val<'a> {
    recase::<false>(c, s)
}

/// `s` in upper case (`UPPER`) or lower case. Called once per item by
/// Bluelink's `map` and expr-lang's predicates, so ASCII text (nearly all names in blueprints) is converted in the
/// arena without a heap string, and text already in that case is returned
/// as it is.
fn recase<'a, const UPPER: bool>(c: &Ctx<'a>, s: &'a str) -> Val<'a> {
    let changes = |b: &u8| {
        if UPPER {
            b.is_ascii_lowercase()
        } else {
            b.is_ascii_uppercase()
        }
    };
    if !s.is_ascii() {
        let map = if UPPER { go_upper } else { go_lower };
        return c.str(&s.chars().map(map).collect::<String>());
    }
    let Some(first) = s.as_bytes().iter().position(changes) else {
        return Val::Str(s);
    };
    let out = c.arena.alloc_str(s);
    if UPPER {
        out[first..].make_ascii_uppercase();
    } else {
        out[first..].make_ascii_lowercase();
    }
    Val::Str(out)
}

/// Go's `unicode.ToUpper`: the simple (one rune to one rune) mapping of
/// Unicode's character data. Rust's `char::to_uppercase` is the full
/// mapping; where that gives more than one char (`ß` → `SS`, `ﬁ` → `FI`),
/// the simple mapping keeps the char, except for the Greek letters with
/// iota subscript, whose simple upper case is their title-case form.
fn go_upper(ch: char) -> char {
    let mut full = ch.to_uppercase();
    if let (Some(one), None) = (full.next(), full.next()) {
        return one;
    }
    let iota_title = match ch as u32 {
        c @ (0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7) => c + 8,
        0x1FB3 => 0x1FBC,
        0x1FC3 => 0x1FCC,
        0x1FF3 => 0x1FFC,
        _ => return ch,
    };
    char::from_u32(iota_title).unwrap_or(ch)
}

/// Go's `unicode.ToLower`: the simple mapping, and no final-sigma rule
/// (`ΣΑΣ` → `σασ`). The one char whose full lower case is longer, `İ`,
/// is `i` in the simple mapping.
fn go_lower(ch: char) -> char {
    let mut full = ch.to_lowercase();
    match (full.next(), full.next()) {
        (Some(one), None) => one,
        _ if ch == '\u{130}' => 'i',
        _ => ch,
    }
}

#[cfg(test)]
mod tests {
    use super::{go_lower, go_upper};

    fn upper(s: &str) -> String {
        s.chars().map(go_upper).collect()
    }

    fn lower(s: &str) -> String {
        s.chars().map(go_lower).collect()
    }

    #[test]
    fn upper_keeps_chars_without_a_one_rune_mapping() {
        assert_eq!(upper("straße"), "STRAßE");
        assert_eq!(upper("ﬁŉǰ"), "ﬁŉǰ");
        assert_eq!(upper("ᾳᾀᾈ"), "ᾼᾈᾈ");
        assert_eq!(upper("ǆǅ"), "ǄǄ");
    }

    #[test]
    fn lower_is_simple_and_has_no_final_sigma() {
        assert_eq!(lower("İ"), "i");
        assert_eq!(lower("ΣΑΣ"), "σασ");
        assert_eq!(lower("ẞᾈ"), "ßᾀ");
    }
}
