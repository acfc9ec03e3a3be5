//! Where a text writes expressions: each `${…}` (which may run over
//! lines, as a folded scalar's does), and each `when:` condition (on its
//! line, or folded over the lines below it), with the names each reads.

use super::names::{Name, names};

/// The names read by every expression of `text`, spans in bytes of
/// `text`: the substitutions' in the order written, then the
/// conditions'.
///
/// ```
/// use bpvm_lsp::navigate::names_written;
/// let text = "when: provider == 'aws'\nx: 'é ${a.b ?? c}'\ny: >-\n  ${'}'} and ${\n    d }\n";
/// let found = names_written(text);
/// let paths: Vec<&str> = found.iter().map(|n| n.path.as_str()).collect();
/// assert_eq!(paths, ["a.b", "c", "d", "provider"]);
/// let folded = names_written("- when: >-\n    a != null &&\n\n    b.c\n  x: y\n");
/// let paths: Vec<&str> = folded.iter().map(|n| n.path.as_str()).collect();
/// assert_eq!(paths, ["a", "b.c"]);
/// assert_eq!(&text[found[0].segments[0].0..found[0].segments[1].1], "a.b");
/// assert_eq!(&text[found[2].span().0..found[2].span().1], "d");
/// ```
pub fn names_written(text: &str) -> Vec<Name> {
    let mut out = Vec::new();
    for (from, to) in substitutions(text) {
        out.extend(names(&text[from..to], from));
    }
    let mut start = 0;
    // The indentation of a `when:` whose condition the lines below hold.
    let mut folded: Option<usize> = None;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        let indent = content.len() - content.trim_start().len();
        match folded {
            Some(_) if content.trim().is_empty() => {}
            Some(at) if indent > at => out.extend(names(&content[indent..], start + indent)),
            _ => {
                folded = None;
                match condition(content) {
                    Some((_, from, to)) if from < to && !is_block_header(&content[from..to]) => {
                        out.extend(names(&content[from..to], start + from));
                    }
                    Some((key, ..)) => folded = Some(key),
                    None => {}
                }
            }
        }
        start += line.len();
    }
    out
}

/// Whether `text` is a block scalar's header (`>-`, `|`, `>2+`): the
/// value is on the lines below.
fn is_block_header(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some('>' | '|')) && chars.all(|c| matches!(c, '-' | '+' | '1'..='9'))
}

/// How far one `${…}` may run: a longer one is taken as never closed,
/// so a file of unclosed `${` costs time in proportion to its size.
const MAX_BYTES: usize = 4096;
/// How many lines one `${…}` may run over.
const MAX_LINES: usize = 32;

/// The byte spans of the sources of `text`'s `${…}` (inside the braces),
/// braces and string literals inside them counted. One never closed
/// (within [`MAX_BYTES`] and [`MAX_LINES`]) is passed over with the rest
/// of its line.
fn substitutions(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(found) = text[i..].find("${") {
        let from = i + found + 2;
        match closing(&bytes[from..bytes.len().min(from + MAX_BYTES)]) {
            Some(len) => {
                out.push((from, from + len));
                i = from + len + 1;
            }
            None => match text[from..].find('\n') {
                Some(end) => i = from + end + 1,
                None => break,
            },
        }
    }
    out
}

/// The length of an expression's source in `bytes` (which follow its
/// `${`) before the `}` that closes it; `None` when none does.
fn closing(bytes: &[u8]) -> Option<usize> {
    let mut depth = 1usize;
    let mut lines = 0;
    let mut quote: Option<u8> = None;
    let mut j = 0;
    while j < bytes.len() {
        match (quote, bytes[j]) {
            (_, b'\n') if lines == MAX_LINES => return None,
            (_, b'\n') => lines += 1,
            (Some(_), b'\\') => j += 1,
            (Some(q), b) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b @ (b'\'' | b'"' | b'`')) => quote = Some(b),
            (None, b'{') => depth += 1,
            (None, b'}') if depth == 1 => return Some(j),
            (None, b'}') => depth -= 1,
            (None, _) => {}
        }
        j += 1;
    }
    None
}

/// The condition of a `when:` line (a list item's too): the column of
/// its key, and the byte span of its text (its quotes and a trailing
/// comment left out; empty when the condition is on the lines below).
fn condition(line: &str) -> Option<(usize, usize, usize)> {
    let indent = line.len() - line.trim_start().len();
    let mut key = indent;
    let mut body = &line[indent..];
    if let Some(item) = body.strip_prefix("- ") {
        let trimmed = item.trim_start();
        key += 2 + item.len() - trimmed.len();
        body = trimmed;
    }
    let rest = body.strip_prefix("when:")?;
    let from = key + 5;
    let rest = rest.split(" #").next().unwrap_or(rest);
    let lead = rest.len() - rest.trim_start().len();
    let mut span = (from + lead, (from + rest.trim_end().len()).max(from + lead));
    let written = &line[span.0..span.1];
    for q in ['"', '\''] {
        if written.len() >= 2 && written.starts_with(q) && written.ends_with(q) {
            span = (span.0 + 1, span.1 - 1);
        }
    }
    Some((key, span.0, span.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substitutions_skip_braces_in_strings_and_pass_over_an_unclosed_one() {
        let spans = |text: &'static str| -> Vec<&'static str> {
            substitutions(text).into_iter().map(|(f, t)| &text[f..t]).collect()
        };
        assert_eq!(
            spans("a: ${x} ${ {'k': '}'}.k } ${'unclosed ${y}\nb: ${z}"),
            ["x", " {'k': '}'}.k ", "z"]
        );
        assert_eq!(spans("a: ${ {unclosed ${y}"), Vec::<&str>::new());
        assert_eq!(spans("a: >-\n  ${\n    b\n  }\n"), ["\n    b\n  "]);
        let long = format!("a: ${{{}}}\nb: ${{c}}", "x".repeat(MAX_BYTES));
        assert_eq!(substitutions(&long).len(), 1);
        let tall = format!("a: ${{{}}}\nb: ${{c}}", "\n".repeat(MAX_LINES + 1));
        assert_eq!(substitutions(&tall).len(), 1);
    }

    #[test]
    fn conditions_lose_their_quotes_and_comments_and_may_be_folded_below() {
        for (line, want) in [
            ("  when: \"a == 'b'\" # why", Some((2, "a == 'b'"))),
            ("when: dev", Some((0, "dev"))),
            ("  -   when: dev", Some((6, "dev"))),
            ("when:", Some((0, ""))),
            ("when: >-", Some((0, ">-"))),
            ("whenever: x", None),
            ("é: when: x", None),
        ] {
            assert_eq!(condition(line).map(|(k, f, t)| (k, &line[f..t])), want, "{line}");
        }
    }
}

#[cfg(test)]
mod folded {
    use super::*;

    #[test]
    fn a_folded_condition_ends_where_the_indentation_does() {
        let text = "when:\n  a ==\n  b\nc: ${d}\nitems:\n  - name: x\n    when: |\n      e\n    f: g\n";
        let paths: Vec<String> = names_written(text).into_iter().map(|n| n.path).collect();
        assert_eq!(paths, ["d", "a", "b", "e"]);
        assert!(is_block_header(">2-"));
        assert!(!is_block_header(">x"));
    }
}
