//! The parser's errors in bpvm's words, placed where the trouble is.

use super::place::{At, at_byte, too_deep};
use crate::bounds::limits::VALUE_DEPTH;
use saphyr_parser_bw::{Marker, ScanError};

/// The parser's error in bpvm's words; `last_end` is where the last
/// event read ends, `opens` the lists and maps in brackets being read.
pub(super) fn scan_words(
    text: &str,
    last_end: &Marker,
    opens: impl Iterator<Item = (u8, At)>,
    e: &ScanError,
) -> String {
    let read_up_to = last_end.byte_offset().unwrap_or(0);
    // The parser reads ahead of the events it gives, and words some
    // errors in brackets as other errors: a list or map in brackets
    // nested past the limit before the error is reported as too deep,
    // where it first went past the limit, and a bracket closed by the
    // other kind up to the end of the error's line as such.
    if let Some(end) = e.marker().byte_offset()
        && let Some(trouble) = flow_trouble(text, opens, read_up_to, end)
    {
        return trouble;
    }
    let mut at = At::of(e.marker());
    let message = match e.info() {
        "recursion limit exceeded" => return too_deep(at.line, at.col),
        "while parsing node, found unknown anchor" => "alias references unknown anchor",
        info @ ("simple key expect ':'" | "simple key expected ':'" | "simple key expected") => {
            // The parser finds out on a later line: name the text
            // that wants a ':', the first after the last value read.
            at = at_byte(text, last_end, next_token(text, read_up_to));
            if info == "simple key expect ':'" {
                "simple key expected ':'"
            } else {
                info
            }
        }
        "':' must be followed by a valid YAML whitespace" => "':' must be followed by a space here, not a tab",
        // The parser names double quotes for both kinds.
        "invalid trailing content after double-quoted scalar" if quoted_before(text, e.marker()) == Some(b'\'') => {
            "invalid trailing content after single-quoted scalar"
        }
        info => info,
    };
    format!("{}:{}: {message}", at.line, at.col)
}

/// The first of these in brackets from byte `from` on: a `[` or `{`
/// more than [`VALUE_DEPTH`] brackets deep before byte `to`, or a
/// bracket closed by the other kind before the end of the line of
/// `to`. Brackets open in the values being read (`opens`) count; quoted text
/// and comments are skipped.
fn flow_trouble(text: &str, opens: impl Iterator<Item = (u8, At)>, from: usize, to: usize) -> Option<String> {
    let line_end = text
        .get(to..)
        .map_or(text.len(), |rest| to + rest.find('\n').unwrap_or(rest.len()));
    let bytes = text.as_bytes().get(from..line_end)?;
    let mut open: Vec<(u8, At)> = opens.collect();
    let place = |i: usize| {
        let (line, col) = line_col(text, from + i);
        At { line, col }
    };
    let mut i = 0;
    let mut prev = b' ';
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'[' | b'{' => {
                open.push((b, place(i)));
                if open.len() > VALUE_DEPTH && from + i < to {
                    let at = place(i);
                    return Some(too_deep(at.line, at.col));
                }
            }
            b']' | b'}' => {
                if let Some((opened, at)) = open.pop()
                    && opened != if b == b']' { b'[' } else { b'{' }
                {
                    return Some(format!(
                        "{}:{}: mismatched bracket '{}' closed by '{}'",
                        at.line, at.col, opened as char, b as char
                    ));
                }
            }
            b'\'' | b'"' if matches!(prev, b' ' | b'\t' | b'\n' | b'\r' | b'[' | b'{' | b',' | b':') => {
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' if b == b'"' => i += 1,
                        q if q == b => {
                            if b == b'\'' && bytes.get(i + 1) == Some(&b'\'') {
                                i += 1;
                            } else {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            b'#' if matches!(prev, b' ' | b'\t' | b'\n' | b'\r') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => {}
        }
        prev = bytes.get(i).copied().unwrap_or(b' ');
        i += 1;
    }
    None
}

/// Where the first token at or after byte `from` starts that is not an
/// indicator (`:`, `-`, `?`): spaces, line breaks and comments skipped.
fn next_token(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let blank = |i: usize| bytes.get(i).is_none_or(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'));
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b':' | b'-' | b'?' if blank(i + 1) => i += 1,
            b'#' if i == 0 || blank(i - 1) => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// The last character before `at` other than a space or tab.
fn quoted_before(text: &str, at: &Marker) -> Option<u8> {
    let before = text.as_bytes().get(..at.byte_offset()?)?;
    before.iter().rev().find(|&&b| b != b' ' && b != b'\t').copied()
}

/// Line and column (both from 1, the column in characters) of byte `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.bytes().filter(|&b| b == b'\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}
