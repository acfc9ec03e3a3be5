//! Where a character of a YAML string value is written in its file: the
//! value is read again from where it starts, undoing its quoting (plain,
//! `'single'`, `"double"` with escapes, `|` and `>` blocks, lines folded),
//! so that an offset inside the string — where an expression in it went
//! wrong — becomes one line and column of the file.
//!
//! Each character read is compared with the value as the document gave
//! it: when they part (a style this reader does not know), there is no
//! answer, and a message points at the value's start instead.

/// A 1-based line and column (in characters) of a file.
pub type Place = (usize, usize);

/// The place in `text` of byte `offset` of the string `value`, whose
/// scalar is written starting at `start` (the line and column of its
/// first character: a quote, a block indicator or the text itself).
/// `None` when the text there does not read as `value`, or the offset
/// is not inside it.
///
/// ```
/// use bpvm_runtime::scalar::place;
/// let text = "a: \"x\\ty ${b}\"\nc: >-\n  one\n  ${d}\n";
/// // The `b` of `x<TAB>y ${b}`, after the escaped tab.
/// assert_eq!(place(text, (1, 4), "x\ty ${b}", 6), Some((1, 12)));
/// // The `d` of the folded `one ${d}`, on the block's second line.
/// assert_eq!(place(text, (2, 4), "one ${d}", 6), Some((4, 5)));
/// ```
pub fn place(text: &str, start: Place, value: &str, offset: usize) -> Option<Place> {
    let target = value.get(..offset)?.chars().count();
    let lines: Vec<&str> = text.split('\n').collect();
    let start = block_header(&lines, start).unwrap_or(start);
    let first = lines.get(start.0.checked_sub(1)?)?;
    let from = first.char_indices().nth(start.1.checked_sub(1)?)?.0;
    let mut reader = Reader {
        lines: &lines,
        line: start.0 - 1,
        byte: from,
        want: value.chars().collect(),
        got: Vec::new(),
        target,
    };
    match first[from..].chars().next()? {
        '"' => reader.quoted('"'),
        '\'' => reader.quoted('\''),
        '|' | '>' => reader.block(),
        _ => reader.plain(),
    }
    reader.answer()
}

/// The `|` or `>` of the block scalar whose text starts at `start`, when
/// `start` begins its line's text and the line above ends in a block
/// header (readers place a block scalar at its text, or at its header).
fn block_header(lines: &[&str], start: Place) -> Option<Place> {
    let line = lines.get(start.0.checked_sub(1)?)?;
    let before: String = line.chars().take(start.1.checked_sub(1)?).collect();
    if !before.trim().is_empty() {
        return None;
    }
    let (n, above) = lines[..start.0 - 1]
        .iter()
        .enumerate()
        .rev()
        .find(|(_, l)| !l.trim().is_empty())?;
    let code = above.split(" #").next().unwrap_or(above).trim_end();
    let header = code.rsplit([' ', '\t']).next()?;
    let indicator = header.strip_prefix(['|', '>'])?;
    if !indicator.chars().all(|c| matches!(c, '-' | '+' | '1'..='9')) {
        return None;
    }
    let at = code.len() - header.len();
    Some((n + 1, code[..at].chars().count() + 1))
}

/// Reads a scalar character by character, keeping where each came from.
struct Reader<'t> {
    lines: &'t [&'t str],
    /// The line being read (from 0) and the byte in it.
    line: usize,
    byte: usize,
    /// The value's characters, and the places of those read so far.
    want: Vec<char>,
    got: Vec<Place>,
    /// The character whose place is asked for.
    target: usize,
}

impl<'t> Reader<'t> {
    /// The place of the target character once read; the place after the
    /// last when the offset is the value's end.
    fn answer(&self) -> Option<Place> {
        if let Some(p) = self.got.get(self.target) {
            return Some(*p);
        }
        let last = self.got.last()?;
        (self.target == self.want.len() && self.got.len() == self.want.len()).then_some((last.0, last.1 + 1))
    }

    /// Whether reading can stop: the target is read, or the text parted
    /// from the value.
    fn done(&self) -> bool {
        self.got.len() > self.target || self.got.len() >= self.want.len()
    }

    fn here(&self) -> Place {
        let line = self.lines[self.line];
        (self.line + 1, line[..self.byte.min(line.len())].chars().count() + 1)
    }

    /// Takes `c`, read at `at`; false (and reading stops) when the value
    /// has another character there.
    fn take(&mut self, c: char, at: Place) -> bool {
        if self.want.get(self.got.len()) != Some(&c) {
            self.want.truncate(self.got.len());
            return false;
        }
        self.got.push(at);
        true
    }

    fn rest(&self) -> &'t str {
        let line: &'t str = self.lines.get(self.line).copied().unwrap_or("");
        line.get(self.byte..).unwrap_or("")
    }

    /// Moves to the next line; false at the end of the text.
    fn next_line(&mut self) -> bool {
        self.line += 1;
        self.byte = 0;
        self.line < self.lines.len()
    }

    /// A line break inside a flow scalar (plain or quoted): the blank
    /// lines after it become line feeds, else it is one space; the next
    /// line's indentation is skipped.
    fn fold(&mut self, at: Place) -> bool {
        let mut breaks = 0;
        loop {
            if !self.next_line() {
                return false;
            }
            let trimmed = self.rest().trim_start_matches([' ', '\t']);
            if !trimmed.trim_end_matches('\r').is_empty() {
                self.byte = self.rest().len() - trimmed.len();
                break;
            }
            breaks += 1;
        }
        match breaks {
            0 => self.take(' ', at),
            n => (0..n).all(|_| self.take('\n', at)),
        }
    }

    /// A plain scalar: its text, lines folded.
    fn plain(&mut self) {
        while !self.done() {
            let rest = self.rest().trim_end_matches('\r');
            let kept = rest.trim_end_matches([' ', '\t']);
            let start = self.byte;
            for (i, c) in kept.char_indices() {
                self.byte = start + i;
                let at = self.here();
                if self.done() || !self.take(c, at) {
                    return;
                }
            }
            self.byte = start + kept.len();
            let at = self.here();
            if self.done() || !self.fold(at) {
                return;
            }
        }
    }

    /// A quoted scalar, from its opening quote: `''` in a single-quoted
    /// one and escapes in a double-quoted one are one character each.
    fn quoted(&mut self, quote: char) {
        self.byte += 1;
        while !self.done() {
            let rest = self.rest().trim_end_matches('\r');
            let mut chars = rest.char_indices().peekable();
            let start = self.byte;
            let mut broke = false;
            while let Some((i, c)) = chars.next() {
                self.byte = start + i;
                let at = self.here();
                let read = match c {
                    '\'' if quote == '\'' && chars.peek().map(|p| p.1) == Some('\'') => {
                        chars.next();
                        '\''
                    }
                    c if c == quote => return,
                    '\\' if quote == '"' => match chars.peek().map(|p| p.1) {
                        // An escaped line break: the line goes on below.
                        None => {
                            broke = true;
                            break;
                        }
                        Some(e) => match escape(e, &mut chars) {
                            Some(c) => c,
                            None => return,
                        },
                    },
                    ' ' | '\t' if rest[i..].trim_end_matches([' ', '\t']).is_empty() => break,
                    c => c,
                };
                if self.done() || !self.take(read, at) {
                    return;
                }
            }
            self.byte = start + rest.len();
            let at = self.here();
            if self.done() {
                return;
            }
            if broke {
                if !self.next_line() {
                    return;
                }
                let trimmed = self.rest().trim_start_matches([' ', '\t']);
                self.byte = self.rest().len() - trimmed.len();
            } else if !self.fold(at) {
                return;
            }
        }
    }

    /// A block scalar, from its `|` or `>`: the lines below, less their
    /// indentation, with line feeds kept (`|`) or folded (`>`).
    fn block(&mut self) {
        let header = self.rest().split(" #").next().unwrap_or("").trim().to_string();
        let folded = header.starts_with('>');
        let given = header.chars().find_map(|c| c.to_digit(10)).map(|d| d as usize);
        let parent = self.lines[self.line].len() - self.lines[self.line].trim_start().len();
        let mut indent = None;
        let mut previous: Option<(bool, Place)> = None;
        let mut blank = 0;
        while !self.done() && self.next_line() {
            let line = self.lines[self.line].trim_end_matches('\r');
            let spaces = line.len() - line.trim_start_matches(' ').len();
            if line.trim().is_empty() {
                blank += 1;
                continue;
            }
            let indent = *indent.get_or_insert_with(|| given.map_or(spaces, |g| parent + g));
            if spaces < indent {
                return;
            }
            let more = spaces > indent || line[indent..].starts_with('\t');
            if let Some((was_more, at)) = previous {
                let space = folded && blank == 0 && !was_more && !more;
                let breaks = if space {
                    0
                } else if folded && !was_more && !more {
                    blank
                } else {
                    blank + 1
                };
                let ok = match space {
                    true => self.take(' ', at),
                    false => (0..breaks).all(|_| self.take('\n', at)),
                };
                if !ok || self.done() {
                    return;
                }
            }
            blank = 0;
            for (i, c) in line[indent..].char_indices() {
                self.byte = indent + i;
                let at = self.here();
                if self.done() || !self.take(c, at) {
                    return;
                }
            }
            self.byte = line.len();
            previous = Some((more, self.here()));
        }
    }
}

/// The character a double-quoted string's escape `\e…` stands for, the
/// escape's characters taken from `chars` (its backslash already read).
fn escape(e: char, chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> Option<char> {
    chars.next();
    let simple = match e {
        '0' => '\0',
        'a' => '\x07',
        'b' => '\x08',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\x0b',
        'f' => '\x0c',
        'r' => '\r',
        'e' => '\x1b',
        ' ' => ' ',
        '"' => '"',
        '/' => '/',
        '\\' => '\\',
        'N' => '\u{85}',
        '_' => '\u{a0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        'x' | 'u' | 'U' => {
            let digits = match e {
                'x' => 2,
                'u' => 4,
                _ => 8,
            };
            let hex: String = (0..digits).filter_map(|_| chars.next().map(|p| p.1)).collect();
            return u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32);
        }
        _ => return None,
    };
    Some(simple)
}

#[cfg(test)]
mod tests {
    use super::place;

    #[test]
    fn plain_values_map_one_to_one_and_fold() {
        let text = "a: x ${b}\nc: one\n  two ${d}\n";
        assert_eq!(place(text, (1, 4), "x ${b}", 4), Some((1, 8)));
        assert_eq!(place(text, (2, 4), "one two ${d}", 10), Some((3, 9)));
        // The value's end.
        assert_eq!(place(text, (1, 4), "x ${b}", 6), Some((1, 10)));
    }

    #[test]
    fn quotes_and_escapes_are_undone() {
        let text = "a: 'it''s ${b}'\nc: \"\\u00e9\\\"${d}\\\"\"\n";
        assert_eq!(place(text, (1, 4), "it's ${b}", 7), Some((1, 13)));
        // `é"${d}"`: the `d` is after a six-character and a two-character escape.
        assert_eq!(place(text, (2, 4), "é\"${d}\"", 5), Some((2, 15)));
    }

    #[test]
    fn literal_blocks_keep_lines() {
        let text = "k:\n  v: |\n    one\n\n    ${x}\n  w: 1\n";
        assert_eq!(place(text, (2, 6), "one\n\n${x}\n", 7), Some((5, 7)));
        // Placed at its text rather than its header.
        assert_eq!(place(text, (3, 5), "one\n\n${x}\n", 7), Some((5, 7)));
    }

    #[test]
    fn text_that_is_not_the_value_gives_no_place() {
        let text = "a: x ${b}\n";
        assert_eq!(place(text, (1, 4), "y ${b}", 4), None);
        assert_eq!(place(text, (1, 4), "x ${b}", 40), None);
        assert_eq!(place(text, (9, 1), "x", 0), None);
    }
}
