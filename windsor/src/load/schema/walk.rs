//! One walk of values through a schema: where it is, what it found so
//! far and what the schemas it applied evaluated. `node.rs` applies a
//! schema; the keyword rooms add to what the walk found.

use super::pattern::Patterns;
use super::violation::Violation;
use bpvm_runtime::Value;

/// What one schema evaluated of one value (JSON Schema's annotations):
/// what `unevaluatedProperties` and `unevaluatedItems` leave alone.
#[derive(Default)]
pub(super) struct Seen<'i> {
    /// The properties evaluated.
    pub props: Vec<&'i str>,
    /// How many items, from the first, were evaluated.
    pub items: usize,
    /// Whether every item was.
    pub all_items: bool,
    /// Items `contains` matched.
    pub matched: Vec<usize>,
}

impl<'i> Seen<'i> {
    pub(super) fn add(&mut self, other: Seen<'i>) {
        self.props.extend(other.props);
        self.items = self.items.max(other.items);
        self.all_items |= other.all_items;
        self.matched.extend(other.matched);
    }
}

/// One walk of values through a schema.
pub(super) struct Walk<'s> {
    pub root: &'s Value,
    pub patterns: &'s Patterns,
    /// Where in the values the walk is: keys, and list indices as digits.
    pub at: Vec<String>,
    /// What the schema refuses, so far.
    pub out: Vec<Violation>,
    /// How many schemas deep the walk is.
    pub depth: usize,
}

impl<'s> Walk<'s> {
    pub(super) fn new(root: &'s Value, patterns: &'s Patterns) -> Walk<'s> {
        Walk {
            root,
            patterns,
            at: Vec::new(),
            out: Vec::new(),
            depth: 0,
        }
    }

    /// `message` about the value where the walk is.
    pub(super) fn fail(&mut self, message: String) {
        self.report(message, None);
    }

    /// `message` about the value where the walk is, with the closest name
    /// the schema allows there.
    pub(super) fn report(&mut self, message: String, suggestion: Option<String>) {
        self.out.push(Violation {
            steps: self.at.clone(),
            message,
            suggestion,
            unknown_key: false,
        });
    }
}
