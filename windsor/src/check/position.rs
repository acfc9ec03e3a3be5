//! Where in a file an expression's problem is: the line and column of the
//! YAML value, moved onto the expression's own text when the value is
//! written on one line.

/// The line and column (from 1) of `span` of `src`, the value whose key
/// (or list item) is at `at` in `text`; `at` itself when `src` is not
/// found on that line as written (a block scalar, escapes). Also the
/// line's text.
pub fn refine(text: &str, at: (usize, usize), src: &str, span: (u32, u32)) -> (usize, usize, Option<String>) {
    let (line, col) = at;
    let Some(line_text) = text.lines().nth(line.saturating_sub(1)) else {
        return (line, col, None);
    };
    let from = line_text
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(line_text.len(), |(i, _)| i);
    let column = match line_text[from..].find(src) {
        Some(b) if !src.is_empty() => {
            let start = from + b + span.0 as usize;
            line_text.get(..start).map_or(col, |s| s.chars().count() + 1)
        }
        _ => match below(text, line, src, span) {
            Some((l, c, t)) => return (l, c, Some(t)),
            None => col,
        },
    };
    (line, column, Some(line_text.to_string()))
}

/// How many lines after its key a block scalar is searched.
const BLOCK_LINES: usize = 200;

/// Where `span` of `src` is when `src` is a block scalar written on the
/// lines after its key (folded, so not as one text): the same occurrence
/// of the span's text, counted from the value's start.
fn below(text: &str, line: usize, src: &str, span: (u32, u32)) -> Option<(usize, usize, String)> {
    let snippet = src
        .get(span.0 as usize..span.1 as usize)
        .filter(|s| !s.is_empty() && !s.contains('\n'))?;
    let nth = src[..span.0 as usize].matches(snippet).count();
    let mut seen = 0;
    for (i, l) in text.lines().enumerate().skip(line).take(BLOCK_LINES) {
        for (b, _) in l.match_indices(snippet) {
            if seen == nth {
                return Some((i + 1, l[..b].chars().count() + 1, l.to_string()));
            }
            seen += 1;
        }
    }
    None
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
    }
}
