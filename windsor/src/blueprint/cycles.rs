//! Dependency cycles, each reported once, from its first member in list
//! order, along the first path a depth-first walk from that member finds.
//!
//! Only members of a cycle start a walk (strongly connected parts, found
//! once, tell which), a walk stays inside its start's part, and a
//! component it has left without finding the start is not entered again:
//! once a component's walk fails, no later walk from it succeeds, so the
//! path found is the one a walk over every path would find first. A list
//! without cycles costs one pass.

/// Each cycle, as positions from the member it starts at.
pub fn cycles(deps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let part = parts(deps);
    let mut size = vec![0usize; deps.len()];
    for &p in &part {
        size[p] += 1;
    }
    let mut reported = vec![false; deps.len()];
    // `left[i] == start + 1`: the walk from `start` left `i` without finding it.
    let mut left = vec![0usize; deps.len()];
    let mut on_path = vec![false; deps.len()];
    let mut out = Vec::new();
    for start in 0..deps.len() {
        let cyclic = size[part[start]] > 1 || deps[start].contains(&start);
        if reported[start] || !cyclic {
            continue;
        }
        if let Some(cycle) = walk(deps, &part, start, &mut left, &mut on_path) {
            for &i in &cycle {
                reported[i] = true;
            }
            out.push(cycle);
        }
    }
    out
}

/// The first path from `start` back to it, depth first in `dependsOn` order.
fn walk(
    deps: &[Vec<usize>],
    part: &[usize],
    start: usize,
    left: &mut [usize],
    on_path: &mut [bool],
) -> Option<Vec<usize>> {
    let mut path = vec![start];
    let mut next = vec![0];
    on_path[start] = true;
    while let (Some(&at), Some(&k)) = (path.last(), next.last()) {
        let Some(&d) = deps[at].get(k) else {
            left[at] = start + 1;
            on_path[at] = false;
            path.pop();
            next.pop();
            continue;
        };
        if let Some(k) = next.last_mut() {
            *k += 1;
        }
        if d == start {
            for &i in &path {
                on_path[i] = false;
            }
            return Some(path);
        }
        if on_path[d] || left[d] == start + 1 || part[d] != part[start] {
            continue;
        }
        on_path[d] = true;
        path.push(d);
        next.push(0);
    }
    None
}

/// The strongly connected part each position belongs to (Tarjan's
/// algorithm, with an explicit stack so long chains cannot overflow).
fn parts(deps: &[Vec<usize>]) -> Vec<usize> {
    const NONE: usize = usize::MAX;
    let n = deps.len();
    let (mut index, mut low, mut part) = (vec![NONE; n], vec![0; n], vec![NONE; n]);
    let (mut stack, mut on_stack) = (Vec::new(), vec![false; n]);
    let (mut next_index, mut next_part) = (0, 0);
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        calls.push((root, 0));
        while let Some(&(v, k)) = calls.last() {
            if k == 0 {
                index[v] = next_index;
                low[v] = next_index;
                next_index += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = deps[v].get(k) {
                if let Some(top) = calls.last_mut() {
                    top.1 += 1;
                }
                if index[w] == NONE {
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(u, _)) = calls.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    part[w] = next_part;
                    if w == v {
                        break;
                    }
                }
                next_part += 1;
            }
        }
    }
    part
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cycle_once_from_its_first_member() {
        // 0 → 1 → 2 → 0, 3 → 3, 4 → 0 (leads into a cycle, is not on one),
        // 5 → 6 → 5 and 5 → 7 → 5.
        let deps = [
            vec![1],
            vec![2],
            vec![0],
            vec![3],
            vec![0],
            vec![6, 7],
            vec![5],
            vec![5],
        ];
        assert_eq!(cycles(&deps), [vec![0, 1, 2], vec![3], vec![5, 6], vec![7, 5]]);
    }

    #[test]
    fn the_walk_takes_the_first_path_in_dependency_order() {
        // 0 → 1 → 3 → 0 is found before 0 → 2 → 0, though longer; 1 → 4
        // is a dead end inside no cycle.
        let deps = [vec![1, 2], vec![4, 3], vec![0], vec![0], vec![]];
        assert_eq!(cycles(&deps), [vec![0, 1, 3], vec![2, 0]]);
    }

    #[test]
    fn a_long_chain_has_no_cycle_and_does_not_overflow() {
        let deps: Vec<Vec<usize>> = (0..200_000)
            .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
            .collect();
        assert!(cycles(&deps).is_empty());
    }
}
