//! Whether a link of a revision's tree stays inside the folder written:
//! its target resolved through the tree's other links, as the system
//! would resolve it once written.

use std::collections::{HashMap, VecDeque};

/// Links followed while resolving one, at most (Linux's own limit).
const HOPS: usize = 40;

/// Whether the link at `path` (its folder's components, `/`-separated),
/// resolved through `links` (every link of the tree: path → target),
/// stays inside the tree's top folder. Absolute targets never do.
///
/// ```text
/// inside(&links, "a/l")  with a/l -> ../b        : true
/// inside(&links, "a/l")  with a/l -> ../../etc   : false
/// inside(&links, "l")    with l -> x/.., x -> .  : false (x/.. is above the top)
/// ```
pub(crate) fn inside(links: &HashMap<String, String>, path: &str) -> bool {
    let mut at: Vec<&str> = path.split('/').collect();
    at.pop();
    let Some(target) = links.get(path) else { return true };
    let mut pending: VecDeque<&str> = VecDeque::new();
    if !push_target(&mut pending, target) {
        return false;
    }
    let mut hops = 0;
    while let Some(part) = pending.pop_front() {
        match part {
            "" | "." => {}
            ".." => {
                if at.pop().is_none() {
                    return false;
                }
            }
            name => {
                at.push(name);
                if let Some(next) = links.get(&at.join("/")) {
                    hops += 1;
                    at.pop();
                    if hops > HOPS || !push_target(&mut pending, next) {
                        return false;
                    }
                }
            }
        }
    }
    true
}

/// `target`'s parts put first in `pending`; false when it is absolute.
fn push_target<'t>(pending: &mut VecDeque<&'t str>, target: &'t str) -> bool {
    let absolute = target.starts_with('/') || target.starts_with('\\') || target.get(1..2) == Some(":");
    if absolute {
        return false;
    }
    for part in target.split(['/', '\\']).rev() {
        pending.push_front(part);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(p, t)| (p.to_string(), t.to_string())).collect()
    }

    #[test]
    fn targets_inside_and_outside() {
        let l = links(&[
            ("a/up", "../b"),
            ("a/out", "../../etc"),
            ("abs", "/etc/passwd"),
            ("drive", "C:/x"),
            ("dot", "."),
            ("sneaky", "dot/.."),
            ("loop1", "loop2"),
            ("loop2", "loop1"),
            ("deep/x", "../a/up"),
        ]);
        assert!(inside(&l, "a/up"));
        assert!(!inside(&l, "a/out"));
        assert!(!inside(&l, "abs"));
        assert!(!inside(&l, "drive"));
        assert!(inside(&l, "dot"));
        assert!(!inside(&l, "sneaky"), "dot is the top, so dot/.. is above it");
        assert!(!inside(&l, "loop1"), "a loop never ends inside");
        assert!(inside(&l, "deep/x"));
    }
}
