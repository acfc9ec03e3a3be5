//! Items kept once each, in the order first seen. A few are compared one
//! by one; past that they get a hash set, so keeping n items is linear
//! and a short list costs no set.

use std::collections::HashSet;
use std::hash::Hash;

/// Lists up to this long are scanned.
const SCAN_UP_TO: usize = 16;

/// Distinct items in first-seen order.
pub(crate) struct Distinct<T> {
    items: Vec<T>,
    /// The items, once there are more than [`SCAN_UP_TO`].
    set: HashSet<T>,
}

impl<T: Eq + Hash + Clone> Distinct<T> {
    pub(crate) fn new() -> Distinct<T> {
        Distinct {
            items: Vec::new(),
            set: HashSet::new(),
        }
    }

    /// Adds `x` unless it is there; true when it was not.
    pub(crate) fn insert(&mut self, x: T) -> bool {
        if self.items.len() < SCAN_UP_TO {
            if self.items.contains(&x) {
                return false;
            }
        } else {
            if self.set.is_empty() {
                self.set.extend(self.items.iter().cloned());
            }
            if !self.set.insert(x.clone()) {
                return false;
            }
        }
        self.items.push(x);
        true
    }

    /// The items, in the order first seen.
    pub(crate) fn into_vec(mut self) -> Vec<T> {
        // What is kept is often kept for as long as the blueprint is.
        self.items.shrink_to_fit();
        self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_first_occurrences_in_order_at_any_length() {
        for n in [5, 100] {
            let mut d = Distinct::new();
            for i in (0..n).chain(0..n).chain([n + 1, 0]) {
                d.insert(i);
            }
            let expected: Vec<usize> = (0..n).chain([n + 1]).collect();
            assert_eq!(d.into_vec(), expected);
        }
    }
}
