//! Reading `# bpvm:ignore[rule-a, rule-b] reason` comments out of a
//! template file's text.

/// What marks a suppression inside a comment.
pub(super) const MARK: &str = "bpvm:ignore";

/// One `bpvm:ignore` comment.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Comment {
    /// 1-based line of the comment.
    pub line: usize,
    /// 1-based column (in characters) of `bpvm:ignore`.
    pub column: usize,
    /// The line it covers: its own when it follows text, else the next
    /// line that is not itself a `bpvm:ignore` comment.
    pub covers: usize,
    /// Each rule id with its 1-based column.
    pub ids: Vec<(String, usize)>,
    /// Why (empty when none was written).
    pub reason: String,
    /// Whether its brackets are missing or unclosed.
    pub malformed: bool,
    /// The line's text, for showing it.
    pub source: String,
}

/// Every `bpvm:ignore` comment of `text`, in line order: `#` (YAML and
/// `.bp` comments alike) with only spaces between it and the mark.
pub(super) fn comments(text: &str) -> Vec<Comment> {
    let mut found: Vec<(Comment, bool)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((c, alone)) = comment(line, i + 1) {
            found.push((c, alone));
        }
    }
    let alone_lines: Vec<usize> = found.iter().filter(|(_, a)| *a).map(|(c, _)| c.line).collect();
    found
        .into_iter()
        .map(|(mut c, alone)| {
            if alone {
                let mut next = c.line + 1;
                while alone_lines.contains(&next) {
                    next += 1;
                }
                c.covers = next;
            }
            c
        })
        .collect()
}

/// The comment on `line` (number `n`), and whether it stands alone on it.
fn comment(line: &str, n: usize) -> Option<(Comment, bool)> {
    let at = line
        .match_indices(MARK)
        .map(|(i, _)| i)
        .find(|&i| opens_comment(&line[..i]))?;
    let code = line[..at].trim_end().strip_suffix('#').unwrap_or_default();
    let column = line[..at].chars().count() + 1;
    let mut c = Comment {
        line: n,
        column,
        covers: n,
        ids: Vec::new(),
        reason: String::new(),
        malformed: true,
        source: line.to_string(),
    };
    let rest = &line[at + MARK.len()..];
    if let (Some(inner), Some(close)) = (rest.strip_prefix('['), rest.find(']')) {
        let list = &inner[..close - 1];
        let mut offset = at + MARK.len() + 1;
        for id in list.split(',') {
            let lead = id.len() - id.trim_start().len();
            if !id.trim().is_empty() {
                let col = line[..offset + lead].chars().count() + 1;
                c.ids.push((id.trim().to_string(), col));
            }
            offset += id.len() + 1;
        }
        c.reason = rest[close + 1..].trim().to_string();
        c.malformed = c.ids.is_empty();
    }
    Some((c, code.trim().is_empty()))
}

/// Whether `before` (the text before the mark) ends in `#` that opens a
/// comment: at the line's start or after a space (as YAML and `.bp`
/// start one), and not inside a quoted string (an odd number of quotes
/// of either kind before it).
fn opens_comment(before: &str) -> bool {
    let Some(code) = before.trim_end().strip_suffix('#') else {
        return false;
    };
    let quotes = |q: char| code.chars().filter(|&c| c == q).count() % 2 == 1;
    (code.is_empty() || code.ends_with([' ', '\t'])) && !quotes('"') && !quotes('\'')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trailing_comment_covers_its_line_and_one_alone_the_next() {
        let text = "a: 1 # bpvm:ignore[unknown-path] nil here\n# bpvm:ignore[x, y] why\n# bpvm:ignore[z] why\nb: 2\n";
        let found = comments(text);
        assert_eq!(found.len(), 3);
        assert_eq!((found[0].covers, found[0].column), (1, 8));
        assert_eq!(found[0].ids, vec![("unknown-path".to_string(), 20)]);
        assert_eq!(found[0].reason, "nil here");
        assert_eq!(found[1].covers, 4);
        assert_eq!(found[1].ids, vec![("x".to_string(), 15), ("y".to_string(), 18)]);
        assert_eq!(found[2].covers, 4);
    }

    #[test]
    fn text_that_is_no_comment_is_passed_over() {
        assert!(comments("a: x#bpvm:ignore[a] b\nb: 'bpvm:ignore[a] b'\nc: \"x # bpvm:ignore[a] b\"\n").is_empty());
        let c = &comments("# bpvm:ignore[a]\n")[0];
        assert_eq!((c.reason.as_str(), c.malformed), ("", false));
        assert!(comments("# bpvm:ignore a\n")[0].malformed);
        assert!(comments("# bpvm:ignore[a\n")[0].malformed);
    }
}
