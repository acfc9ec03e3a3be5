//! Colour on a terminal. Diagnostics and test marks are styled here and
//! written through `anstream` (clap's own terminal layer), which drops the
//! styling when the stream is not a terminal or `NO_COLOR` is set, and
//! keeps it under `CLICOLOR_FORCE`: the text is the same either way.

use anstyle::{AnsiColor, Style};

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
        out.push_str(&diagnostic_line(line));
    }
    out
}

fn diagnostic_line(line: &str) -> String {
    for (word, style) in [("error", ERROR), ("warning", WARNING)] {
        if let Some(rest) = line.strip_prefix(word).filter(|r| r.starts_with(':')) {
            return format!("{}{rest}", styled(style, word));
        }
        // A finding of `bpvm check`: `file:line:col: error[rule]: …`.
        if let Some(at) = line.find(&format!(": {word}[")) {
            let (before, after) = line.split_at(at + 2);
            return format!("{before}{}{}", styled(style, word), &after[word.len()..]);
        }
    }
    // A gutter: spaces or a line number, then ` |`.
    let Some(bar) = line.find(" |") else {
        return line.to_string();
    };
    let (number, rest) = line.split_at(bar + 2);
    if !number[..bar].trim().chars().all(|c| c.is_ascii_digit()) {
        return line.to_string();
    }
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
