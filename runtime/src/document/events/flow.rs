//! Flow collections (`[a, b]`, `{k: v}`) opened and closed on one line.

use super::lines::Line;
use super::scalars::{Stop, plain, quoted, starts_plain};
use super::scanned::{KEY_LENGTH, MAX_DEPTH, Scanned};
use saphyr_parser_bw::{Event, ScalarStyle};

/// Where a collection being read is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Just opened: an entry or the closing bracket.
    First,
    /// After a comma: an entry.
    Entry,
    /// After an entry: a comma or the closing bracket.
    AfterEntry,
    /// After a key of a mapping: its `: `.
    AfterKey,
    /// After a key's `: `: its value.
    Value,
}

struct Open {
    map: bool,
    state: State,
    /// Where the last key of a mapping starts.
    key: usize,
}

/// Reads the flow collection whose `[` or `{` is at byte `at` of `line`,
/// `depth` collections deep, pushing its events to `out`. Returns the byte
/// the parser's scanner reaches after the closing bracket (past spaces and
/// a comment); `None` for anything the scanner leaves to the parser: more
/// than one line, empty entries or values, a trailing comma, keys that are
/// not scalars, pairs inside sequences.
pub(super) fn collection<'t>(line: &Line<'t>, at: usize, depth: usize, out: &mut Scanned<'t>) -> Option<usize> {
    let b = line.text.as_bytes();
    let mut stack: Vec<Open> = Vec::new();
    let mut i = at;
    open(line, &mut i, depth, &mut stack, out)?;
    loop {
        let top = stack.last_mut()?;
        let c = *b.get(i)?;
        let close = if top.map { b'}' } else { b']' };
        match top.state {
            State::First | State::AfterEntry if c == close => {
                let end = line.skip_to_end(i + 1)?;
                out.push((
                    if top.map { Event::MappingEnd } else { Event::SequenceEnd },
                    line.span(i, end),
                ));
                stack.pop();
                i = end;
                if stack.is_empty() {
                    return Some(i);
                }
            }
            State::AfterEntry if c == b',' => {
                i = line.skip_to_end(i + 1)?;
                top.state = State::Entry;
            }
            State::AfterKey if c == b':' && b.get(i + 1) == Some(&b' ') && i - top.key <= KEY_LENGTH => {
                i = line.skip_spaces(i + 1);
                top.state = State::Value;
            }
            State::First | State::Entry | State::Value => {
                let key = top.map && top.state != State::Value;
                top.state = if key { State::AfterKey } else { State::AfterEntry };
                if key {
                    top.key = i;
                }
                match c {
                    b'[' | b'{' if !key => open(line, &mut i, depth, &mut stack, out)?,
                    b'"' | b'\'' => {
                        let (value, style, end) = quoted(line, i)?;
                        out.push((Event::Scalar(value, style, 0, None), line.span(i, end)));
                        i = end;
                    }
                    _ if starts_plain(b, i) => {
                        let (end, stop, why) = plain(b, i, true);
                        if !matches!(why, Stop::Colon | Stop::Flow) {
                            return None;
                        }
                        let value = line.text.get(i..end)?;
                        out.push((
                            Event::Scalar(value.into(), ScalarStyle::Plain, 0, None),
                            line.span(i, end),
                        ));
                        i = stop;
                    }
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

/// Opens the collection at byte `*at`, moving past its bracket.
fn open<'t>(line: &Line<'t>, at: &mut usize, depth: usize, stack: &mut Vec<Open>, out: &mut Scanned<'t>) -> Option<()> {
    if depth + stack.len() >= MAX_DEPTH {
        return None;
    }
    let map = line.text.as_bytes().get(*at) == Some(&b'{');
    let end = line.skip_to_end(*at + 1)?;
    if end >= line.text.len() {
        return None;
    }
    out.push((
        if map {
            Event::MappingStart(0, None)
        } else {
            Event::SequenceStart(0, None)
        },
        line.span(*at, end),
    ));
    stack.push(Open {
        map,
        state: State::First,
        key: *at,
    });
    *at = end;
    Some(())
}
