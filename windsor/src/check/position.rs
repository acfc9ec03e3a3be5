//! Where in a file an expression's problem is: the line and column of the
//! YAML value, moved onto the expression's own text when the value is
//! written on one line.

/// The line and column (from 1) of `span` of `src`, the value whose key
/// (or list item) is at `at` in `text`; `at` itself when the span's text
/// cannot be found where the value is written. Also the line's text.
pub fn refine(text: &str, at: (usize, usize), src: &str, span: (u32, u32)) -> (usize, usize, Option<String>) {
    let (line, col) = at;
    let Some(line_text) = text.lines().nth(line.saturating_sub(1)) else {
        return (line, col, None);
    };
    let from = line_text
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(line_text.len(), |(i, _)| i);
    let rest = &line_text[from..];
    let column = |byte: usize| line_text[..byte].chars().count() + 1;
    // As written on the line.
    if let Some(b) = rest.find(src).filter(|_| !src.is_empty()) {
        let start = from + b + span.0 as usize;
        let column = if line_text.is_char_boundary(start) {
            column(start)
        } else {
            col
        };
        return (line, column, Some(line_text.to_string()));
    }
    let found = if on_key_line(rest) {
        // Quoted with escapes: the same occurrence of the span's text
        // after the key.
        occurrence(src, span)
            .and_then(|(snippet, nth)| rest.match_indices(snippet).nth(nth))
            .map(|(b, _)| (line, column(from + b), line_text))
    } else {
        below(text, line, src, span)
    };
    match found {
        Some((l, c, t)) => (l, c, Some(t.to_string())),
        None => (line, col, Some(line_text.to_string())),
    }
}

/// Whether the value at the start of `rest` (its key, or a list item) is
/// written on this line, rather than as a block on the lines below.
fn on_key_line(rest: &str) -> bool {
    if rest.starts_with(['"', '\'', '$']) {
        return true;
    }
    let value = rest.split_once(':').map_or(rest, |(_, v)| v).trim();
    !(value.is_empty() || value.starts_with(['|', '>']) || value.starts_with('#'))
}

/// The span's text, and how many times it comes before the span in `src`.
fn occurrence(src: &str, span: (u32, u32)) -> Option<(&str, usize)> {
    let snippet = src
        .get(span.0 as usize..span.1 as usize)
        .filter(|s| !s.is_empty() && !s.contains('\n'))?;
    Some((snippet, src[..span.0 as usize].matches(snippet).count()))
}

/// How many lines after its key a block scalar is searched.
const BLOCK_LINES: usize = 200;

/// Where `span` of `src` is when `src` is a block scalar written on the
/// lines after its key (folded, so not as one text): the same occurrence
/// of the span's text, counted from the value's start.
fn below<'t>(text: &'t str, line: usize, src: &str, span: (u32, u32)) -> Option<(usize, usize, &'t str)> {
    let (snippet, nth) = occurrence(src, span)?;
    text.lines()
        .enumerate()
        .skip(line)
        .take(BLOCK_LINES)
        .flat_map(|(i, l)| {
            l.match_indices(snippet)
                .map(move |(b, _)| (i + 1, l[..b].chars().count() + 1, l))
        })
        .nth(nth)
}

#[cfg(test)]
mod tests {
    use super::refine;

    #[test]
    fn a_span_lands_on_its_text_in_plain_and_quoted_values() {
        let text = "when: provider == 'aws'\nx:\n  y: \"${a.b}\"\n";
        assert_eq!(refine(text, (1, 1), "provider == 'aws'", (12, 17)).1, 19);
        assert_eq!(refine(text, (3, 3), "${a.b}", (2, 5)).1, 9);
        // Not on the line as written: the key's place.
        assert_eq!(refine(text, (3, 3), "other", (0, 1)).1, 3);
        // A folded block scalar: the same occurrence on the lines below.
        let text = "when: >-\n  a != null &&\n  b != null\n";
        let src = "a != null && b != null";
        assert_eq!(refine(text, (1, 1), src, (18, 22)), (3, 8, Some("  b != null".into())));
        // Quoted with escapes on the key's line: found there, never below.
        let text = "x: \"${a == \\\"b\\\" ? null : 1}\"\ny: >-\n  null\n";
        let src = "${a == \"b\" ? null : 1}";
        assert_eq!(refine(text, (1, 1), src, (13, 17)).1, 20);
    }
}
