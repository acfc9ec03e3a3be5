//! Config blocks (W2, W3): the blocks of the included facets, same-name
//! blocks merged, each evaluated after the blocks it reads and merged into
//! the scope as it is done, so later blocks and the components read it.

use crate::error::{Error, Errors};
use crate::load::facet::Facet;
use crate::template::condition::truth;
use crate::template::tmpl::{Evaluator, Tmpl};
use foldhash::HashMap;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

/// Evaluates the config blocks of `included` into `ev`'s scope.
pub fn evaluate(ev: &mut Evaluator, included: &[&Facet]) -> Result<(), Errors> {
    // Structure first: same-name blocks merge, in facet order.
    let mut layered: Vec<(String, Vec<Tmpl>, &str)> = Vec::new();
    let mut named: HashMap<&str, usize> = HashMap::default();
    for f in included {
        for b in &f.config {
            if let Some(c) = &b.when {
                let yes = truth(ev, c).map_err(|m| Error::new(Some(&f.file), format!("config[{}].when", b.name), m))?;
                if !yes {
                    continue;
                }
            }
            match named.get(b.name.as_str()) {
                Some(&i) => layered[i].1.push(b.body.clone()),
                None => {
                    named.insert(&b.name, layered.len());
                    layered.push((b.name.clone(), vec![b.body.clone()], &f.file));
                }
            }
        }
    }
    let blocks: Vec<(String, Tmpl, &str)> = layered
        .into_iter()
        .map(|(name, layers, file)| (name, Tmpl::merged(layers), file))
        .collect();
    if blocks.is_empty() {
        return Ok(());
    }
    let names: Vec<&str> = blocks.iter().map(|(n, _, _)| n.as_str()).collect();
    let reads: Vec<Vec<usize>> = blocks
        .iter()
        .map(|(n, body, _)| {
            let mut roots = BTreeSet::new();
            body.roots(&mut roots);
            roots
                .iter()
                .filter(|r| *r != n)
                .filter_map(|r| named.get(r.as_str()).copied())
                .collect()
        })
        .collect();
    let order = order(&names, &reads)?;

    // The scope holds real values; what the blocks compute from a secret
    // is marked, to be masked where the output reads it.
    ev.secrecy.masking = false;
    for i in order {
        let (name, body, file) = &blocks[i];
        let v = body.eval(ev).map_err(|e| {
            ev.secrecy.masking = true;
            Error::new(Some(file), format!("config[{name}]{}", e.at), e.diag)
        })?;
        ev.merge_into_scope(name, v);
        body.taint(&mut ev.secrecy, &[name]);
    }
    ev.secrecy.masking = true;
    Ok(())
}

/// Blocks after the blocks they read; among blocks ready together, the
/// first to appear. A cycle is an error naming its blocks.
fn order(names: &[&str], reads: &[Vec<usize>]) -> Result<Vec<usize>, Errors> {
    let mut readers = vec![Vec::new(); names.len()];
    for (i, r) in reads.iter().enumerate() {
        for &d in r {
            readers[d].push(i);
        }
    }
    let mut waiting: Vec<usize> = reads.iter().map(Vec::len).collect();
    let mut ready: BinaryHeap<Reverse<usize>> = (0..names.len()).filter(|&i| waiting[i] == 0).map(Reverse).collect();
    let mut order = Vec::with_capacity(names.len());
    while let Some(Reverse(i)) = ready.pop() {
        order.push(i);
        for &r in &readers[i] {
            waiting[r] -= 1;
            if waiting[r] == 0 {
                ready.push(Reverse(r));
            }
        }
    }
    if order.len() == names.len() {
        return Ok(order);
    }
    // Follow unfinished reads from the first waiting block until one repeats.
    let mut on_path = vec![None; names.len()];
    let mut path = vec![(0..names.len()).find(|&i| waiting[i] > 0).unwrap_or(0)];
    on_path[path[0]] = Some(0);
    while let Some(&next) = reads[path[path.len() - 1]].iter().find(|&&d| waiting[d] > 0) {
        if let Some(start) = on_path[next] {
            let mut cycle: Vec<&str> = path[start..].iter().map(|&i| names[i]).collect();
            cycle.push(names[next]);
            return Err(Error::new(
                None,
                format!("config[{}]", names[next]),
                format!("config blocks read each other in a cycle: {}", cycle.join(" → ")),
            )
            .into());
        }
        on_path[next] = Some(path.len());
        path.push(next);
    }
    Err(Error::new(None, "config", "config blocks cannot be ordered").into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ready_blocks_go_in_appearance_order() {
        // c reads b, b reads a; d reads nothing.
        let order = order(&["c", "b", "a", "d"], &[vec![1], vec![2], vec![], vec![]]).unwrap();
        assert_eq!(order, [2, 1, 0, 3]);
    }

    #[test]
    fn a_cycle_is_named_from_where_the_walk_meets_it() {
        // a reads b, b reads c, c reads b.
        let e = order(&["a", "b", "c"], &[vec![1], vec![2], vec![1]]).unwrap_err();
        assert_eq!(
            e.0[0].described(),
            "config[b]: config blocks read each other in a cycle: b → c → b"
        );
    }
}
