//! Building the document tree: nodes, mappings that refuse a duplicate
//! key, keys shared through the loader's key table, and where the text of
//! each lowered substitution came from.

use super::cursor::{Parsed, fail};
use crate::error::Pos;
use crate::key_table::KeyTable;
use crate::node::{Entry, KeyText, Keys, Kind, Node};
use bpvm_runtime::Value;

/// Where the pieces of lowered substitution text come from in the `.bp`
/// source: for each string made of substitutions (by where its node
/// starts), the byte offsets in its text at which a source expression
/// starts, with that expression's place. Kept flat (one list of strings,
/// one of their pieces): recorded for every substitution, looked up only
/// for a problem or a finding.
#[derive(Debug, Default)]
pub struct Origins {
    /// Each string's node place and its first piece in `pieces`.
    strings: Vec<(Pos, usize)>,
    pieces: Vec<(usize, Pos)>,
}

impl Origins {
    /// The `.bp` place of byte `offset` in the text of the node at `at`:
    /// the start of the innermost expression written there.
    pub fn locate(&self, at: Pos, offset: usize) -> Option<Pos> {
        let k = self.strings.iter().rposition(|(p, _)| *p == at)?;
        let end = self.strings.get(k + 1).map_or(self.pieces.len(), |s| s.1);
        let spans = &self.pieces[self.strings[k].1..end];
        spans
            .iter()
            .rev()
            .find(|(o, _)| *o <= offset)
            .or(spans.first())
            .map(|(_, p)| *p)
    }

    /// Whether nothing was lowered from `.bp` (a YAML or JSON file).
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }

    pub(super) fn record(&mut self, at: Pos, spans: &[(usize, Pos)]) {
        self.strings.push((at, self.pieces.len()));
        self.pieces.extend_from_slice(spans);
    }
}

/// Substitution text being written, and where its pieces come from. One
/// is kept by the [`Builder`] and cleared for each string: lowering a
/// blueprint writes thousands.
#[derive(Debug)]
pub(super) struct Written {
    pub out: String,
    pub spans: Vec<(usize, Pos)>,
}

impl Default for Written {
    /// With room for a usual substitution, grown rarely.
    fn default() -> Written {
        Written {
            out: String::with_capacity(64),
            spans: Vec::with_capacity(4),
        }
    }
}

/// What the parser builds the tree with.
pub(super) struct Builder<'k> {
    pub keys: &'k mut KeyTable,
    pub origins: Origins,
    /// The text being written for a string of substitutions.
    pub written: Written,
}

/// A string scalar.
pub(super) fn text(at: Pos, s: &str) -> Node {
    scalar(at, Value::Str(s.into()))
}

pub(super) fn scalar(at: Pos, v: Value) -> Node {
    Node {
        at,
        kind: Kind::Scalar(v),
    }
}

/// A mapping's entries as they are read, a duplicate key refused (found
/// by hash in a large mapping, as the YAML reader does).
#[derive(Default)]
pub(super) struct Entries(pub Vec<Entry>, Keys);

impl Builder<'_> {
    /// Adds `key: value`, refusing a key already there (`what` names the
    /// kind of key in the message).
    pub(super) fn add(&mut self, entries: &mut Entries, key: &str, key_at: Pos, value: Node, what: &str) -> Parsed<()> {
        let shared = self.keys.key(key);
        if !entries.1.is_new(&shared, &entries.0) {
            let first = entries.0.iter().find(|e| e.key.as_str() == key);
            let at = first.map_or(key_at, |e| e.key_at);
            return fail(
                key_at,
                format!("{what} {key:?} is already given at {}:{}", at.line, at.col),
            );
        }
        entries.0.push(Entry {
            key: KeyText(shared),
            key_at,
            value,
        });
        Ok(())
    }

    /// The mapping of `entries`, starting at `at`.
    pub(super) fn map(at: Pos, entries: Entries) -> Node {
        Node {
            at,
            kind: Kind::Map(entries.0),
        }
    }
}
