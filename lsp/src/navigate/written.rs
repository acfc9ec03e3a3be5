//! Where a text writes expressions: each `${…}` (which may run over
//! lines, as a folded scalar's does), and the condition of a `when:`
//! line, with the names each reads.

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
/// assert_eq!(&text[found[0].segments[0].0..found[0].segments[1].1], "a.b");
/// assert_eq!(&text[found[2].span().0..found[2].span().1], "d");
/// ```
pub fn names_written(text: &str) -> Vec<Name> {
    let mut out = Vec::new();
    for (from, to) in substitutions(text) {
        out.extend(names(&text[from..to], from));
    }
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        if let Some((from, to)) = condition(content) {
            out.extend(names(&content[from..to], start + from));
        }
        start += line.len();
    }
    out
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

/// The byte span of the condition of a `when:` line (its quotes and a
/// trailing comment left out).
fn condition(line: &str) -> Option<(usize, usize)> {
    let indent = line.len() - line.trim_start().len();
    let rest = line[indent..].strip_prefix("when:")?;
    let from = indent + 5;
    let rest = rest.split(" #").next().unwrap_or(rest);
    let lead = rest.len() - rest.trim_start().len();
    let mut span = (from + lead, from + rest.trim_end().len());
    let written = &line[span.0..span.1];
    for q in ['"', '\''] {
        if written.len() >= 2 && written.starts_with(q) && written.ends_with(q) {
            span = (span.0 + 1, span.1 - 1);
        }
    }
    (span.0 < span.1).then_some(span)
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
    fn conditions_lose_their_quotes_and_comments() {
        for (line, want) in [
            ("  when: \"a == 'b'\" # why", Some("a == 'b'")),
            ("when: dev", Some("dev")),
            ("when:", None),
            ("whenever: x", None),
        ] {
            assert_eq!(condition(line).map(|(f, t)| &line[f..t]), want, "{line}");
        }
    }
}
