//! A schema applied to a value: its `$ref`, then the keywords about the
//! value itself, those that apply other schemas to it, and those about a
//! mapping's properties or a list's items.

use super::walk::{Seen, Walk};
use bpvm_runtime::Value;

/// Deeper than this, a schema is taken to refer to itself without end
/// (`$ref: '#'`): values are at most 64 deep, so real schemas stay far
/// below it.
const DEPTH: usize = 200;

impl<'s> Walk<'s> {
    /// `schema` applied to `v`: what it refuses goes to `out`.
    pub(super) fn node<'i>(&mut self, schema: &'s Value, v: &'i Value) -> Seen<'i> {
        let keywords = match schema {
            Value::Map(m) => m,
            Value::Bool(false) => {
                self.fail(format!("False schema does not allow {}", v.to_json()));
                return Seen::default();
            }
            _ => return Seen::default(),
        };
        if self.depth >= DEPTH {
            self.fail("the schema refers to itself without end here".into());
            return Seen::default();
        }
        self.depth += 1;
        let mut seen = Seen::default();
        if let Some(Value::Str(target)) = keywords.get("$ref") {
            seen.add(self.reference(target, v));
        }
        super::scalars::check(self, keywords, v);
        super::applicators::check(self, keywords, v, &mut seen);
        match v {
            Value::Map(m) => super::objects::check(self, keywords, v, m, &mut seen),
            Value::List(items) => super::arrays::check(self, keywords, v, items, &mut seen),
            _ => {}
        }
        self.depth -= 1;
        seen
    }

    /// `schema` applied to `v` on trial: what it evaluated when it
    /// accepts `v`, `None` when it refuses it (and nothing is reported).
    pub(super) fn trial<'i>(&mut self, schema: &'s Value, v: &'i Value) -> Option<Seen<'i>> {
        let reported = std::mem::take(&mut self.out);
        let seen = self.node(schema, v);
        let accepted = self.out.is_empty();
        self.out = reported;
        accepted.then_some(seen)
    }

    /// `schema` applied to the item or property `step` of the value.
    pub(super) fn under<'i>(&mut self, step: String, schema: &'s Value, v: &'i Value) {
        self.at.push(step);
        self.node(schema, v);
        self.at.pop();
    }

    /// The subschema `$ref` names, applied to `v`.
    fn reference<'i>(&mut self, target: &str, v: &'i Value) -> Seen<'i> {
        match super::refs::resolve(self.root, target) {
            Some(schema) => self.node(schema, v),
            // The schema's form was checked before any walk.
            None => Seen::default(),
        }
    }
}
