//! A compiled program: the code and the tables its operands index.

use crate::op::{Access, Op};
use bpvm_runtime::{Builtin, Hint, Key, PathTable, Value, Vocabulary};
use regex::Regex;

/// Bytecode plus everything it refers to. Built once by the compiler,
/// immutable afterwards, run any number of times by any number of [`crate::Vm`]s.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// The instructions.
    pub code: Vec<Op>,
    /// For each instruction, the source it came from (for errors).
    pub sites: Vec<Site>,
    /// Constants (`Op::Const`, `Op::EqConst`, …).
    pub consts: Vec<Value>,
    /// Paths (`Op::Load`, `Op::Get`).
    pub paths: Vec<Path>,
    /// Functions (`Op::Call`, `Op::Func`), resolved at compile time.
    pub funcs: Vec<&'static Builtin>,
    /// Precompiled regular expressions (`Op::MatchesConst`).
    pub regexes: Vec<Regex>,
    /// How many local slots (`let`) the program uses.
    pub locals: u32,
    /// The deepest the value stack gets ([`max_depth`]); the compiler sets
    /// it. A hand-built program may leave it 0 and gets a small default.
    pub stack: u32,
    /// Set by the compiler when every instruction is a fused test, a
    /// constant, a value read from the environment, a jump or a return
    /// ([`is_decision`]): most `when` conditions, and templates that are
    /// one value (`${context.name}`, `${x ?? 'd'}`). The VM runs such a
    /// program without a value stack or arena.
    pub decision: bool,
    /// The source text the program was compiled from.
    pub source: String,
    /// How its messages name kinds of value (its dialect's words).
    pub vocabulary: Vocabulary,
    /// The id of the [`PathTable`] its paths are numbered by
    /// ([`Program::bind`]; 0: none). Run against an environment bound to
    /// that table, each path is read by its slot.
    pub table: u64,
}

/// The most paths one coalesced path reads (`a ?? b ?? …`); the compiler
/// makes chains no longer.
pub const MAX_ALTERNATIVES: usize = 8;

/// Where an instruction came from: a byte span of the source, and the
/// operator or construct it implements (`&&`, `+`, `len`), used in messages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Site {
    /// Start byte of the operand or construct at fault.
    pub start: u32,
    /// End byte (exclusive).
    pub end: u32,
    /// The operator or construct, as written.
    pub what: &'static str,
}

/// A chain of member and index accesses compiled as one instruction.
#[derive(Debug, Clone, PartialEq)]
pub struct Path {
    /// The steps, each a pre-hashed key or a constant index.
    pub segs: Vec<Seg>,
    /// What a missing step does.
    pub access: Access,
    /// Where the path is written in its program's source (byte offsets),
    /// for disassembly ([`Program::path_text`]).
    pub span: (u32, u32),
    /// `a ?? b` read as one path (the compiler's rewrite, so that such a
    /// test fuses): the index of the path read instead when this one is
    /// nil. `None` for a plain path.
    pub otherwise: Option<u32>,
    /// The path's number in its program's [`PathTable`] ([`UNBOUND`]
    /// until [`Program::bind`] numbers it).
    pub slot: u32,
}

/// The [`Path::slot`] of a path that is not numbered.
pub const UNBOUND: u32 = u32::MAX;

/// One step of a [`Path`].
#[derive(Debug, Clone, PartialEq)]
pub enum Seg {
    /// `.name` or `["name"]`, with where it was found last time.
    Key(Key, Hint),
    /// `[n]` (negative counts from the end).
    Index(i64),
}

impl Path {
    /// A plain path, written at `span` of its program's source, not yet
    /// numbered.
    pub fn new(segs: Vec<Seg>, access: Access, span: (u32, u32)) -> Path {
        Path {
            segs,
            access,
            span,
            otherwise: None,
            slot: UNBOUND,
        }
    }

    /// True when both paths read the same thing the same way (where each
    /// is written aside).
    pub fn reads_as(&self, other: &Path) -> bool {
        self.segs == other.segs && self.access == other.access && self.otherwise == other.otherwise
    }

    /// What tells this path from every other in a [`PathTable`]: its
    /// steps and what a missing one does (the same for every program
    /// that reads the same path the same way).
    fn table_key(&self) -> String {
        use std::fmt::Write;
        let mut key = String::with_capacity(16 * self.segs.len() + 1);
        key.push(match self.access {
            Access::Optional => '?',
            Access::Strict => '!',
        });
        for seg in &self.segs {
            // Length-prefixed, so that no key text can pose as a step boundary.
            let _ = match seg {
                Seg::Key(k, _) => write!(key, "k{}:{}", k.as_str().len(), k.as_str()),
                Seg::Index(i) => write!(key, "i{i};"),
            };
        }
        key
    }

    /// The text of the first `n` steps, for messages (`cluster.nodes[0]`).
    ///
    /// ```
    /// use bpvm_vm::{Access, Path, Seg};
    /// use bpvm_runtime::{Hint, Key};
    /// let segs = vec![Seg::Key(Key::new("a"), Hint::default()), Seg::Index(0), Seg::Key(Key::new("b"), Hint::default())];
    /// let path = Path::new(segs, Access::Strict, (0, 6));
    /// assert_eq!(path.prefix(2), "a[0]");
    /// ```
    pub fn prefix(&self, n: usize) -> String {
        let mut s = String::new();
        for seg in self.segs.iter().take(n) {
            match seg {
                Seg::Key(k, _) if s.is_empty() => s.push_str(k.as_str()),
                Seg::Key(k, _) => {
                    s.push('.');
                    s.push_str(k.as_str());
                }
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        s
    }
}

impl Program {
    /// Numbers the paths the program reads from the environment's root in
    /// `table` (shared by the programs of one project), so that run
    /// against an environment bound to the table
    /// ([`bpvm_runtime::Environment::bind`]) each is read by its slot.
    /// Results never depend on binding.
    ///
    /// ```
    /// use bpvm_runtime::{Environment, Hint, Key, PathTable, Val};
    /// use bpvm_vm::{Access, Op, Path, Program, Seg, Vm};
    /// // `provider`, as a program that reads it.
    /// let provider = || {
    ///     let path = Path::new(vec![Seg::Key(Key::new("provider"), Hint::default())], Access::Optional, (0, 8));
    ///     Program { code: vec![Op::Load(0), Op::Return], paths: vec![path], ..Program::default() }
    /// };
    /// let table = PathTable::new();
    /// let (mut a, mut b) = (provider(), provider());
    /// a.bind(&table);
    /// b.bind(&table);
    /// assert_eq!(table.len(), 1); // one path, one slot
    /// let mut env = Environment::from_yaml("provider: aws").unwrap();
    /// env.bind(&table);
    /// let mut vm = Vm::new();
    /// assert!(matches!(vm.run(&a, &env), Ok(Val::Str("aws"))));
    /// assert!(matches!(vm.run(&b, &env), Ok(Val::Str("aws"))));
    /// ```
    pub fn bind(&mut self, table: &PathTable) {
        let roots: Vec<u32> = self.root_paths().collect();
        for p in roots {
            if let Some(path) = self.paths.get_mut(p as usize) {
                path.slot = table.intern(&path.table_key());
            }
        }
        self.table = table.id();
    }

    /// The indexes of the paths read from the environment's root
    /// (alternatives of coalesced paths included), in code order, with
    /// repeats.
    fn root_paths(&self) -> impl Iterator<Item = u32> + '_ {
        self.code
            .iter()
            .filter_map(|op| match *op {
                Op::Load(p) => Some(p),
                Op::JumpIf { path, .. } | Op::JumpUnless { path, .. } | Op::LoadOr { path, .. } => Some(path as u32),
                _ => None,
            })
            // A coalesced path reads its alternatives too (a hand-built
            // program could chain them in a cycle: bounded).
            .flat_map(|first| {
                std::iter::successors(Some(first), |&p| self.paths.get(p as usize).and_then(|p| p.otherwise))
                    .take(MAX_ALTERNATIVES)
            })
    }

    /// The top-level names the program reads from the environment (each
    /// path that starts at the root), in order of first use.
    ///
    /// ```
    /// use bpvm_vm::{Op, Path, Program, Seg};
    /// use bpvm_runtime::{Hint, Key};
    /// let path = Path::new(vec![Seg::Key(Key::new("talos"), Hint::default())], bpvm_vm::Access::Optional, (0, 5));
    /// let prog = Program { code: vec![Op::Load(0), Op::Return], paths: vec![path], ..Program::default() };
    /// assert_eq!(prog.roots(), ["talos"]);
    /// ```
    pub fn roots(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for path in self.loads() {
            if let Some(Seg::Key(k, _)) = path.segs.first()
                && !out.contains(&k.as_str())
            {
                out.push(k.as_str());
            }
        }
        out
    }

    /// The paths the program reads from the environment's root, in code
    /// order (a host finds what a program depends on from these).
    pub fn loads(&self) -> impl Iterator<Item = &Path> {
        self.root_paths().filter_map(|p| self.paths.get(p as usize))
    }

    /// A path as written in the source (shortened when long), with the
    /// alternatives of a coalesced path: `platform ?? provider`.
    ///
    /// ```
    /// use bpvm_vm::{Access, Path, Program};
    /// let mut a = Path::new(vec![], Access::Optional, (1, 9));
    /// a.otherwise = Some(1);
    /// let b = Path::new(vec![], Access::Optional, (13, 21));
    /// let prog = Program { paths: vec![a, b], source: "(platform ?? provider) != 'none'".into(), ..Program::default() };
    /// assert_eq!(prog.path_text(&prog.paths[0]), "platform ?? provider");
    /// ```
    pub fn path_text(&self, path: &Path) -> String {
        let mut out = String::new();
        let chain = std::iter::successors(Some(path), |p| p.otherwise.and_then(|o| self.paths.get(o as usize)));
        for (i, p) in chain.take(MAX_ALTERNATIVES).enumerate() {
            if i > 0 {
                out.push_str(" ?? ");
            }
            let (from, to) = p.span;
            let text = self.source.get(from as usize..to as usize).unwrap_or("");
            out.push_str(&bpvm_runtime::excerpt::clip(text));
        }
        out
    }

    /// The source text of instruction `ip`'s site.
    pub fn site_text(&self, ip: usize) -> &str {
        let s = self.sites.get(ip).copied().unwrap_or_default();
        self.source.get(s.start as usize..s.end as usize).unwrap_or("")
    }
}

/// True when some instruction of `code` jumps (most templates have none).
///
/// ```
/// use bpvm_vm::{Op, has_jumps};
/// assert!(!has_jumps(&[Op::Int(1), Op::Return]));
/// assert!(has_jumps(&[Op::True, Op::JumpIfFalse(3), Op::Int(1), Op::Return]));
/// ```
pub fn has_jumps(code: &[Op]) -> bool {
    code.iter().any(|op| op.target().is_some())
}

/// True when `code` is only fused tests, constants, reads from the
/// environment, jumps and returns.
///
/// ```
/// use bpvm_vm::{Op, Test, is_decision};
/// let test = Op::JumpUnless { path: 0, test: Test::Eq, c: 0, to: 3 };
/// assert!(is_decision(&[test, Op::True, Op::Return, Op::False, Op::Return]));
/// assert!(is_decision(&[Op::LoadOr { path: 0, c: 0 }, Op::Return]));
/// assert!(!is_decision(&[Op::Load(0), Op::Get(1), Op::Return]));
/// ```
pub fn is_decision(code: &[Op]) -> bool {
    code.iter().all(|op| {
        matches!(
            op,
            Op::JumpIf { .. }
                | Op::Load(_)
                | Op::LoadOr { .. }
                | Op::JumpUnless { .. }
                | Op::Jump(_)
                | Op::Return
                | Op::Nil
                | Op::True
                | Op::False
                | Op::Int(_)
                | Op::Const(_)
        )
    })
}

/// [`max_depth`] of code without jumps, in one pass (most templates): the
/// same walk, with one way through.
fn straight_depth(code: &[Op]) -> u32 {
    let cap = code.len() as u32 + 1;
    let (mut depth, mut deepest) = (0u32, 0u32);
    for op in code {
        let (pops, pushes) = op.stack_effect();
        let after = (depth.saturating_sub(pops) + pushes).min(cap);
        deepest = deepest.max(after).max(depth);
        if *op == Op::Return {
            break;
        }
        depth = after;
    }
    deepest
}

/// The most values `code` ever has on the stack, following every path
/// through it. Code whose depth at some instruction depends on the path
/// taken (which the compiler never emits) gets the deepest of them.
///
/// ```
/// use bpvm_vm::{Op, max_depth};
/// assert_eq!(max_depth(&[Op::Int(1), Op::Int(2), Op::Add, Op::Return]), 2);
/// ```
pub fn max_depth(code: &[Op]) -> u32 {
    let mut forward = true;
    let mut jumps = false;
    for (ip, op) in code.iter().enumerate() {
        if let Some(t) = op.target() {
            jumps = true;
            forward &= t as usize > ip;
        }
    }
    if !jumps {
        straight_depth(code)
    } else if forward {
        with_table(code, forward_depth)
    } else {
        with_table(code, walk_depths)
    }
}

/// Runs `depth` with a table of one entry per instruction (and the end),
/// kept on the stack for short code (a `when` is a few dozen
/// instructions, and allocating the table was 2 % of compiling one).
fn with_table(code: &[Op], depth: fn(&[Op], &mut [Option<u32>]) -> u32) -> u32 {
    const TINY: usize = 16;
    const SHORT: usize = 64;
    if code.len() < TINY {
        depth(code, &mut [None; TINY][..=code.len()])
    } else if code.len() < SHORT {
        depth(code, &mut [None; SHORT][..=code.len()])
    } else {
        depth(code, &mut vec![None; code.len() + 1])
    }
}

/// [`max_depth`] of code whose jumps all go forward (every `when`
/// without a predicate loop), in one pass: an instruction's depth is the
/// deepest of the ways into it, all known by the time it is reached.
/// The same result as [`walk_depths`] without its work list: finding
/// the depth took compiling anchor d 720 instructions by the walk, 630 by
/// this (callgrind; most of the rest is each instruction's stack effect).
fn forward_depth(code: &[Op], depth_at: &mut [Option<u32>]) -> u32 {
    let cap = code.len() as u32 + 1;
    let mut deepest = 0;
    let mut falling = Some(0u32);
    for (ip, op) in code.iter().enumerate() {
        let Some(depth) = falling.max(depth_at[ip]) else {
            continue;
        };
        let (pops, pushes) = op.stack_effect();
        let after = (depth.saturating_sub(pops) + pushes).min(cap);
        deepest = deepest.max(after).max(depth);
        let mut reach = |t: u32, d: u32| {
            let slot = &mut depth_at[(t as usize).min(code.len())];
            *slot = (*slot).max(Some(d));
        };
        falling = match *op {
            Op::Return => None,
            Op::Jump(t) => {
                reach(t, after);
                None
            }
            // Jumps keep the tested value; falling through pops it.
            Op::JumpIfNotNil(t) => {
                reach(t, depth);
                Some(after)
            }
            other => {
                if let Some(t) = other.target() {
                    reach(t, after);
                }
                Some(after)
            }
        };
    }
    deepest
}

/// [`walked_depth`], the depth each instruction was reached at (`None`
/// where not yet) kept in `depth_at`.
fn walk_depths(code: &[Op], depth_at: &mut [Option<u32>]) -> u32 {
    let mut work: smallvec::SmallVec<[(usize, u32); 16]> = smallvec::SmallVec::new();
    work.push((0usize, 0u32));
    let mut deepest = 0;
    // Each instruction is revisited only when reached deeper than before,
    // and depth is capped, so this ends even on malformed code.
    let cap = code.len() as u32 + 1;
    while let Some((ip, depth)) = work.pop() {
        let Some(op) = code.get(ip) else { continue };
        if depth_at[ip].is_some_and(|d| d >= depth) {
            continue;
        }
        depth_at[ip] = Some(depth);
        let (pops, pushes) = op.stack_effect();
        let after = (depth.saturating_sub(pops) + pushes).min(cap);
        deepest = deepest.max(after).max(depth);
        match *op {
            Op::Return => {}
            Op::Jump(t) => work.push((t as usize, after)),
            // Jumps keep the tested value; falling through pops it.
            Op::JumpIfNotNil(t) => {
                work.push((t as usize, depth));
                work.push((ip + 1, after));
            }
            other => {
                if let Some(t) = other.target() {
                    work.push((t as usize, after));
                }
                work.push((ip + 1, after));
            }
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_code_is_as_deep_either_way() {
        let ops = [
            Op::Int(1),
            Op::Nil,
            Op::Add,
            Op::Not,
            Op::List(3),
            Op::Concat(2),
            Op::Pop,
            Op::Load(0),
        ];
        // Every sequence of up to five of them, with and without a Return
        // in the middle: one pass and the walk agree.
        let mut seqs: Vec<Vec<Op>> = vec![vec![]];
        for _ in 0..5 {
            let longer: Vec<Vec<Op>> = seqs
                .iter()
                .flat_map(|s| {
                    ops.iter()
                        .chain([&Op::Return])
                        .map(move |op| [s.clone(), vec![*op]].concat())
                })
                .collect();
            seqs.extend(longer);
        }
        for code in &seqs {
            assert_eq!(straight_depth(code), with_table(code, walk_depths), "{code:?}");
        }
    }

    #[test]
    fn forward_jumps_are_as_deep_either_way() {
        // Every sequence of up to five instructions, jumps among them
        // aimed at each later place (and past the end): one pass and the
        // walk agree.
        let plain = [Op::Int(1), Op::Add, Op::Pop, Op::Return, Op::List(2)];
        let jumps: [fn(u32) -> Op; 4] = [Op::Jump, Op::JumpIfFalse, Op::JumpIfTrue, Op::JumpIfNotNil];
        let mut seqs: Vec<Vec<Op>> = vec![vec![]];
        for len in 0..5u32 {
            let mut longer = Vec::new();
            for s in seqs.iter().filter(|s| s.len() == len as usize) {
                for op in plain {
                    longer.push([s.clone(), vec![op]].concat());
                }
                for jump in jumps {
                    for to in len + 1..=6 {
                        longer.push([s.clone(), vec![jump(to)]].concat());
                    }
                }
            }
            seqs.extend(longer);
        }
        assert!(seqs.len() > 10_000);
        for code in &seqs {
            assert_eq!(max_depth(code), with_table(code, walk_depths), "{code:?}");
        }
    }
}
