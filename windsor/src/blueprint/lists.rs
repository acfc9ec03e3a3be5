//! The lists a merge only adds new items to (`dependsOn`, `cleanup`,
//! `components`), while contributions merge into a component in a row:
//! what each list holds is kept from one merge to the next, and sorting
//! `components` waits for the row to end, so each merge costs what it
//! adds rather than what the component already has.

use bpvm_runtime::{Map, Value};
use foldhash::HashSet;
use std::sync::Arc;

/// The keys of the lists, in slot order.
const KEYS: [&str; 3] = ["dependsOn", "cleanup", "components"];

/// Lists up to this long are scanned rather than hashed.
const SCAN_UP_TO: usize = 16;

/// What one list holds: text items by hash, any others (a user overlay
/// may list them) scanned.
#[derive(Default)]
pub struct Held {
    texts: HashSet<Arc<str>>,
    others: Vec<Value>,
}

impl Held {
    /// What `items` holds.
    pub fn of(items: &[Value]) -> Held {
        let mut held = Held::default();
        for x in items {
            held.add(x);
        }
        held
    }

    /// True when an item equal to `x` is held (a text equals only a text).
    pub fn holds(&self, x: &Value) -> bool {
        match x {
            Value::Str(s) => self.texts.contains(s),
            other => self.others.contains(other),
        }
    }

    /// Records `x`; false when an equal item was there.
    fn add(&mut self, x: &Value) -> bool {
        match x {
            Value::Str(s) => self.texts.insert(s.clone()),
            other if self.others.contains(other) => false,
            other => {
                self.others.push(other.clone());
                true
            }
        }
    }
}

/// A component's lists during a row of merges.
#[derive(Default)]
pub struct Lists {
    held: [Option<Held>; 3],
    /// `components` gained items and is not sorted yet.
    unsorted: bool,
}

impl Lists {
    /// Appends to `base[key]` each item of `overlay` (a list) it does not
    /// hold yet; `base[key]` becomes a list if it was something else.
    pub fn append(&mut self, base: &mut Map, key: &str, overlay: &Value) {
        let Some(slot) = KEYS.iter().position(|k| *k == key) else {
            return;
        };
        let extra: &[Value] = match overlay {
            Value::List(items) => items,
            _ => &[],
        };
        if extra.is_empty() && !base.contains_key(key) {
            return;
        }
        if !matches!(base.get(key), Some(Value::List(_))) {
            base.insert(key, Value::List(Vec::new()));
            self.held[slot] = None;
        }
        let Some(Value::List(items)) = base.get_mut(key) else {
            return;
        };
        if self.held[slot].is_none() && items.len() + extra.len() <= SCAN_UP_TO {
            // Short lists are cheaper to scan than to hash.
            for x in extra {
                if !items.contains(x) {
                    items.push(x.clone());
                }
            }
        } else {
            let held = self.held[slot].get_or_insert_with(|| Held::of(items));
            for x in extra {
                if held.add(x) {
                    items.push(x.clone());
                }
            }
        }
        // Kustomization components are kept sorted, as Windsor does.
        self.unsorted |= key == "components";
    }

    /// Ends the row: sorts `components` if it gained items, and forgets
    /// what the lists hold (the component may change another way next).
    pub fn settle(&mut self, base: &mut Map) {
        if self.unsorted
            && let Some(Value::List(items)) = base.get_mut("components")
        {
            // Stable, so sorting once at the end orders as sorting after every merge would.
            items.sort_by(|a, b| a.as_str().unwrap_or("").cmp(b.as_str().unwrap_or("")));
        }
        *self = Lists::default();
    }
}
