//! A case's test name: its `name:` if it has one, else its expression
//! (`expr:` or `template:`) spelt out, with `in <env>` when it names one of
//! its file's environments (the same expression is often a case in each),
//! else its number in the file — made into a word of letters, digits and
//! `_`, and unique within its file.

use bpvm_runtime::{Map, Value};
use std::collections::HashSet;
use std::path::Path;

/// The longest slug, in characters; longer expressions are cut at a `_`.
const LONGEST: usize = 60;

/// Operators spoken, so that `a + b` and `a - b` name different tests.
const SPOKEN: &[(&str, &str)] = &[
    ("..", " to "),
    ("==", " eq "),
    ("!=", " ne "),
    ("<=", " le "),
    (">=", " ge "),
    ("&&", " and "),
    ("||", " or "),
    ("??", " else "),
    ("+", " plus "),
    ("-", " minus "),
    ("*", " times "),
    ("/", " over "),
    ("%", " mod "),
    ("<", " lt "),
    (">", " gt "),
    ("!", " not "),
];

/// The names given so far in one file.
#[derive(Default)]
pub struct Names {
    given: HashSet<String>,
}

impl Names {
    /// The name of the case numbered `number` (from 1) with `fields`; a
    /// name given before gets `_2`, `_3`, … in the order the cases come.
    pub fn of(&mut self, fields: Option<&Map>, number: usize) -> String {
        let text = |key: &str| fields.and_then(|f| f.get(key)).and_then(Value::as_str);
        let expression = text("expr").or_else(|| text("template")).map(|e| match text("env") {
            Some(env) => format!("{}_in_{}", slug(&spoken(e)), slug(env)),
            None => slug(&spoken(e)),
        });
        let base = text("name")
            .map(slug)
            .or(expression)
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| number.to_string());
        let mut name = base.clone();
        let mut n = 1;
        while !self.given.insert(name.clone()) {
            n += 1;
            name = format!("{base}_{n}");
        }
        name
    }
}

/// The test-name prefix of the case file `path` under `dir`: `kind`, then
/// the folders and the file's stem, joined by `::`
/// (`bluelink::reference::functions::abs`).
pub fn prefix(kind: &str, dir: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(dir).unwrap_or(path).with_extension("");
    let mut name = kind.to_string();
    for part in relative.iter() {
        name.push_str("::");
        name.push_str(&part.to_string_lossy());
    }
    name
}

/// `text` with its operators as words.
fn spoken(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    'next: while let Some(c) = rest.chars().next() {
        for (op, word) in SPOKEN {
            if let Some(after) = rest.strip_prefix(op) {
                out.push_str(word);
                rest = after;
                continue 'next;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Each run of characters other than ASCII letters and digits as one `_`,
/// none at either end, at most [`LONGEST`] characters.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    if out.len() > LONGEST {
        let cut = out[..LONGEST].rfind('_').unwrap_or(LONGEST);
        out.truncate(cut);
    }
    out.trim_end_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(yaml: &str) -> Map {
        Value::from_yaml(yaml).unwrap().as_map().unwrap().clone()
    }

    #[test]
    fn a_name_comes_first_then_the_expression_then_the_number() {
        let mut names = Names::default();
        assert_eq!(
            names.of(Some(&case("{name: A closed range, expr: 1..3}")), 1),
            "A_closed_range"
        );
        assert_eq!(
            names.of(Some(&case("{expr: '-2..count + 1'}")), 2),
            "minus_2_to_count_plus_1"
        );
        assert_eq!(names.of(Some(&case("{template: 'x-${a.b}'}")), 3), "x_minus_a_b");
        assert_eq!(names.of(Some(&case("{expr: a.b, env: full}")), 3), "a_b_in_full");
        assert_eq!(names.of(Some(&case("{result: 1}")), 4), "4");
        assert_eq!(names.of(None, 5), "5");
    }

    #[test]
    fn a_name_given_before_is_numbered() {
        let mut names = Names::default();
        let same = case("{expr: 'a.b'}");
        assert_eq!(names.of(Some(&same), 1), "a_b");
        assert_eq!(names.of(Some(&same), 2), "a_b_2");
        assert_eq!(names.of(Some(&same), 3), "a_b_3");
    }

    #[test]
    fn a_long_expression_is_cut_between_words() {
        let long = slug(&"word ".repeat(20));
        assert!(long.len() <= LONGEST && long.ends_with("word"), "{long}");
    }
}
