//! Colour on a terminal. Diagnostics and test marks are styled here and
//! written through `anstream` (clap's own terminal layer), which drops the
//! styling when the stream is not a terminal or `NO_COLOR` is set, and
//! keeps it under `CLICOLOR_FORCE`: the text is the same either way.
//!
//! Every message for people passes through [`safe`] first (a diagnostic
//! through [`diagnostic`], which calls it): file names, keys and values
//! come from templates, and a control character among them would reach
//! the terminal as a command (an ESC sequence can recolour, retitle or
//! hide what follows); a 9 KB path would bury the message.

use anstyle::{AnsiColor, Style};
use bpvm::runtime::excerpt;
use std::fmt::Write as _;

const ERROR: Style = AnsiColor::Red.on_default().bold();
const WARNING: Style = AnsiColor::Yellow.on_default().bold();
const GUTTER: Style = AnsiColor::Blue.on_default().bold();
const PASS: Style = AnsiColor::Green.on_default();
const FAIL: Style = AnsiColor::Red.on_default();

/// `text` between `style`'s codes.
fn styled(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// A diagnostic as the CLI prints it (`error: …`, then the source line
/// with its `N |` gutter and the `^^^` under the fault), styled line by line.
pub fn diagnostic(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.split_inclusive('\n') {
        let (body, end) = line.strip_suffix('\n').map_or((line, ""), |b| (b, "\n"));
        // A source line under its gutter is already a window of the line.
        let shown = if gutter(body).is_some() {
            escaped(body)
        } else {
            safe(body)
        };
        out.push_str(&diagnostic_line(&shown));
        out.push_str(end);
    }
    out
}

/// `text` as it may be shown on a terminal: control characters (but
/// line breaks and tabs) and the invisible marks that reorder text
/// escaped as `\u{1b}`, and each word longer than [`LONG_WORD`]
/// characters (a path, a key) shortened to its two ends, as the README
/// promises.
pub fn safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let long = word.char_indices().nth(LONG_WORD).is_some();
        let shown = if long { excerpt::clip(word) } else { word.into() };
        out.push_str(&escaped(&shown));
    }
    out
}

/// The longest word [`safe`] leaves whole: four excerpt widths, so that a
/// real path (`file:line:column` an editor opens) stays whole and only a
/// freak one (kilobytes of it) is cut.
pub const LONG_WORD: usize = 4 * excerpt::WIDTH;

/// `text` with control characters and bidirectional marks escaped (a
/// report on stdout, whose values people may want whole).
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let reorders =
            matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
        if (c.is_control() && c != '\n' && c != '\t') || reorders {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Where the ` |` of a gutter (spaces or a line number, then ` |`) is.
fn gutter(line: &str) -> Option<usize> {
    let bar = line.find(" |")?;
    line[..bar].trim().chars().all(|c| c.is_ascii_digit()).then_some(bar)
}

fn diagnostic_line(line: &str) -> String {
    let severities = [("error", ERROR), ("warning", WARNING)];
    for (word, style) in severities {
        if let Some(rest) = line.strip_prefix(word).filter(|r| r.starts_with(':')) {
            return format!("{}{rest}", styled(style, word));
        }
    }
    // `file:line:col: error: …`, or a finding of `bpvm check`:
    // `file:line:col: error[rule]: …` (the first severity on the line).
    let after_place = severities
        .iter()
        .flat_map(|&(word, style)| [": ", "["].map(|end| (format!(": {word}{end}"), word, style)))
        .filter_map(|(mark, word, style)| line.find(&mark).map(|at| (at, word, style)))
        .min_by_key(|&(at, ..)| at);
    if let Some((at, word, style)) = after_place {
        let (before, after) = line.split_at(at + 2);
        return format!("{before}{}{}", styled(style, word), &after[word.len()..]);
    }
    let Some(bar) = gutter(line) else {
        return line.to_string();
    };
    let (number, rest) = line.split_at(bar + 2);
    let carets = rest.trim_end();
    if !carets.is_empty() && carets.trim_start().chars().all(|c| c == '^') {
        let start = rest.len() - rest.trim_start().len();
        let end = start + carets.trim_start().len();
        return format!(
            "{}{}{}{}",
            styled(GUTTER, number),
            &rest[..start],
            styled(ERROR, &rest[start..end]),
            &rest[end..]
        );
    }
    format!("{}{rest}", styled(GUTTER, number))
}

/// The mark of what passed or holds, unstyled.
pub const PASSED: &str = "✓";

/// `text` with the [`PASSED`] mark that begins a line (after its
/// indent) green.
pub fn marked(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.split_inclusive('\n') {
        let body = line.trim_start_matches(' ');
        match body.strip_prefix(PASSED) {
            Some(rest) => {
                out.push_str(&line[..line.len() - body.len()]);
                out.push_str(&mark(true));
                out.push_str(rest);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// A test case's mark: a green ✓ or a red ✗.
pub fn mark(passed: bool) -> String {
    if passed {
        styled(PASS, "✓")
    } else {
        styled(FAIL, "✗")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text without its styling.
    fn plain(s: &str) -> String {
        let mut out = String::new();
        let mut rest = s;
        while let Some(i) = rest.find('\x1b') {
            out.push_str(&rest[..i]);
            let end = rest[i..].find('m').map_or(rest.len(), |j| i + j + 1);
            rest = &rest[end..];
        }
        out + rest
    }

    #[test]
    fn styling_keeps_the_text() {
        let text =
            "error: 1:5: unexpected ')'\n  |\n1 | a + )\n  |     ^\nwarning: x\n10 | no caret here\nplain | line\n";
        let painted = diagnostic(text);
        assert_eq!(plain(&painted), text);
        assert!(
            painted.starts_with(&format!("{ERROR}error{ERROR:#}: 1:5")),
            "{painted:?}"
        );
        assert!(
            painted.contains(&format!("{GUTTER}  |{GUTTER:#}     {ERROR}^{ERROR:#}\n")),
            "{painted:?}"
        );
        assert!(
            painted.contains(&format!("{GUTTER}10 |{GUTTER:#} no caret")),
            "{painted:?}"
        );
        assert!(painted.ends_with("plain | line\n"), "{painted:?}");
        assert_eq!(plain(&mark(true)), "✓");
        assert_eq!(plain(&mark(false)), "✗");
    }
}
