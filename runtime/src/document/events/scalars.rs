//! Scalars written on one line: plain, single-quoted and double-quoted.

use super::lines::Line;
use saphyr_parser_bw::ScalarStyle;
use std::borrow::Cow;

/// Whether a plain scalar may start at byte `at` of `b`. Indicators are
/// left to the parser, and so are `?` and `:` (keys and values of forms
/// the scanner does not read).
pub(super) fn starts_plain(b: &[u8], at: usize) -> bool {
    match b.get(at) {
        None => false,
        Some(b'-') => !matches!(b.get(at + 1), None | Some(b' ' | b',' | b'[' | b']' | b'{' | b'}')),
        Some(
            b' ' | b'?' | b':' | b',' | b'[' | b']' | b'{' | b'}' | b'#' | b'&' | b'*' | b'!' | b'|' | b'>' | b'\''
            | b'"' | b'%' | b'@' | b'`',
        ) => false,
        Some(_) => true,
    }
}

/// What ended a plain scalar.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Stop {
    /// The end of the line.
    Line,
    /// A comment (` #`).
    Comment,
    /// A `:` followed by a space, the end of the line or (in flow) a bracket or comma.
    Colon,
    /// A bracket or comma, in flow.
    Flow,
    /// In flow, a word starting with `-` and a bracket or comma, which the
    /// parser refuses.
    Refused,
}

/// Reads a plain scalar from byte `at` of `b` (a line); `flow` when inside
/// brackets. Returns where its text ends (trailing spaces left out), where
/// reading stopped, and why.
pub(super) fn plain(b: &[u8], at: usize, flow: bool) -> (usize, usize, Stop) {
    let mut end = at;
    let mut i = at;
    let stop = loop {
        let Some(&c) = b.get(i) else { break Stop::Line };
        match c {
            b' ' => {
                i += 1;
                continue;
            }
            b'#' if i > at && b[i - 1] == b' ' => break Stop::Comment,
            b':' if match b.get(i + 1) {
                None | Some(b' ') => true,
                Some(b',' | b'[' | b']' | b'{' | b'}') => flow,
                Some(_) => false,
            } =>
            {
                break Stop::Colon;
            }
            b',' | b'[' | b']' | b'{' | b'}' if flow => break Stop::Flow,
            b'-' if flow
                && i > at
                && b[i - 1] == b' '
                && matches!(b.get(i + 1), Some(b',' | b'[' | b']' | b'{' | b'}')) =>
            {
                break Stop::Refused;
            }
            _ => {}
        }
        i += 1;
        end = i;
    };
    (end, i, stop)
}

/// Reads a quoted scalar whose opening quote is at byte `at` of `line`,
/// closed on the same line. Returns its value, style and where its span
/// ends: the parser's ends past the spaces (and a comment) after the
/// closing quote. `None` for escapes the scanner does not decode (`\x`,
/// `\u`, `\U`, anything unusual), a quote left open or a `#` right after it.
pub(super) fn quoted<'t>(line: &Line<'t>, at: usize) -> Option<(Cow<'t, str>, ScalarStyle, usize)> {
    let text = line.text;
    let b = text.as_bytes();
    let single = b.get(at) == Some(&b'\'');
    let from = at + 1;
    let mut owned: Option<String> = None;
    let mut run = from;
    let mut i = from;
    loop {
        let &c = b.get(i)?;
        if single && c == b'\'' {
            if b.get(i + 1) == Some(&b'\'') {
                let s = owned.get_or_insert_with(String::new);
                s.push_str(text.get(run..=i)?);
                i += 2;
                run = i;
                continue;
            }
            break;
        }
        if !single && c == b'"' {
            break;
        }
        if !single && c == b'\\' {
            let decoded = match b.get(i + 1)? {
                b'0' => '\0',
                b'a' => '\x07',
                b'b' => '\x08',
                b't' => '\t',
                b'n' => '\n',
                b'v' => '\x0b',
                b'f' => '\x0c',
                b'r' => '\r',
                b'e' => '\x1b',
                b' ' => ' ',
                b'"' => '"',
                b'/' => '/',
                b'\\' => '\\',
                b'N' => '\u{85}',
                b'_' => '\u{a0}',
                b'L' => '\u{2028}',
                b'P' => '\u{2029}',
                _ => return None,
            };
            let s = owned.get_or_insert_with(String::new);
            s.push_str(text.get(run..i)?);
            s.push(decoded);
            i += 2;
            run = i;
            continue;
        }
        i += 1;
    }
    let value = match owned {
        Some(mut s) => {
            s.push_str(text.get(run..i)?);
            Cow::Owned(s)
        }
        None => Cow::Borrowed(text.get(from..i)?),
    };
    let style = if single {
        ScalarStyle::SingleQuoted
    } else {
        ScalarStyle::DoubleQuoted
    };
    Some((value, style, line.skip_to_end(i + 1)?))
}
