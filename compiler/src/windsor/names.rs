//! Names the dialect gives a meaning of their own, as expr-lang v1.17.8
//! does:
//!
//! - keywords: its lexer (`parser/lexer/state.go`, `identifier` and
//!   `not`) reads `in`, `and`, `or`, `not`, `matches`, `contains`,
//!   `startsWith`, `endsWith`, `let`, `if` and `else` as operators, so
//!   none of them is a name (one may follow a `.`: `a.in` is a member);
//! - the pointers of a predicate's body: `#` is the item everywhere, and
//!   the checker (`checker/checker.go`, `builtinNode`) declares `#index`
//!   only in `map` and `reduce`, `#acc` only in `reduce`.

use crate::ast::Kind;
use bpvm_runtime::suggest::closest;

/// The words that are operators or start a form, never names.
const KEYWORDS: &[&str] = &[
    "in",
    "and",
    "or",
    "not",
    "matches",
    "contains",
    "startsWith",
    "endsWith",
    "let",
    "if",
    "else",
];

/// Whether `word` is a keyword.
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// Why the keyword `word` cannot stand where a value is expected.
pub fn misplaced_keyword(word: &str) -> String {
    match word {
        "let" | "if" => format!("'{word}' must start an expression or follow '('"),
        "else" => "'else' must follow the '}' of an if".into(),
        "not" => "'not' must come before a value (not x) or an operator (a not in b)".into(),
        _ => format!("'{word}' is an operator, not a name: it goes between two values (a {word} b)"),
    }
}

/// What `#name` is in the body of the predicate builtin `builtin`, or why
/// it is nothing there.
pub fn pointer(name: &str, builtin: &str) -> Result<Kind, String> {
    let known: &[&str] = match builtin {
        "map" => &["index"],
        "reduce" => &["index", "acc"],
        _ => &[],
    };
    match name {
        _ if !known.contains(&name) => Err(unknown_pointer(name, builtin, known)),
        "acc" => Ok(Kind::Acc),
        _ => Ok(Kind::ItemIndex),
    }
}

fn unknown_pointer(name: &str, builtin: &str, known: &[&str]) -> String {
    match name {
        "index" => format!("{builtin}() has no #index; only map() and reduce() do"),
        "acc" => format!("{builtin}() has no #acc; only reduce() does"),
        _ => match closest(name, known) {
            Some(k) => format!("unknown pointer '#{name}'; did you mean '#{k}'?"),
            None => format!("unknown pointer '#{name}'"),
        },
    }
}
