//! How deeply a value built during evaluation nests. Most values are no
//! deeper than the expression that builds them, but an accumulator (a
//! `reduce`, a `compose` of many functions) can wrap its value once per
//! item; checking it keeps every walk over values (printing, comparing,
//! copying out) within the stack.

use crate::val::Val;
use std::collections::HashMap;

/// Whether `v` has more than `limit` levels of lists and maps built
/// during evaluation.
///
/// A document (`Val::Doc`) inside counts as one level and is not looked
/// into: documents are bounded when they are read, and can be large. A
/// list or map reached along several paths is looked at once, so this
/// takes time in proportion to the distinct lists and maps built, however
/// they share each other.
///
/// ```
/// use bpvm_runtime::Val;
/// use bpvm_runtime::nesting::deeper_than;
/// let one = [Val::Int(1)];
/// let two = [Val::List(&one), Val::List(&one)];
/// assert!(!deeper_than(Val::List(&two), 2));
/// assert!(deeper_than(Val::List(&two), 1));
/// assert!(!deeper_than(Val::Int(7), 0));
/// ```
pub fn deeper_than(v: Val<'_>, limit: usize) -> bool {
    if children(v).is_none() {
        return false;
    }
    // Heights of the lists and maps finished so far, by address.
    let mut heights: HashMap<usize, usize> = HashMap::new();
    // The path from `v` down, each with the next child to look at and
    // the tallest child so far.
    let mut path: Vec<(Val<'_>, usize, usize)> = vec![(v, 0, 0)];
    while let Some(&mut (node, next, tallest)) = path.last_mut() {
        let kids = children(node).unwrap_or(Children::List(&[]));
        match kids.get(next) {
            Some(child) => {
                if let Some(top) = path.last_mut() {
                    top.1 += 1;
                }
                let height = match child {
                    Val::Doc(_) => Some(1),
                    _ => match children(child) {
                        None => Some(0),
                        Some(_) => heights.get(&address(child)).copied(),
                    },
                };
                match height {
                    Some(h) => {
                        if let Some(top) = path.last_mut() {
                            top.2 = top.2.max(h);
                        }
                    }
                    None if path.len() >= limit => return true,
                    None => path.push((child, 0, 0)),
                }
            }
            None => {
                let height = tallest + 1;
                if height > limit {
                    return true;
                }
                heights.insert(address(node), height);
                path.pop();
                if let Some(parent) = path.last_mut() {
                    parent.2 = parent.2.max(height);
                }
            }
        }
    }
    false
}

/// The items of a list or the values of a map built during evaluation.
#[derive(Clone, Copy)]
enum Children<'v, 'a> {
    List(&'v [Val<'a>]),
    Map(&'v [(&'a str, Val<'a>)]),
}

impl<'a> Children<'_, 'a> {
    fn get(self, i: usize) -> Option<Val<'a>> {
        match self {
            Children::List(items) => items.get(i).copied(),
            Children::Map(entries) => entries.get(i).map(|(_, v)| *v),
        }
    }
}

fn children<'a>(v: Val<'a>) -> Option<Children<'a, 'a>> {
    match v {
        Val::List(items) => Some(Children::List(items)),
        Val::Map(entries) => Some(Children::Map(entries)),
        _ => None,
    }
}

/// Where a list's or map's items are: the same items, the same value.
fn address(v: Val<'_>) -> usize {
    match v {
        Val::List(items) => items.as_ptr() as usize,
        Val::Map(entries) => entries.as_ptr() as usize,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bumpalo::Bump;

    /// `[[[…1…]]]`, `n` levels, built in `arena`.
    fn nested(arena: &Bump, n: usize) -> Val<'_> {
        let mut v = Val::Int(1);
        for _ in 0..n {
            v = Val::List(arena.alloc_slice_copy(&[v]));
        }
        v
    }

    #[test]
    fn counts_levels_of_lists_and_maps() {
        let arena = Bump::new();
        let v = nested(&arena, 64);
        assert!(!deeper_than(v, 64));
        assert!(deeper_than(v, 63));
        let m = Val::Map(arena.alloc_slice_copy(&[("k", v)]));
        assert!(deeper_than(m, 64));
    }

    #[test]
    fn shared_parts_are_looked_at_once() {
        // Each level holds the one below twice: 2^200 paths, 200 lists.
        let arena = Bump::new();
        let mut v = Val::Int(1);
        for _ in 0..200 {
            v = Val::List(arena.alloc_slice_copy(&[v, v]));
        }
        assert!(deeper_than(v, 199));
        assert!(!deeper_than(v, 200));
    }

    #[test]
    fn a_very_deep_value_is_found_without_recursion() {
        let arena = Bump::new();
        assert!(deeper_than(nested(&arena, 1_000_000), 64));
    }
}
