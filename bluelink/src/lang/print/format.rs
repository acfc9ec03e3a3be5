//! `bpvm fmt`: a `.bp` source written out again from its tokens, so that
//! comments, line breaks and the author's forms stay. What changes:
//! indentation (four spaces for each line that opened a bracket still
//! open, one more for a line that goes on with a binary operator), the
//! spaces between tokens, blank lines (at most one in a row, none at the
//! ends), trailing spaces, and the indentation of `"""` strings (their
//! text one level deeper than the line they start on).

use super::super::token::{Token, TokenKind as T, closing};
use super::words::pad;

/// The source with `\r\n` read as `\n`, and where each line starts.
pub(super) struct Source {
    text: String,
    lines: Vec<usize>,
}

impl Source {
    pub(super) fn new(text: &str) -> Source {
        let text = text.replace("\r\n", "\n");
        let mut lines = vec![0];
        lines.extend(text.match_indices('\n').map(|(k, _)| k + 1));
        Source { text, lines }
    }

    /// The byte offset of a 1-based line and column (in characters).
    fn offset(&self, line: u32, col: u32) -> usize {
        let start = self.lines.get(line as usize - 1).copied().unwrap_or(self.text.len());
        let rest = &self.text[start..];
        rest.char_indices()
            .nth(col as usize - 1)
            .map_or(self.text.len(), |(k, _)| start + k)
    }

    fn slice(&self, from: &Token, to: &Token) -> &str {
        let a = self.offset(from.start.line, from.start.col);
        let b = self.offset(to.end.line, to.end.col).max(a);
        &self.text[a..b]
    }
}

/// A line being written: its pieces and the token before the next one.
struct Line {
    out: String,
    prev: Option<T>,
}

/// The formatted text of `toks` (a whole, readable file's tokens).
pub(super) fn format(src: &Source, toks: &[Token]) -> String {
    let mut out = String::new();
    let mut open: Vec<usize> = Vec::new(); // the line each open bracket is on
    let (mut k, mut line_no, mut blank) = (0, 0usize, false);
    while k < toks.len() && toks[k].kind != T::Eof {
        if toks[k].kind == T::Newline {
            let n = toks[k..].iter().take_while(|t| t.kind == T::Newline).count();
            k += n;
            // One line end ends a line; more make a blank line.
            blank = n >= 2 && !out.is_empty();
            continue;
        }
        if blank {
            out.push('\n');
        }
        let closers = toks[k..].iter().take_while(|t| is_closer(t.kind)).count();
        let kept = open.len().saturating_sub(closers);
        let mut indent = distinct(&open[..kept]);
        if is_binary(toks[k].kind) {
            indent += 1;
        }
        let mut line = Line {
            out: pad(indent),
            prev: None,
        };
        k = write_line(src, toks, k, &mut line, &mut open, line_no, indent);
        out.push_str(line.out.trim_end());
        out.push('\n');
        line_no += 1;
    }
    out
}

/// Writes the tokens from `k` to the line's end; the index after them.
fn write_line(
    src: &Source,
    toks: &[Token],
    mut k: usize,
    line: &mut Line,
    open: &mut Vec<usize>,
    line_no: usize,
    indent: usize,
) -> usize {
    while let Some(t) = toks.get(k) {
        match t.kind {
            T::Newline | T::Eof => return k,
            T::StringStart => {
                let end = string_end(toks, k);
                space(line, T::StringStart);
                if t.text == "\"\"\"" {
                    block_string(src, &toks[k..=end], line, indent);
                } else {
                    line.out.push_str(src.slice(t, &toks[end]));
                }
                line.prev = Some(T::StringEnd);
                k = end + 1;
                continue;
            }
            T::Comment => {
                if line.prev.is_some() {
                    line.out.push(' ');
                }
                line.out.push('#');
                line.out.push_str(t.text.trim_end());
                line.prev = Some(T::Comment);
            }
            kind => {
                space(line, kind);
                line.out.push_str(src.slice(t, t));
                line.prev = Some(kind);
                if matches!(kind, T::LBrace | T::LBracket | T::LParen) {
                    open.push(line_no);
                } else if is_closer(kind) {
                    open.pop();
                }
            }
        }
        k += 1;
    }
    k
}

/// The index of the `StringEnd` of the string starting at `k` (the token
/// before the end of the file when it has none).
fn string_end(toks: &[Token], k: usize) -> usize {
    closing(toks, k, T::StringStart, T::StringEnd).unwrap_or(toks.len().saturating_sub(2))
}

/// A `"""` string: its text one level deeper than the line it is on.
fn block_string(src: &Source, toks: &[Token], line: &mut Line, indent: usize) {
    let mut body = String::new();
    let mut k = 1;
    // The indentation of the closing `"""`, which every line loses, also
    // a line of an interpolation written over several.
    let strip = toks.last().map_or(0, |t| t.start.col.saturating_sub(1) as usize);
    while k + 1 < toks.len() {
        let t = &toks[k];
        if t.kind == T::InterpolationStart {
            let close = interpolation_end(toks, k);
            for (n, line) in src.slice(t, &toks[close]).split('\n').enumerate() {
                if n > 0 {
                    body.push('\n');
                }
                let indent = line.chars().take(strip).take_while(|c| matches!(c, ' ' | '\t')).count();
                body.push_str(if n > 0 { &line[indent..] } else { line });
            }
            k = close + 1;
            continue;
        }
        body.push_str(&t.text);
        k += 1;
    }
    let inner = pad(indent + 1);
    line.out.push_str("\"\"\"\n");
    for text in body.split('\n') {
        if !text.is_empty() {
            line.out.push_str(&inner);
            line.out.push_str(text);
        }
        line.out.push('\n');
    }
    line.out.push_str(&inner);
    line.out.push_str("\"\"\"");
}

/// The index of the `}` of the interpolation starting at `k`.
fn interpolation_end(toks: &[Token], k: usize) -> usize {
    closing(toks, k, T::InterpolationStart, T::InterpolationEnd).unwrap_or(toks.len().saturating_sub(2))
}

/// The space, if any, before a token of kind `next`.
fn space(line: &mut Line, next: T) {
    let Some(prev) = line.prev else {
        return;
    };
    let tight_after = matches!(prev, T::LParen | T::LBracket | T::Dot | T::Not | T::Slash);
    let tight_before = matches!(next, T::Comma | T::Colon | T::RParen | T::RBracket | T::Dot | T::Slash);
    let accessed = matches!(prev, T::Ident | T::RBracket | T::RParen)
        || matches!(
            prev,
            T::Keyword("variables" | "values" | "datasources" | "resources" | "children" | "elem")
        );
    let call = next == T::LParen && matches!(prev, T::Ident | T::Keyword(_));
    let index = next == T::LBracket && accessed;
    let empty = prev == T::LBrace && next == T::RBrace;
    // `}}` at a line's start; `] }` closing an object opened on the line.
    let closing = is_closer(next) && line.out.trim_start().chars().all(|c| matches!(c, ')' | ']' | '}'));
    if !(tight_after || tight_before || call || index || empty || closing) {
        line.out.push(' ');
    }
}

fn is_closer(kind: T) -> bool {
    matches!(kind, T::RBrace | T::RBracket | T::RParen)
}

fn is_binary(kind: T) -> bool {
    matches!(kind, T::Or | T::And | T::Eq | T::Neq | T::Lt | T::Le | T::Gt | T::Ge)
}

/// How many different lines the open brackets were opened on.
fn distinct(open: &[usize]) -> usize {
    let mut n = 0;
    let mut last = None;
    for &l in open {
        if last != Some(l) {
            n += 1;
            last = Some(l);
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::super::{format, to_yaml};
    use crate::lang::read;

    /// Every prefix of a source that reads: formatted without a panic,
    /// to the same tree, and formatting it again changes nothing.
    #[test]
    fn every_readable_prefix_formats_to_the_same_tree_and_stays() {
        let text = "# c\r\nversion \"2025-11-02\" # v\r\nvariable \"a.b\": aws/x/y {\tdefault = -1.5, allowedValues = [1] }\n\n\n\
                    value v: object { value = { k = [none, !x.y[0] || a != \"q\\\"\" && b <= 2] } # k\n}\n\
                    resource r: a/b { foreach f(n = 1, [2], {a = \"${i}\"}), select by label { exclude = x }\n\
                    metadata { labels = { a = \"b\" } }, spec { s = \"\"\"\n  $${elem.k} ${children.c.o}\n    x\n  \"\"\" } }\n\
                    data d: a/b { filter \"f\" not starts with datasources.d.f[1]\n  # e\n  export * }\n";
        let mut formatted = 0;
        for (end, _) in text.char_indices() {
            let src = &text[..end];
            let Ok(doc) = read(src) else {
                continue;
            };
            let once = format(src).unwrap();
            assert_eq!(format(&once).unwrap(), once, "{src:?}");
            let again = read(&once).unwrap();
            assert_eq!(again.to_value().to_json(), doc.to_value().to_json(), "{src:?}\n{once}");
            assert!(to_yaml(src).is_ok());
            formatted += 1;
        }
        assert!(formatted > 10, "{formatted}");
    }

    /// The lines of an interpolation in a `"""` string move with the
    /// string's indentation, and the tree keeps them.
    #[test]
    fn an_interpolation_over_several_lines_keeps_its_lines() {
        let src = "version \"2023-04-20\"\nvalue v: array {\n  value = \"\"\"\n    ${list(\n      resources.a.spec.name\n    )}\n    \"\"\"\n}\n";
        let once = format(src).unwrap();
        assert_eq!(format(&once).unwrap(), once);
        let tree = |s: &str| read(s).unwrap().to_value().to_json();
        assert_eq!(tree(&once), tree(src));
        assert!(
            tree(src).contains(r#"${list(\n  resources.a.spec.name\n)}"#),
            "{}",
            tree(src)
        );
    }
}
