//! Rewrites of finished bytecode that make it shorter to run:
//!
//! - a jump to an unconditional jump goes straight to the final target;
//! - a jump to `Return` is a `Return`;
//! - `Load path`, a constant, a comparison and a conditional jump become
//!   one [`Op::JumpIf`] / [`Op::JumpUnless`], so a `when` condition such
//!   as `provider == 'aws' && cluster.enabled == true` runs as a chain of
//!   fused tests that never touch the value stack;
//! - a program that is one such comparison (`provider == 'aws'`, most
//!   one-line `when` conditions) returns its result through a jump, so
//!   that it becomes a fused test too and runs as a decision.

use bpvm_runtime::Value;
use bpvm_vm::{Access, Op, Program, Seg, Site, Test, has_jumps};
use smallvec::SmallVec;
use std::collections::HashMap;

/// Applies every rewrite, in an order where each one helps the next.
pub fn optimize(prog: &mut Program) {
    // Every rewrite but `decide_comparison` starts from a jump: most
    // templates have none, and are spared the passes' bookkeeping.
    let mut scratch = Scratch::default();
    if has_jumps(&prog.code) {
        thread_jumps(&mut prog.code);
        return_early(&mut prog.code);
        coalesce(prog, &mut scratch);
        default_loads(prog, &mut scratch);
    }
    decide_comparison(prog);
    if has_jumps(&prog.code) {
        fuse_tests(prog, &mut scratch);
    }
}

/// The tables the passes build, kept from one pass to the next: each
/// pass would otherwise allocate its own, and on a short `when` those
/// allocations were a tenth of compiling it.
#[derive(Default)]
struct Scratch {
    /// The instructions (and the end) a jump lands on.
    targeted: Targets,
    /// The runs the pass fuses.
    fusions: SmallVec<[Fusion; 8]>,
    /// Where each instruction moved to ([`relocate`]).
    moved: SmallVec<[u32; 64]>,
}

impl Scratch {
    /// Marks the instructions of `code` a jump lands on (a run that
    /// something jumps into the middle of cannot become one instruction),
    /// and forgets the last pass's fusions.
    fn start(&mut self, code: &[Op]) {
        self.fusions.clear();
        self.targeted.clear(code.len() + 1);
        for op in code {
            if let Some(t) = op.target() {
                self.targeted.insert((t as usize).min(code.len()));
            }
        }
    }

    /// Replaces the fused runs found, if any.
    fn relocate(&mut self, prog: &mut Program) {
        if !self.fusions.is_empty() {
            relocate(prog, &self.fusions, &mut self.moved);
        }
    }
}

/// A set of instruction indexes, one bit each: cleared and filled once
/// per pass, which a table of bools made cost a sixth of the passes on a
/// short `when`.
#[derive(Default)]
struct Targets {
    words: SmallVec<[u64; 2]>,
}

impl Targets {
    /// Empties the set, sized for indexes below `len`.
    fn clear(&mut self, len: usize) {
        self.words.clear();
        self.words.resize(len.div_ceil(64), 0);
    }

    fn insert(&mut self, i: usize) {
        if let Some(w) = self.words.get_mut(i / 64) {
            *w |= 1 << (i % 64);
        }
    }

    fn contains(&self, i: usize) -> bool {
        self.words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// `Load a; JumpIfNotNil →next; Load b` (`a ?? b`, two paths) becomes
/// one `Load` of a coalesced path ([`bpvm_vm::Path::otherwise`]), which
/// can then be fused into a test (`(platform ?? provider) != 'none'`).
/// `b` must be one root key, which cannot fail: an error reading `a` is
/// still reported where `a` is.
fn coalesce(prog: &mut Program, scratch: &mut Scratch) {
    scratch.start(&prog.code);
    let targeted = &scratch.targeted;
    let plain = |prog: &Program, p: u32| fusable(prog, p) && prog.paths[p as usize].otherwise.is_none();
    let mut i = 0;
    while i + 2 < prog.code.len() {
        let run = match prog.code[i..i + 3] {
            [Op::Load(a), Op::JumpIfNotNil(t), Op::Load(b)] if t as usize == i + 3 => Some((a, b)),
            _ => None,
        };
        let Some((a, b)) = run else {
            i += 1;
            continue;
        };
        let one_key = prog.paths.get(b as usize).is_some_and(|p| p.segs.len() == 1);
        if !plain(prog, a) || !plain(prog, b) || !one_key || targeted.contains(i + 1) || targeted.contains(i + 2) {
            i += 1;
            continue;
        }
        let first = &prog.paths[a as usize];
        let mut path = bpvm_vm::Path::new(first.segs.clone(), Access::Optional, first.span);
        path.otherwise = Some(b);
        let Ok(index) = u32::try_from(prog.paths.len()) else {
            break;
        };
        prog.paths.push(path);
        scratch.fusions.push(Fusion {
            at: i,
            len: 3,
            op: Op::Load(index),
            site: 0,
        });
        i += 3;
    }
    scratch.relocate(prog);
}

/// `Load p; JumpIfNotNil →next; Const k` (`p ?? 'default'`) becomes one
/// [`Op::LoadOr`]. Errors reading `p` are still reported at the `Load`.
fn default_loads(prog: &mut Program, scratch: &mut Scratch) {
    scratch.start(&prog.code);
    let code = &prog.code;
    let targeted = &scratch.targeted;
    let mut i = 0;
    while i + 2 < code.len() {
        if let [Op::Load(p), Op::JumpIfNotNil(t), Op::Const(c)] = code[i..i + 3]
            && t as usize == i + 3
            && !targeted.contains(i + 1)
            && !targeted.contains(i + 2)
            && let (Ok(path), Ok(c)) = (u16::try_from(p), u16::try_from(c))
        {
            scratch.fusions.push(Fusion {
                at: i,
                len: 3,
                op: Op::LoadOr { path, c },
                site: 0,
            });
            i += 3;
        } else {
            i += 1;
        }
    }
    scratch.relocate(prog);
}

/// `Load p; <compare with a constant>; Return` as the whole program
/// becomes `…; JumpIfFalse F; True; Return; F: False; Return`, which
/// [`fuse_tests`] turns into a decision. A comparison is always a bool,
/// so the result is the same; only a path that cannot fail is rewritten
/// (as `fuse_tests` would fuse it).
fn decide_comparison(prog: &mut Program) {
    let code = &prog.code;
    let compares = match code.as_slice() {
        [Op::Load(p), Op::EqConst(_) | Op::NeConst(_), Op::Return] => Some(*p),
        [Op::Load(p), Op::Const(_) | Op::Int(_), cmp, Op::Return] if test_of(*cmp).is_some() => Some(*p),
        _ => None,
    };
    let Some(path) = compares else { return };
    if !fusable(prog, path) {
        return;
    }
    let body = code.len() - 1;
    prog.sites.resize(code.len(), Site::default());
    let compare_site = prog.sites[body - 1];
    let return_site = prog.sites[body];
    let end = (body + 4) as u32;
    prog.code.truncate(body);
    prog.sites.truncate(body);
    for (op, site) in [
        (Op::JumpIfFalse(end - 1), compare_site),
        (Op::True, return_site),
        (Op::Return, return_site),
        (Op::False, return_site),
        (Op::Return, return_site),
    ] {
        prog.code.push(op);
        prog.sites.push(site);
    }
}

/// Retargets every jump that lands on an unconditional jump to that
/// jump's destination (bounded, so a cycle cannot loop forever).
fn thread_jumps(code: &mut [Op]) {
    for i in 0..code.len() {
        let Some(target) = code[i].target() else { continue };
        if matches!(code[i], Op::LoopNext(_)) {
            continue;
        }
        let mut t = target;
        for _ in 0..16 {
            match code.get(t as usize) {
                Some(Op::Jump(next)) if *next != t => t = *next,
                _ => break,
            }
        }
        if t != target
            && let Some(op) = code[i].retarget(t)
        {
            code[i] = op;
        }
    }
}

/// `Jump` to a `Return` returns at once.
fn return_early(code: &mut [Op]) {
    for i in 0..code.len() {
        if let Op::Jump(t) = code[i]
            && code.get(t as usize) == Some(&Op::Return)
        {
            code[i] = Op::Return;
        }
    }
}

/// Whether path `p` may be read inside a fused test: optional keys all
/// the way, so reading it cannot fail (a fused test reports its errors
/// at the comparison).
fn fusable(prog: &Program, p: u32) -> bool {
    prog.paths
        .get(p as usize)
        .is_some_and(|p| p.access == Access::Optional && p.segs.iter().all(|s| matches!(s, Seg::Key(..))))
}

/// A run of instructions that becomes one.
struct Fusion {
    at: usize,
    len: usize,
    op: Op,
    /// Which instruction of the run the new one takes its site from.
    site: usize,
}

fn fuse_tests(prog: &mut Program, scratch: &mut Scratch) {
    scratch.start(&prog.code);
    let code = &prog.code;
    let targeted = &scratch.targeted;
    let mut numbers = Numbers::default();
    let mut i = 0;
    while i < code.len() {
        match fusion_at(prog, targeted, i) {
            Some((len, path, test, c, jump)) => {
                let c = match c {
                    Konst::Index(c) => c,
                    Konst::Int(n) => numbers.index(&mut prog.consts, n.into()),
                };
                let (Ok(path), Ok(c)) = (u16::try_from(path), u16::try_from(c)) else {
                    i += 1;
                    continue;
                };
                // Typed by its constant, so the machine compares in place.
                let test = prog.consts.get(c as usize).map_or(test, |k| test.for_constant(k));
                let op = match jump {
                    Op::JumpIfTrue(t) => Op::JumpIf {
                        path,
                        test,
                        c,
                        to: t as u16,
                    },
                    _ => Op::JumpUnless {
                        path,
                        test,
                        c,
                        to: jump.target().unwrap_or(0) as u16,
                    },
                };
                // Errors are reported at the comparison.
                scratch.fusions.push(Fusion {
                    at: i,
                    len,
                    op,
                    site: len - 2,
                });
                i += len;
            }
            None => i += 1,
        }
    }
    scratch.relocate(prog);
}

/// The constant a fused test compares against.
enum Konst {
    Index(u32),
    Int(i32),
}

/// A fusable run at `i`: its length, the path, the test, the constant
/// and the conditional jump that ends it.
fn fusion_at(prog: &Program, targeted: &Targets, i: usize) -> Option<(usize, u32, Test, Konst, Op)> {
    let code = &prog.code;
    let Op::Load(path) = *code.get(i)? else { return None };
    if !fusable(prog, path) {
        return None;
    }
    let (len, test, konst) = match (code.get(i + 1)?, code.get(i + 2)?) {
        (Op::EqConst(c), _) => (3, Test::Eq, Konst::Index(*c)),
        (Op::NeConst(c), _) => (3, Test::Ne, Konst::Index(*c)),
        (Op::Const(c), cmp) => (4, test_of(*cmp)?, Konst::Index(*c)),
        (Op::Int(n), cmp) => (4, test_of(*cmp)?, Konst::Int(*n)),
        _ => return None,
    };
    let jump = *code.get(i + len - 1)?;
    if !matches!(jump, Op::JumpIfTrue(t) | Op::JumpIfFalse(t) if t <= u16::MAX as u32) {
        return None;
    }
    // Nothing may jump into the middle of the run.
    if (i + 1..i + len).any(|j| targeted.contains(j)) {
        return None;
    }
    Some((len, path, test, konst, jump))
}

fn test_of(op: Op) -> Option<Test> {
    Some(match op {
        Op::Eq => Test::Eq,
        Op::Ne => Test::Ne,
        Op::Lt => Test::Lt,
        Op::Le => Test::Le,
        Op::Gt => Test::Gt,
        Op::Ge => Test::Ge,
        _ => return None,
    })
}

/// Where in the constant table each number first is, found once rather
/// than by a scan per fused test (a program can have a million).
#[derive(Default)]
struct Numbers(Option<HashMap<u64, u32>>);

impl Numbers {
    /// The index of the first constant equal (`==`, so `1.0` too) to the
    /// integer `n`, added when there is none.
    fn index(&mut self, consts: &mut Vec<Value>, n: i64) -> u32 {
        let first = self.0.get_or_insert_with(|| {
            let mut first = HashMap::new();
            for (i, c) in consts.iter().enumerate() {
                if let Some(k) = number_key(c) {
                    first.entry(k).or_insert(i as u32);
                }
            }
            first
        });
        let v = Value::Int(n);
        let key = number_key(&v).unwrap_or_default();
        if let Some(&i) = first.get(&key)
            && consts[i as usize] == v
        {
            return i;
        }
        // A different number with the same key (two ints that are the
        // same float) holds it: look further, as a scan would.
        if let Some(i) = consts.iter().position(|c| *c == v) {
            return i as u32;
        }
        consts.push(v);
        let i = (consts.len() - 1) as u32;
        first.entry(key).or_insert(i);
        i
    }
}

/// A number's value as float bits, `-0.0` as `0.0` (they are equal).
fn number_key(v: &Value) -> Option<u64> {
    match v {
        Value::Int(i) => Some((*i as f64).to_bits()),
        Value::Float(f) if !f.is_nan() => Some((f + 0.0).to_bits()),
        _ => None,
    }
}

/// Replaces each fused run by its one instruction, keeping the site of
/// the comparison (where a fused test's errors point), and moves every
/// jump target to the instruction's new position.
fn relocate(prog: &mut Program, fusions: &[Fusion], moved: &mut SmallVec<[u32; 64]>) {
    let len = prog.code.len();
    prog.sites.resize(len, Site::default());
    // Every entry is written below before it is read: the table only
    // grows, and is not cleared between passes.
    if moved.len() <= len {
        moved.resize(len + 1, 0);
    }
    let mut next = fusions.iter().peekable();
    // Compacts in place: the write position never passes the read one.
    let (mut read, mut write) = (0, 0);
    while read < len {
        moved[read] = write as u32;
        match next.peek() {
            Some(f) if f.at == read => {
                prog.code[write] = f.op;
                prog.sites[write] = prog.sites.get(read + f.site).copied().unwrap_or_default();
                moved[read + 1..read + f.len].fill(write as u32);
                read += f.len;
                next.next();
            }
            _ => {
                prog.code[write] = prog.code[read];
                prog.sites[write] = prog.sites.get(read).copied().unwrap_or_default();
                read += 1;
            }
        }
        write += 1;
    }
    moved[len] = write as u32;
    prog.code.truncate(write);
    prog.sites.truncate(write);
    for op in &mut prog.code {
        if let Some(t) = op.target()
            && let Some(r) = op.retarget(moved[(t as usize).min(len)])
        {
            *op = r;
        }
    }
}

#[cfg(test)]
mod tests {
    //! What a program says of itself besides its code. The code each
    //! rewrite makes is checked against golden disassembly in
    //! tests/golden/peephole.txt, under the same sources.

    use crate::{Compiler, Dialect};
    use bpvm_vm::Program;

    fn compiled(src: &str) -> Program {
        Compiler::new(Dialect::Windsor).compile(src).unwrap()
    }

    #[test]
    fn a_default_read_with_its_path_names_its_root() {
        assert_eq!(compiled("(a ?? 'x') + (b ?? 'y')").roots(), ["a", "b"]);
    }

    #[test]
    fn equal_constants_are_held_once() {
        let prog = compiled("k == 2.0 && n > 2 && m > 5 && p > 5");
        let consts: Vec<String> = prog.consts.iter().map(|c| c.to_json()).collect();
        assert_eq!(consts, ["2.0", "5"], "{:?}", prog.code);
    }

    #[test]
    fn a_lone_comparison_is_a_decision() {
        for (src, decision) in [
            ("provider == 'aws'", true),
            ("provider != 'aws'", true),
            ("cluster.nodes.count >= 3", true),
            ("n < 2.5", true),
            // A path that can fail, or a comparison of two paths, stays as it is.
            ("xs[0] == 1", false),
            ("a == b", false),
        ] {
            let prog = compiled(src);
            assert_eq!(prog.decision, decision, "{src}: {:?}", prog.code);
            assert_eq!(prog.sites.len(), prog.code.len(), "{src}");
        }
    }

    #[test]
    fn a_coalesced_test_is_a_decision() {
        let prog = compiled("(platform ?? provider) != 'none'");
        assert!(prog.decision, "{:?}", prog.code);
        let reads: Vec<String> = prog.loads().map(|p| prog.path_text(p)).collect();
        assert_eq!(reads, ["platform ?? provider", "provider"]);
        assert_eq!(prog.roots(), ["platform", "provider"]);
        // Not when the alternative could fail or is not a path.
        for src in ["(a ?? b.c) == 1", "(a ?? 'x') == 1", "(a[0] ?? b) == 1"] {
            assert!(!compiled(src).decision, "{src}");
        }
    }
}
