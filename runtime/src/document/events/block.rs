//! The block structure: mappings and sequences laid out by indentation,
//! read a line at a time.

use super::block_scalar::{BlockScalar, Fed};
use super::flow;
use super::lines::{Line, plain_characters};
use super::scalars::{Stop, plain, quoted, starts_plain};
use super::scanned::{KEY_LENGTH, MAX_DEPTH, Scanned};
use saphyr_parser_bw::{Event, Marker, ScalarStyle, Span};
use std::borrow::Cow;

/// Longest text the scanner reads. It holds every event of a text at once
/// (184 bytes each, where the parser streams them): at 4 MiB a blueprint
/// of 7,800 resources peaked at 105 MB against the parser's 67 MB. At
/// 1 MiB that memory is at most about 10 MB, and every template and the
/// 1,000-resource benchmark blueprint (0.5 MB) are still scanned.
pub(crate) const TEXT_LIMIT: usize = 1 << 20;

/// Longest line with characters of more than one byte the scanner reads:
/// it counts such a line's columns from its start for every token.
const WIDE_LINE: usize = 4096;

/// A block collection being read.
struct Block {
    /// Its column.
    indent: usize,
    map: bool,
    /// A sequence whose `-` stand in the column of its mapping's keys.
    indentless: bool,
}

/// A value left out so far: `key:` or `-` ending its line. The next line
/// says whether it is a collection below it or an empty scalar.
#[derive(Clone, Copy)]
enum Pending {
    /// After a key of the mapping at `indent`; the parser puts an empty
    /// value at the `:`.
    Value { indent: usize, colon: Span },
    /// After a `-` of the sequence at `indent`; the parser puts an empty
    /// item after the `-` and whatever spaces and comment follow it.
    Item { indent: usize, entry: Span },
}

struct Scanner<'t> {
    out: Scanned<'t>,
    stack: Vec<Block>,
    pending: Option<Pending>,
    /// The span of a `---` that opened the document.
    explicit: Option<Span>,
    /// The root collection has been opened.
    started: bool,
    /// The sequence just opened is indentless: its start is announced at
    /// its first item.
    announce_indentless: bool,
    /// A block scalar whose header has been read, taking the lines after it.
    block_scalar: Option<BlockScalar>,
}

/// The events of `text` when it is all block YAML of the form the scanner
/// reads, `None` as soon as it meets anything else.
pub(super) fn scan(text: &str) -> Option<Scanned<'_>> {
    if text.len() > TEXT_LIMIT {
        return None;
    }
    let mut s = Scanner {
        // About one event for every eight bytes of a template.
        out: Vec::with_capacity((text.len() / 8).min(1 << 16) + 8),
        stack: Vec::new(),
        pending: None,
        explicit: None,
        started: false,
        announce_indentless: false,
        block_scalar: None,
    };
    s.out.push((
        Event::StreamStart,
        Span::empty(Marker::new(0, 1, 0).with_byte_offset(Some(0))),
    ));
    let (mut start, mut number, mut chars_before) = (0, 1, 0);
    loop {
        let end = text[start..].find('\n').map_or(text.len(), |k| start + k);
        let t = &text[start..end];
        let ascii = plain_characters(t)?;
        if !ascii && t.len() > WIDE_LINE {
            return None;
        }
        let line = Line {
            text: t,
            number,
            start,
            chars_before,
            ascii,
        };
        s.next_line(&line)?;
        chars_before += if ascii { t.len() } else { t.chars().count() };
        if end == text.len() {
            // The parser ends the stream at the start of a line, moving to
            // the next one when the text does not end with a line break.
            if s.block_scalar.is_some() && !t.is_empty() && t.bytes().all(|c| c == b' ') {
                // The parser reads spaces ending the text differently there.
                return None;
            }
            let next = if t.is_empty() { number } else { number + 1 };
            let stream_end = Marker::new(chars_before, next, 0).with_byte_offset(Some(text.len()));
            s.finish(line.mark(t.len()), stream_end)?;
            return Some(s.out);
        }
        chars_before += 1;
        start = end + 1;
        number += 1;
    }
}

/// The event of a value left out.
fn empty<'t>(at: Span) -> (Event<'t>, Span) {
    (Event::Scalar(Cow::Borrowed("~"), ScalarStyle::Plain, 0, None), at)
}

impl<'t> Scanner<'t> {
    /// Reads a line: into the block scalar being read, unless the line ends it.
    fn next_line(&mut self, line: &Line<'t>) -> Option<()> {
        if let Some(scalar) = &mut self.block_scalar {
            match scalar.feed(line)? {
                Fed::Taken => return Some(()),
                Fed::Ends(at) => {
                    let event = self.block_scalar.take()?.finish(line.mark(at))?;
                    self.out.push(event);
                }
            }
        }
        self.line(line)
    }

    /// Reads a line outside block scalars: empty, a comment, the `---`, a
    /// key or an item, after closing what its indentation closes.
    fn line(&mut self, line: &Line<'t>) -> Option<()> {
        let b = line.text.as_bytes();
        let ind = b.iter().take_while(|&&c| c == b' ').count();
        if matches!(b.get(ind), None | Some(b'#')) {
            return Some(());
        }
        if ind == 0 && (b.starts_with(b"---") || b.starts_with(b"...")) && matches!(b.get(3), None | Some(b' ')) {
            // Only a `---` opening the one document.
            if b[0] == b'-' && !self.started && self.explicit.is_none() && line.ends_at(3) {
                self.explicit = Some(line.span(0, 3));
                return Some(());
            }
            return None;
        }
        let entry = b[ind] == b'-' && matches!(b.get(ind + 1), None | Some(b' '));
        let opened = match self.pending.take() {
            None if !self.started => {
                if ind != 0 {
                    return None;
                }
                self.started = true;
                let start = match self.explicit {
                    Some(span) => (Event::DocumentStart(true), span),
                    None => (Event::DocumentStart(false), line.point(ind)),
                };
                self.out.push(start);
                self.open(line, ind, !entry, false)?;
                true
            }
            None => {
                // A value ended the last line: anything further right would
                // continue it.
                if ind > self.stack.last()?.indent {
                    return None;
                }
                false
            }
            Some(Pending::Value { indent, colon }) => {
                if ind > indent {
                    self.open(line, ind, !entry, false)?;
                    true
                } else if ind == indent && entry {
                    self.open(line, ind, false, true)?;
                    true
                } else {
                    self.out.push(empty(colon));
                    false
                }
            }
            Some(Pending::Item { indent, entry: at }) => {
                if ind > indent {
                    self.open(line, ind, !entry, false)?;
                    true
                } else {
                    self.out.push(empty(at));
                    false
                }
            }
        };
        if !opened {
            let here = line.point(ind);
            while self.stack.last()?.indent > ind {
                self.close(here)?;
            }
            let top = self.stack.last()?;
            if top.indentless && top.indent == ind && !entry {
                self.close(here)?;
            }
            let top = self.stack.last()?;
            if top.indent != ind || top.map == entry {
                return None;
            }
        }
        if entry {
            self.entry(line, ind)
        } else {
            self.key(line, ind)
        }
    }

    /// Opens a collection whose first key or `-` is at byte `at`.
    fn open(&mut self, line: &Line<'t>, at: usize, map: bool, indentless: bool) -> Option<()> {
        if self.stack.len() >= MAX_DEPTH {
            return None;
        }
        let indent = line.mark(at).col();
        self.stack.push(Block {
            indent,
            map,
            indentless,
        });
        if indentless {
            self.announce_indentless = true;
        } else if map {
            self.out.push((Event::MappingStart(0, None), line.point(at)));
        } else {
            self.out.push((Event::SequenceStart(0, None), line.point(at)));
        }
        Some(())
    }

    /// Closes the innermost collection where the next token starts.
    fn close(&mut self, at: Span) -> Option<()> {
        let block = self.stack.pop()?;
        let end = if block.map {
            Event::MappingEnd
        } else {
            Event::SequenceEnd
        };
        self.out.push((end, at));
        Some(())
    }

    /// An item of a sequence, its `-` at byte `at`.
    fn entry(&mut self, line: &Line<'t>, at: usize) -> Option<()> {
        let after = line.skip_to_end(at + 1)?;
        let mark = line.point(after);
        if std::mem::take(&mut self.announce_indentless) {
            self.out.push((Event::SequenceStart(0, None), mark));
        }
        if after == line.text.len() {
            self.pending = Some(Pending::Item {
                indent: line.mark(at).col(),
                entry: mark,
            });
            return Some(());
        }
        let b = line.text.as_bytes();
        if b[after] == b'-' && matches!(b.get(after + 1), None | Some(b' ')) {
            return None;
        }
        if is_key(line, after) {
            // A mapping in the item (`- key: value`), its keys in this column.
            self.open(line, after, true, false)?;
            return self.key(line, after);
        }
        self.value(line, after)
    }

    /// A key of a mapping, at byte `at`, and its value if on the same line.
    fn key(&mut self, line: &Line<'t>, at: usize) -> Option<()> {
        let (value, style, end, colon) = key_at(line, at)?;
        let col = line.mark(at).col();
        self.out.push((
            Event::Scalar(value, style, 0, None),
            line.span(at, end).with_indent(Some(col)),
        ));
        let after = line.skip_to_end(colon + 1)?;
        if after == line.text.len() {
            self.pending = Some(Pending::Value {
                indent: col,
                colon: line.point(colon),
            });
            return Some(());
        }
        self.value(line, after)
    }

    /// A value filling the rest of the line from byte `at`.
    fn value(&mut self, line: &Line<'t>, at: usize) -> Option<()> {
        let b = line.text.as_bytes();
        match b.get(at)? {
            b'"' | b'\'' => {
                let (value, style, end) = quoted(line, at)?;
                self.out
                    .push((Event::Scalar(value, style, 0, None), line.span(at, end)));
                (end == line.text.len()).then_some(())
            }
            b'[' | b'{' => {
                let end = flow::collection(line, at, self.stack.len(), &mut self.out)?;
                (end == line.text.len()).then_some(())
            }
            b'|' | b'>' => {
                self.block_scalar = Some(BlockScalar::new(line, at, self.stack.last()?.indent)?);
                Some(())
            }
            _ if starts_plain(b, at) => {
                let (end, _, why) = plain(b, at, false);
                if why == Stop::Colon {
                    return None;
                }
                let value = line.text.get(at..end)?;
                self.out.push((
                    Event::Scalar(Cow::Borrowed(value), ScalarStyle::Plain, 0, None),
                    line.span(at, end),
                ));
                Some(())
            }
            _ => None,
        }
    }

    /// Ends the document at the end of the text (`last`, on its last line)
    /// and the stream where the parser ends it (`end`).
    fn finish(&mut self, last: Marker, end: Marker) -> Option<()> {
        if !self.started || self.announce_indentless {
            return None;
        }
        if let Some(scalar) = self.block_scalar.take() {
            self.out.push(scalar.finish(last)?);
        }
        let at = Span::empty(end);
        match self.pending.take() {
            Some(Pending::Value { colon, .. }) => self.out.push(empty(colon)),
            Some(Pending::Item { entry, .. }) => self.out.push(empty(entry)),
            None => {}
        }
        // Collections right of where the text ends close there, before
        // the parser moves on to a new line; the others close after it.
        while let Some(block) = self.stack.last() {
            let here = if block.indent > last.col() {
                Span::empty(last)
            } else {
                at
            };
            self.close(here)?;
        }
        self.out.push((Event::DocumentEnd, at));
        self.out.push((Event::StreamEnd, at));
        Some(())
    }
}

/// A key at byte `at`: its value, style, where it ends and where its `:` is.
fn key_at<'t>(line: &Line<'t>, at: usize) -> Option<(Cow<'t, str>, ScalarStyle, usize, usize)> {
    let b = line.text.as_bytes();
    let found = match b.get(at)? {
        b'"' | b'\'' => {
            let (value, style, end) = quoted(line, at)?;
            if b.get(end) != Some(&b':') || !matches!(b.get(end + 1), None | Some(b' ')) {
                return None;
            }
            (value, style, end, end)
        }
        _ if starts_plain(b, at) => {
            let (end, stop, why) = plain(b, at, false);
            if why != Stop::Colon {
                return None;
            }
            (Cow::Borrowed(line.text.get(at..end)?), ScalarStyle::Plain, end, stop)
        }
        _ => return None,
    };
    (found.3 - at <= KEY_LENGTH).then_some(found)
}

/// Whether a key (and its `:`) starts at byte `at`.
fn is_key(line: &Line<'_>, at: usize) -> bool {
    let b = line.text.as_bytes();
    match b.get(at) {
        Some(b'"' | b'\'') => key_at(line, at).is_some(),
        _ => starts_plain(b, at) && plain(b, at, false).2 == Stop::Colon,
    }
}
