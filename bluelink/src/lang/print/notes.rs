//! YAML comments carried to `.bp`: a comment on a line of its own, just
//! above a key at its column (with only blank lines or other such
//! comments between), goes before what that key becomes in `.bp` — a
//! directive, a declaration, a field, an entry of a block or object.
//! Other comments (at the end of a line, above a list item, inside a
//! flow collection) are dropped. The column rule keeps out a `#` line
//! inside a block scalar, whose text is indented deeper than the next key.
//!
//! The comments of the document being printed are held for the thread
//! while it is printed ([`Notes::hold`]), so that each printer can take
//! those above the keys it prints without passing them along.

use super::words::pad;
use crate::error::Pos;
use std::cell::RefCell;
use std::collections::HashMap;

thread_local! {
    /// Comments by the line and column of the key they are above.
    static HELD: RefCell<HashMap<(u32, u32), Vec<String>>> = RefCell::new(HashMap::new());
}

/// The comments of a YAML source, held while its tree is printed.
pub(super) struct Notes;

impl Notes {
    /// Holds the comments of `yaml` until the guard is dropped.
    pub(super) fn hold(yaml: &str) -> Notes {
        let mut held: HashMap<(u32, u32), Vec<String>> = HashMap::new();
        let mut pending: Vec<(u32, String)> = Vec::new();
        for (k, line) in yaml.lines().enumerate() {
            let body = line.trim_start_matches(' ');
            let col = (line.len() - body.len()) as u32 + 1;
            if let Some(comment) = body.strip_prefix('#') {
                pending.push((col, comment.trim_end().to_string()));
            } else if !body.trim().is_empty() {
                let above: Vec<String> = pending.drain(..).filter(|(c, _)| *c == col).map(|(_, t)| t).collect();
                if !above.is_empty() && !body.starts_with('-') {
                    held.insert((k as u32 + 1, col), above);
                }
            }
        }
        HELD.with(|h| *h.borrow_mut() = held);
        Notes
    }
}

impl Drop for Notes {
    fn drop(&mut self) {
        HELD.with(|h| h.borrow_mut().clear());
    }
}

/// The comments above the key at `at` (taken: each is printed once),
/// each on its line, then the indentation of `level` for the line that
/// follows them: what goes just before that line's text.
pub(super) fn above(at: Pos, level: usize) -> String {
    let Some(comments) = HELD.with(|h| h.borrow_mut().remove(&(at.line, at.col))) else {
        return String::new();
    };
    let mut out = String::new();
    for c in comments {
        out.push('#');
        out.push_str(&c);
        out.push('\n');
        out.push_str(&pad(level));
    }
    out
}
