//! Config blocks, Windsor v0.9 rules: the blocks of the facets a round
//! includes are merged *as written* (a higher ordinal's expression
//! replaces a lower one's before anything runs), then evaluated once,
//! blocks after the blocks they read and, inside a map block, keys after
//! the sibling keys they read. A key reading itself sees the context's
//! value, so `x: ${x ?? default}` defaults what the operator left unset.

use crate::blueprint::merge::{is_empty, merge_preserving, put_preserving};
use crate::error::{Error, Errors};
use crate::kind::Strategy;
use crate::load::facet::Facet;
use crate::template::tmpl::{Evaluator, Tmpl};
use bpvm_runtime::{Key, Map, Value};
use foldhash::HashMap;
use std::collections::BTreeSet;

/// One block name's merged body, and what decided it.
struct Raw<'f> {
    name: String,
    body: Tmpl,
    strategy: Strategy,
    ordinal: i64,
    file: &'f str,
}

/// The blocks of one round, merged as written.
#[derive(Default)]
pub struct Config<'f> {
    blocks: Vec<Raw<'f>>,
    at: HashMap<String, usize>,
}

impl<'f> Config<'f> {
    /// Adds facet `f`'s blocks whose conditions hold. Each condition reads
    /// `ev`'s scope with the keys its block writes reset to the context's
    /// (`ctx`), so a "default when unset" guard tests the operator's value.
    pub fn add(&mut self, ev: &mut Evaluator, ctx: &Map, f: &'f Facet) -> Result<(), Error> {
        // Same-name blocks of one facet combine first, in list order.
        let mut mine: Vec<(String, Vec<Tmpl>, Strategy, i64)> = Vec::new();
        for b in &f.config {
            if let Some(c) = &b.when {
                let blind = blinded(ev, ctx, &b.name, &b.body, c);
                let yes = crate::template::condition::holds(ev, c);
                if let Some(saved) = blind {
                    ev.put(&b.name, saved);
                }
                let yes = yes.map_err(|m| Error::new(Some(&f.file), format!("config[{}].when", b.name), m))?;
                if !yes {
                    continue;
                }
            }
            let ordinal = b.ordinal.unwrap_or(f.ordinal);
            match mine.iter_mut().find(|(n, ..)| *n == b.name) {
                Some(m) => {
                    m.1.push(b.body.clone());
                    m.2 = b.strategy;
                    m.3 = ordinal;
                }
                None => mine.push((b.name.clone(), vec![b.body.clone()], b.strategy, ordinal)),
            }
        }
        for (name, layers, strategy, ordinal) in mine {
            let body = Tmpl::merged(layers);
            let Some(&i) = self.at.get(&name) else {
                self.at.insert(name.clone(), self.blocks.len());
                self.blocks.push(Raw {
                    name,
                    body,
                    strategy,
                    ordinal,
                    file: &f.file,
                });
                continue;
            };
            let old = &mut self.blocks[i];
            if ordinal < old.ordinal || (ordinal == old.ordinal && strategy.rank() < old.strategy.rank()) {
                continue;
            }
            old.body = match strategy {
                Strategy::Merge => Tmpl::merged(vec![std::mem::replace(&mut old.body, Tmpl::Lit(Value::Null)), body]),
                Strategy::Replace | Strategy::Remove => body,
            };
            old.strategy = strategy;
            old.ordinal = ordinal;
            old.file = &f.file;
        }
        Ok(())
    }

    /// Evaluates the blocks into `ev`'s scope, which must hold the context
    /// values (`ctx`) and nothing else yet.
    /// The scope holds real values; what the blocks compute from a secret
    /// is marked, to be masked where the output reads it.
    pub fn evaluate(&self, ev: &mut Evaluator, ctx: &Map) -> Result<(), Errors> {
        ev.secrecy.masking = false;
        let result = self.evaluate_real(ev, ctx);
        ev.secrecy.masking = true;
        result
    }

    fn evaluate_real(&self, ev: &mut Evaluator, ctx: &Map) -> Result<(), Errors> {
        let live: Vec<&Raw> = self.blocks.iter().filter(|b| b.strategy != Strategy::Remove).collect();
        let order = order(&live)?;
        for i in order {
            let b = live[i];
            let fail = |at: String, m: crate::Why| Error::new(Some(b.file), format!("config[{}]{at}", b.name), m);
            let own = ctx.get(&b.name).cloned();
            match &b.body {
                Tmpl::Map(entries) => {
                    // The block's own entry grows key by key, in place:
                    // a key reads the siblings evaluated before it.
                    let start = match own {
                        Some(v @ Value::Map(_)) => v,
                        _ => Value::Map(Map::new()),
                    };
                    ev.put(&b.name, Some(start));
                    for k in key_order(&b.name, entries) {
                        let (key, t) = &entries[k];
                        let v = t
                            .eval(ev)
                            .map_err(|e| fail(format!(".value.{key}{}", e.at), e.diag.into()))?;
                        if let Some(Value::Map(m)) = ev.scope_get_mut(&b.name) {
                            put_preserving(m, &Key::new(key), &v);
                        }
                        t.taint(&mut ev.secrecy, &[&b.name, key]);
                    }
                }
                body => {
                    let v = body
                        .eval(ev)
                        .map_err(|e| fail(format!(".value{}", e.at), e.diag.into()))?;
                    let v = match (own, v) {
                        (Some(Value::Map(mut base)), Value::Map(over)) => {
                            merge_preserving(&mut base, &over);
                            Value::Map(base)
                        }
                        (Some(base), over) if is_empty(&over) && !is_empty(&base) && base != Value::Null => base,
                        (_, over) => over,
                    };
                    ev.put(&b.name, Some(v));
                    body.taint(&mut ev.secrecy, &[&b.name]);
                }
            }
        }
        Ok(())
    }
}

/// Resets, in `ev`'s scope, the keys block `name` writes to their context
/// values, when condition `c` reads the block; gives back what was there.
fn blinded(
    ev: &mut Evaluator,
    ctx: &Map,
    name: &str,
    body: &Tmpl,
    c: &crate::template::condition::Cond,
) -> Option<Option<Value>> {
    if !c.prog.roots().contains(&name) {
        return None;
    }
    let saved = ev.scope_get(name).cloned();
    let own = ctx.get(name);
    let blind = match (body, &saved) {
        (Tmpl::Map(_) | Tmpl::Lit(Value::Map(_)), Some(Value::Map(now))) => {
            let mut m = now.clone();
            for k in written_keys(body) {
                match own.and_then(Value::as_map).and_then(|o| o.get(&k)) {
                    Some(v) => {
                        m.insert(k.as_str(), v.clone());
                    }
                    None => {
                        m.remove(&k);
                    }
                }
            }
            Some(Value::Map(m))
        }
        _ => own.cloned(),
    };
    ev.put(name, blind);
    Some(saved)
}

fn written_keys(body: &Tmpl) -> Vec<String> {
    match body {
        Tmpl::Map(entries) => entries.iter().map(|(k, _)| k.to_string()).collect(),
        Tmpl::Lit(Value::Map(m)) => m.keys().map(|k| k.as_str().to_string()).collect(),
        _ => Vec::new(),
    }
}

/// The second steps of the paths `t` reads under `name` (`name.k…` → k).
fn reads_under(name: &str, t: &Tmpl, out: &mut BTreeSet<String>) {
    match t {
        Tmpl::Lit(_) => {}
        Tmpl::Text { prog, .. } => {
            for (first, second) in &prog.reads {
                if let Some(second) = second
                    && &**first == name
                {
                    out.insert(second.to_string());
                }
            }
        }
        Tmpl::List(items) => items.iter().for_each(|x| reads_under(name, x, out)),
        Tmpl::Map(entries) => entries.iter().for_each(|(_, x)| reads_under(name, x, out)),
    }
}

/// The keys of a map block, each after the sibling keys it reads (a
/// depth-first walk in document order; where keys read each other, the
/// one reached second goes first and sees the context's value).
fn key_order(name: &str, entries: &[(Box<str>, Tmpl)]) -> Vec<usize> {
    let index: HashMap<&str, usize> = entries.iter().enumerate().map(|(i, (k, _))| (&**k, i)).collect();
    let reads: Vec<Vec<usize>> = entries
        .iter()
        .enumerate()
        .map(|(i, (_, t))| {
            let mut keys = BTreeSet::new();
            reads_under(name, t, &mut keys);
            keys.iter()
                .filter_map(|k| index.get(k.as_str()).copied())
                .filter(|&j| j != i)
                .collect()
        })
        .collect();
    let mut state = vec![0u8; entries.len()]; // 0 new, 1 on the path, 2 done
    let mut out = Vec::with_capacity(entries.len());
    fn visit(i: usize, reads: &[Vec<usize>], state: &mut [u8], out: &mut Vec<usize>) {
        if state[i] != 0 {
            return;
        }
        state[i] = 1;
        for &j in &reads[i] {
            visit(j, reads, state, out);
        }
        state[i] = 2;
        out.push(i);
    }
    for i in 0..entries.len() {
        visit(i, &reads, &mut state, &mut out);
    }
    out
}

/// Blocks after the blocks they read; blocks ready together by name. A
/// cycle is an error naming every block left waiting.
fn order(blocks: &[&Raw]) -> Result<Vec<usize>, Errors> {
    let index: HashMap<&str, usize> = blocks.iter().enumerate().map(|(i, b)| (b.name.as_str(), i)).collect();
    let mut waiting = vec![0usize; blocks.len()];
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    for (i, b) in blocks.iter().enumerate() {
        let mut roots = BTreeSet::new();
        b.body.roots(&mut roots);
        for r in roots.iter().filter(|r| **r != b.name) {
            if let Some(&j) = index.get(r.as_str()) {
                waiting[i] += 1;
                readers[j].push(i);
            }
        }
    }
    let mut ready: BTreeSet<(&str, usize)> = (0..blocks.len())
        .filter(|&i| waiting[i] == 0)
        .map(|i| (blocks[i].name.as_str(), i))
        .collect();
    let mut out = Vec::with_capacity(blocks.len());
    while let Some(first) = ready.pop_first() {
        out.push(first.1);
        for &r in &readers[first.1] {
            waiting[r] -= 1;
            if waiting[r] == 0 {
                ready.insert((blocks[r].name.as_str(), r));
            }
        }
    }
    if out.len() == blocks.len() {
        return Ok(out);
    }
    let mut names: Vec<&str> = (0..blocks.len())
        .filter(|&i| waiting[i] > 0)
        .map(|i| blocks[i].name.as_str())
        .collect();
    names.sort_unstable();
    Err(Error::new(
        None,
        "config",
        format!("circular reference among config blocks: {}", names.join(", ")),
    )
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::compiler_for;

    fn entries(yaml: &str) -> Vec<(Box<str>, Tmpl)> {
        let v = Value::from_yaml(yaml).unwrap();
        match Tmpl::compile(&v, &compiler_for(true)).unwrap() {
            Tmpl::Map(e) => e,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keys_follow_the_siblings_they_read() {
        // c reads b, b reads a; d reads itself only; a reads another block.
        let e = entries("{c: '${n.b}', b: '${n.a.x}', d: '${n.d ?? 1}', a: '${other.a}'}");
        let order: Vec<&str> = key_order("n", &e).into_iter().map(|i| &*e[i].0).collect();
        assert_eq!(order, ["a", "b", "c", "d"]);
        // Keys that read each other: the walk from the first meets the
        // cycle, and what it reads goes first (it sees the context's
        // value of the other).
        let e = entries("{x: '${n.y}', y: '${n.x}'}");
        let order: Vec<&str> = key_order("n", &e).into_iter().map(|i| &*e[i].0).collect();
        assert_eq!(order, ["y", "x"]);
    }
}
