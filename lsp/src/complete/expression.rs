//! Where the cursor is in an expression: inside a `${…}` that is not
//! closed before it on its line, or in the condition of a `when:` line;
//! and the path written just before it (`cluster.workers.` with `co`
//! typed), which is what completion extends.

/// One step of a path: `.name` (or `["name"]`), or `[index]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A key.
    Key(String),
    /// An item of a list, by a computed or constant index.
    Item,
}

/// The path being written at the cursor: the steps before the last dot,
/// and the part of the next name typed so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    /// The steps before the last dot; empty at the start of a path.
    pub steps: Vec<Step>,
    /// The name typed after them.
    pub partial: String,
}

/// The text of the expression from its start to byte `at` of `line`,
/// when `at` is inside one: a `${` whose braces are not all closed before
/// `at` (braces in string literals not counted), else the condition of a
/// `when:` line.
///
/// ```
/// use bpvm_lsp::complete::expression_before;
/// assert_eq!(expression_before("a: ${x.y", 8), Some("x.y"));
/// assert_eq!(expression_before("a: ${x} ${len(", 14), Some("len("));
/// assert_eq!(expression_before("a: ${x} b", 9), None);
/// assert_eq!(expression_before("  when: 'dev && cl", 18), Some("dev && cl"));
/// ```
pub fn expression_before(line: &str, at: usize) -> Option<&str> {
    let before = line.get(..at)?;
    substitution_open(before).or_else(|| condition(before))
}

/// The expression of the last `${` of `before` that is still open at its
/// end.
fn substitution_open(before: &str) -> Option<&str> {
    let bytes = before.as_bytes();
    let mut open: Option<(usize, usize)> = None; // (start, depth)
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match (open, quote) {
            (None, _) if bytes[i..].starts_with(b"${") => {
                open = Some((i + 2, 1));
                i += 1;
            }
            (None, _) => {}
            (Some(_), Some(q)) if b == b'\\' && q != b'`' => i += 1,
            (Some(_), Some(q)) if b == q => quote = None,
            (Some(_), Some(_)) => {}
            (Some(_), None) if matches!(b, b'\'' | b'"' | b'`') => quote = Some(b),
            (Some((start, depth)), None) if b == b'{' => open = Some((start, depth + 1)),
            (Some((_, 1)), None) if b == b'}' => open = None,
            (Some((start, depth)), None) if b == b'}' => open = Some((start, depth - 1)),
            (Some(_), None) => {}
        }
        i += 1;
    }
    open.map(|(start, _)| &before[start..])
}

/// The condition written so far on a `when:` line (a list item's too),
/// without its opening quote.
fn condition(before: &str) -> Option<&str> {
    let rest = before.trim_start();
    let rest = rest.strip_prefix("- ").map_or(rest, str::trim_start);
    let value = rest.strip_prefix("when:")?;
    let value = value.trim_start();
    Some(value.strip_prefix(['\'', '"']).unwrap_or(value))
}

/// The path written at the end of `expression` (the text before the
/// cursor); `None` inside a string literal, or after something that is
/// not a path (`f().`, `1.`, `#.`).
///
/// ```
/// use bpvm_lsp::complete::{Step, Typed, path_before};
/// let typed = path_before("a && cluster[\"workers\"].co").unwrap();
/// assert_eq!(typed.steps, [Step::Key("cluster".into()), Step::Key("workers".into())]);
/// assert_eq!(typed.partial, "co");
/// assert_eq!(path_before("x == 'a.b"), None);
/// ```
pub fn path_before(expression: &str) -> Option<Typed> {
    if in_string(expression) {
        return None;
    }
    let (mut rest, partial) = name_at_end(expression);
    let mut steps = Vec::new();
    // A name step follows the one before it after a dot; a bracket step
    // follows it directly.
    let mut dotted = true;
    loop {
        if dotted {
            let Some(before_dot) = rest.strip_suffix('.') else {
                break;
            };
            rest = before_dot.strip_suffix('?').unwrap_or(before_dot);
        }
        let (earlier, step) = step_at_end(rest)?;
        dotted = matches!(step, Step::Key(_)) && !rest.ends_with(']');
        steps.push(step);
        rest = earlier;
    }
    // A path starts at a name, not after a call, a literal or `#`.
    if rest.ends_with(['.', ')', ']', '#', '$']) || starts_with_digit(&partial, &steps) {
        return None;
    }
    steps.reverse();
    Some(Typed { steps, partial })
}

/// `text` split before the name it ends with (maybe empty).
fn name_at_end(text: &str) -> (&str, String) {
    let start = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name_char(*c))
        .last()
        .map_or(text.len(), |(i, _)| i);
    (&text[..start], text[start..].to_string())
}

/// The step `text` ends with (`name`, `["name"]`, `[0]`) and the text
/// before it.
fn step_at_end(text: &str) -> Option<(&str, Step)> {
    if let Some(inside) = text.strip_suffix(']') {
        let open = inside.rfind('[')?;
        let key = inside[open + 1..].trim();
        let quoted = ['"', '\''].iter().find_map(|q| key.strip_prefix(*q)?.strip_suffix(*q));
        let step = match quoted {
            Some(k) => Step::Key(k.to_string()),
            None => Step::Item,
        };
        return Some((&inside[..open], step));
    }
    let (earlier, name) = name_at_end(text);
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then_some((earlier, Step::Key(name)))
}

/// Whether the path would start with a number (`1.5`, not a path).
fn starts_with_digit(partial: &str, steps: &[Step]) -> bool {
    steps.is_empty() && partial.starts_with(|c: char| c.is_ascii_digit())
}

/// Whether a name may hold `c`.
fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `text` ends inside a string literal.
fn in_string(text: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in text.chars() {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(q) if c == '\\' && q != '`' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '\'' | '"' | '`') => quote = Some(c),
            None => {}
        }
    }
    quote.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is expected: the steps, and the name typed.
    type Path = (Vec<Step>, &'static str);

    fn key(k: &str) -> Step {
        Step::Key(k.to_string())
    }

    /// (line, cursor byte, the expression before the cursor).
    const EXPRESSIONS: &[(&str, usize, Option<&str>)] = &[
        ("x: ${a.b}", 8, Some("a.b")),
        ("x: ${a.b}", 9, None),
        ("x: ${a.b} and ${c", 17, Some("c")),
        ("x: ${ {'k': 1}.k", 16, Some(" {'k': 1}.k")),
        ("x: ${ '}' + a.", 14, Some(" '}' + a.")),
        ("x: ${ \"a\\\"}\" + b", 16, Some(" \"a\\\"}\" + b")),
        ("x: \"${resources.", 16, Some("resources.")),
        ("when: provider == 'aws'", 10, Some("prov")),
        ("  - when: \"dev", 14, Some("dev")),
        ("when", 4, None),
        ("name: when: x", 13, None),
        ("plain text", 5, None),
        // Bytes inside a character are never sliced at.
        ("é: 😀 ${é.", 14, Some("é.")),
        ("é: '😀'", 6, None),
    ];

    #[test]
    fn the_expression_before_the_cursor_is_found() {
        for &(line, at, want) in EXPRESSIONS {
            assert_eq!(expression_before(line, at), want, "{line:?} at {at}");
        }
    }

    #[test]
    fn paths_before_the_cursor_are_read_through_dots_and_brackets() {
        let cases: &[(&str, Option<Path>)] = &[
            ("", Some((vec![], ""))),
            ("clu", Some((vec![], "clu"))),
            ("a.b.", Some((vec![key("a"), key("b")], ""))),
            ("x > 1 && a?.b", Some((vec![key("a")], "b"))),
            ("a['b c'].d", Some((vec![key("a"), key("b c")], "d"))),
            ("nodes[0].", Some((vec![key("nodes"), Step::Item], ""))),
            ("len(a.b", Some((vec![key("a")], "b"))),
            ("f(x).", None),
            ("1.", None),
            ("1.5", None),
            ("#.", None),
            ("'a.", None),
            ("\"it's\" + a.", Some((vec![key("a")], ""))),
            ("a..b", None),
        ];
        for (text, want) in cases {
            let got = path_before(text).map(|t| (t.steps, t.partial));
            let want = want.clone().map(|(s, p)| (s, p.to_string()));
            assert_eq!(got, want, "{text:?}");
        }
    }
}
