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

/// The byte spans of the sources of `text`'s `${…}` (inside the braces),
/// braces and string literals inside them counted; one never closed is
/// passed over.
fn substitutions(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(found) = text[i..].find("${") {
        let from = i + found + 2;
        let mut depth = 1usize;
        let mut j = from;
        let mut quote: Option<u8> = None;
        while j < bytes.len() && depth > 0 {
            match (quote, bytes[j]) {
                (Some(_), b'\\') => j += 1,
                (Some(q), b) if b == q => quote = None,
                (Some(_), _) => {}
                (None, b @ (b'\'' | b'"' | b'`')) => quote = Some(b),
                (None, b'{') => depth += 1,
                (None, b'}') => depth -= 1,
                (None, _) => {}
            }
            j += 1;
        }
        if depth > 0 {
            i = from;
            continue;
        }
        out.push((from, j - 1));
        i = j;
    }
    out
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
        let line = "a: ${x} ${ {'k': '}'}.k } ${'unclosed ${y}";
        let spans: Vec<&str> = substitutions(line).into_iter().map(|(f, t)| &line[f..t]).collect();
        assert_eq!(spans, ["x", " {'k': '}'}.k ", "y"]);
        let line = "a: ${ {unclosed ${y}";
        let spans: Vec<&str> = substitutions(line).into_iter().map(|(f, t)| &line[f..t]).collect();
        assert_eq!(spans, ["y"]);
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
