//! The dispatch loop.
//!
//! A [`Vm`] owns the arena that evaluation results live in; it is reset at
//! the start of every run, so a reused `Vm` evaluates without touching the
//! heap unless a program builds large values. The value stack, the local
//! slots and the loop frames live in that arena too.

use crate::error::{Fault, RunError};
use crate::index::{index, slice};
use crate::op::{Access, Loop, Op, Test, TextRule};
use crate::program::{Path, Program, Seg};
use bpvm_runtime::builtins::args::index_in;
use bpvm_runtime::key::same_text;
use bpvm_runtime::limits::VALUE_DEPTH;
use bpvm_runtime::nesting::deeper_than;
use bpvm_runtime::ops::{self, OpError};
use bpvm_runtime::{Ctx, Environment, FuncVal, ListRef, Map, Scope, Val, Value, text};
use bpvm_runtime::{govern, steps};
use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;
use std::any::Any;

/// Runs programs. Keep one per thread and reuse it.
///
/// ```
/// use bpvm_vm::{Op, Program, Vm};
/// use bpvm_runtime::{Environment, Val};
/// let prog = Program { code: vec![Op::Int(2), Op::Int(3), Op::Add, Op::Return], ..Program::default() };
/// let mut vm = Vm::new();
/// let env = Environment::new();
/// assert!(matches!(vm.run(&prog, &env), Ok(Val::Int(5))));
/// ```
#[derive(Default)]
pub struct Vm {
    arena: Bump,
}

impl Vm {
    /// A machine with an empty arena.
    pub fn new() -> Vm {
        Vm::default()
    }

    /// Runs `prog` against `env`. The result borrows from the environment,
    /// the program and this machine's arena.
    pub fn run<'a>(&'a mut self, prog: &'a Program, env: &'a Environment) -> Result<Val<'a>, RunError> {
        self.run_with(prog, env, &())
    }

    /// Runs `prog` against `env`, handing `host` to every function call
    /// (see [`Ctx::host`]).
    pub fn run_with<'a>(
        &'a mut self,
        prog: &'a Program,
        env: &'a Environment,
        host: &'a dyn Any,
    ) -> Result<Val<'a>, RunError> {
        // A decision needs neither arena nor stack: straight to its loop.
        if prog.decision
            && let Some(result) = decide(prog, env.scope(prog.table))
        {
            return result;
        }
        self.general(prog, env, host)
    }

    /// The general loop, with a fresh arena.
    #[inline(never)]
    fn general<'a>(
        &'a mut self,
        prog: &'a Program,
        env: &'a Environment,
        host: &'a dyn Any,
    ) -> Result<Val<'a>, RunError> {
        self.arena.reset();
        exec(prog, env.scope(prog.table), &self.arena, host)
    }

    /// Bytes the arena holds (for allocation reporting).
    pub fn arena_bytes(&self) -> usize {
        self.arena.allocated_bytes()
    }
}

/// `v` as the text of an embedded `${…}`; with `indent`, text of more than
/// one line moves to its own lines, indented (see [`TextRule::Windsor`]).
fn embed<'a>(arena: &'a Bump, v: Val<'a>, indent: Option<u16>) -> &'a str {
    let text = match v {
        Val::Str(s) => s,
        other => {
            let mut s = bumpalo::collections::String::new_in(arena);
            text::push_text(&mut s, other);
            s.into_bump_str()
        }
    };
    let Some(indent) = indent.filter(|_| text.contains('\n')) else {
        return text;
    };
    let mut out = bumpalo::collections::String::with_capacity_in(text.len() + 16, arena);
    for line in text.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.extend(std::iter::repeat_n(' ', indent as usize));
            out.push_str(line);
        }
    }
    out.into_bump_str()
}

/// One open predicate loop.
struct Frame<'a> {
    kind: Loop,
    items: ListRef<'a>,
    /// Index of the current item + 1 (0 before the first).
    at: usize,
    acc: Val<'a>,
    count: usize,
    hit: Option<usize>,
    done: bool,
    /// Collected values: kept items, mapped values, or sort/group keys.
    out: BumpVec<'a, Val<'a>>,
}

macro_rules! fail {
    ($ip:expr, $fault:expr) => {
        return Err(RunError { ip: $ip, fault: $fault })
    };
}

#[inline]
fn truth(v: Val<'_>) -> Result<bool, Fault> {
    match v {
        Val::Bool(b) => Ok(b),
        Val::Nil => Ok(false),
        other => Err(Fault::NeedBool(other.type_name())),
    }
}

/// Runs a decision program (see [`Program::decision`]): fused tests pick
/// the way, the last constant or value read before `Return` is the
/// result. `None` when an instruction of another kind turns up (a
/// hand-built program can claim to be a decision and not be) or a read
/// is not a plain walk through maps; the general loop then runs it from
/// the start, which is safe because tests and reads have no effects.
fn decide<'a>(prog: &'a Program, scope: Scope<'a>) -> Option<Result<Val<'a>, RunError>> {
    let mut ip = 0usize;
    let mut result = Val::Nil;
    loop {
        let hit = match *prog.code.get(ip)? {
            Op::JumpIf { path, test, c, to } => match path_test(prog, scope, path, test, c) {
                Ok(true) => Some(to),
                Ok(false) => None,
                Err(fault) => return Some(Err(RunError { ip, fault })),
            },
            Op::JumpUnless { path, test, c, to } => match path_test(prog, scope, path, test, c) {
                Ok(false) => Some(to),
                Ok(true) => None,
                Err(fault) => return Some(Err(RunError { ip, fault })),
            },
            Op::Jump(t) => {
                ip = t as usize;
                continue;
            }
            // A constant before `Return` (how a decision ends: `True;
            // Return`) is the result at once, one dispatch sooner.
            Op::True => {
                result = Val::Bool(true);
                if returns_next(prog, ip) {
                    return Some(Ok(result));
                }
                None
            }
            Op::False => {
                result = Val::Bool(false);
                if returns_next(prog, ip) {
                    return Some(Ok(result));
                }
                None
            }
            Op::Nil => {
                result = Val::Nil;
                None
            }
            Op::Int(i) => {
                result = Val::Int(i as i64);
                if returns_next(prog, ip) {
                    return Some(Ok(result));
                }
                None
            }
            Op::Const(c) => {
                result = constant(prog, c);
                None
            }
            // A value read where it is (`${context.name}`, `x ?? 'd'`);
            // anything but a plain read goes the general way.
            Op::Load(p) => {
                let path = prog.paths.get(p as usize)?;
                result = Val::from_doc(fast_ref(prog, scope, path)?);
                None
            }
            Op::LoadOr { path, c } => {
                result = match fast_ref(prog, scope, prog.paths.get(path as usize)?)? {
                    Value::Null => constant(prog, c as u32),
                    v => Val::from_doc(v),
                };
                None
            }
            Op::Return => return Some(Ok(result)),
            _ => return None,
        };
        ip = match hit {
            Some(to) => to as usize,
            None => ip + 1,
        };
    }
}

/// Whether the instruction after `ip` is `Return`.
#[inline(always)]
fn returns_next(prog: &Program, ip: usize) -> bool {
    matches!(prog.code.get(ip + 1), Some(Op::Return))
}

/// Stack slots a program gets when it does not say how many it needs.
const DEFAULT_STACK: usize = 16;

/// Why `reduce` without an initial value fails on an empty list.
const EMPTY_REDUCE: &str = "of an empty list needs an initial value (a third argument)";

fn exec<'a>(prog: &'a Program, scope: Scope<'a>, arena: &'a Bump, host: &'a dyn Any) -> Result<Val<'a>, RunError> {
    let code = &prog.code[..];
    // Locals and the value stack live in the arena: no heap traffic, and
    // the slots are as many as the compiler found the program needs.
    let depth = match prog.stack {
        0 => DEFAULT_STACK,
        n => n as usize,
    };
    // Values are in `stack[..sp]`, the top at `sp - 1`. (Keeping the top in
    // a local instead does not keep it in a register in a loop this size:
    // it lives in memory, written a field at a time and copied whole on
    // every push, and each copy waits for the writes to land.)
    let slots = arena.alloc_slice_fill_copy(prog.locals as usize + depth, Val::Nil);
    let (locals, stack) = slots.split_at_mut(prog.locals as usize);
    let mut sp = 0usize;
    let mut loops: BumpVec<'a, Frame<'a>> = BumpVec::new_in(arena);
    let mut ip = 0usize;
    // Loop turns left before the next look at the budget and the clock.
    let mut turns = steps::CLOCK_EVERY;
    let mut taken = 0u64;

    macro_rules! push {
        ($v:expr) => {{
            let v = $v;
            match stack.get_mut(sp) {
                Some(slot) => *slot = v,
                None => fail!(ip - 1, Fault::StackOverflow(depth)),
            }
            sp += 1;
        }};
    }
    macro_rules! pop {
        () => {
            match sp.checked_sub(1) {
                Some(below) => {
                    sp = below;
                    stack[sp]
                }
                None => Val::Nil,
            }
        };
    }
    macro_rules! top {
        () => {
            match sp.checked_sub(1) {
                Some(at) => &mut stack[at],
                None => fail!(ip - 1, Fault::Op(OpError::Other("stack underflow".into()))),
            }
        };
    }
    // The top `k` values as `stack[lo..hi]`; `replace!(lo, v)` then drops
    // them and pushes `v`.
    macro_rules! window {
        ($k:expr) => {{
            let k = ($k).min(sp);
            (sp - k, sp)
        }};
    }
    macro_rules! replace {
        ($lo:expr, $v:expr) => {{
            let (lo, v) = ($lo, $v);
            match stack.get_mut(lo) {
                Some(slot) => *slot = v,
                None => fail!(ip - 1, Fault::StackOverflow(depth)),
            }
            sp = lo + 1;
        }};
    }
    macro_rules! binary {
        ($f:expr) => {{
            let b = pop!();
            let a = top!();
            *a = match $f(*a, b) {
                Ok(v) => v,
                Err(e) => fail!(ip - 1, Fault::Op(e)),
            };
        }};
    }
    macro_rules! compare {
        ($test:expr) => {{ binary!(|a, b| ops::compare(a, b).map(|o| Val::Bool($test(o)))) }};
    }
    macro_rules! frame {
        () => {
            match loops.last_mut() {
                Some(f) => f,
                None => fail!(ip - 1, Fault::Op(OpError::Other("no loop is open".into()))),
            }
        };
    }

    loop {
        let op = match code.get(ip) {
            Some(op) => *op,
            None => return Ok(if sp == 0 { Val::Nil } else { stack[sp - 1] }),
        };
        ip += 1;
        match op {
            Op::Nil => push!(Val::Nil),
            Op::True => push!(Val::Bool(true)),
            Op::False => push!(Val::Bool(false)),
            Op::Int(i) => push!(Val::Int(i as i64)),
            Op::Const(c) => push!(constant(prog, c)),

            Op::Load(p) => {
                let path = &prog.paths[p as usize];
                let v = match fast_load(scope, path) {
                    Some(v) => v,
                    None => match load(scope.root(), path) {
                        Ok(v) => v,
                        Err(f) => fail!(ip - 1, f),
                    },
                };
                match (v, path.otherwise) {
                    (Val::Nil, Some(_)) => match alternative(prog, scope, path) {
                        Ok(v) => push!(v),
                        Err(f) => fail!(ip - 1, f),
                    },
                    _ => push!(v),
                }
            }
            Op::LoadOr { path, c } => {
                let p = &prog.paths[path as usize];
                let v = match fast_ref(prog, scope, p) {
                    Some(v) => Val::from_doc(v),
                    None => match load(scope.root(), p) {
                        Ok(Val::Nil) if p.otherwise.is_some() => match alternative(prog, scope, p) {
                            Ok(v) => v,
                            Err(f) => fail!(ip - 1, f),
                        },
                        Ok(v) => v,
                        Err(f) => fail!(ip - 1, f),
                    },
                };
                push!(if v.is_nil() { constant(prog, c as u32) } else { v });
            }
            Op::Get(p) => {
                let t = top!();
                *t = match get(*t, &prog.paths[p as usize]) {
                    Ok(v) => v,
                    Err(f) => fail!(ip - 1, f),
                };
            }
            Op::Local(n) => push!(locals.get(n as usize).copied().unwrap_or(Val::Nil)),
            Op::Env => push!(whole(arena, scope.root())),
            Op::SetLocal(n) => {
                let v = pop!();
                if let Some(slot) = locals.get_mut(n as usize) {
                    *slot = v;
                }
            }
            Op::Index(access) => {
                let key = pop!();
                let t = top!();
                *t = match index(*t, key, access) {
                    Ok(v) => v,
                    Err(f) => fail!(ip - 1, f),
                };
            }
            Op::Slice => {
                let to = pop!();
                let from = pop!();
                let t = top!();
                *t = match slice(arena, *t, from, to) {
                    Ok(v) => v,
                    Err(f) => fail!(ip - 1, f),
                };
            }

            Op::Not => {
                let t = top!();
                *t = match truth(*t) {
                    Ok(b) => Val::Bool(!b),
                    Err(f) => fail!(ip - 1, f),
                };
            }
            Op::Bool => {
                let t = top!();
                *t = match truth(*t) {
                    Ok(b) => Val::Bool(b),
                    Err(f) => fail!(ip - 1, f),
                };
            }
            Op::AssertBool => {
                let t = top!();
                if !matches!(*t, Val::Bool(_)) {
                    return Err(not_bool(ip - 1, *t));
                }
            }
            Op::Neg => {
                let t = top!();
                *t = match ops::neg(*t) {
                    Ok(v) => v,
                    Err(e) => fail!(ip - 1, Fault::Op(e)),
                };
            }
            Op::Add => {
                let (lo, hi) = window!(2);
                if hi - lo < 2 {
                    fail!(ip - 1, Fault::Op(OpError::Other("stack underflow".into())));
                }
                // The common pairings inline, reading the operands where
                // they are and writing the result field by field (see the
                // note on the stack above).
                let v = match (&stack[lo], &stack[lo + 1]) {
                    (&Val::Int(x), &Val::Int(y)) => match x.checked_add(y) {
                        Some(n) => Val::Int(n),
                        None => fail!(ip - 1, Fault::Op(OpError::Overflow)),
                    },
                    (&Val::Str(x), &Val::Str(y)) => match ops::concat(arena, x, y) {
                        Ok(s) => Val::Str(s),
                        Err(e) => fail!(ip - 1, Fault::Op(e)),
                    },
                    (&x, &y) => match ops::add(arena, x, y) {
                        Ok(v) => v,
                        Err(e) => fail!(ip - 1, Fault::Op(e)),
                    },
                };
                replace!(lo, v);
            }
            Op::Sub => binary!(ops::sub),
            Op::Mul => binary!(ops::mul),
            Op::Div => binary!(ops::div),
            Op::Mod => binary!(ops::rem),
            Op::Pow => binary!(ops::pow),
            Op::Range => binary!(|a, b| ops::range(arena, a, b)),
            Op::Eq => binary!(|a, b| Ok::<_, OpError>(Val::Bool(ops::equal(a, b)))),
            Op::Ne => binary!(|a, b| Ok::<_, OpError>(Val::Bool(!ops::equal(a, b)))),
            Op::Lt => compare!(|o: std::cmp::Ordering| o.is_lt()),
            Op::Le => compare!(|o: std::cmp::Ordering| o.is_le()),
            Op::Gt => compare!(|o: std::cmp::Ordering| o.is_gt()),
            Op::Ge => compare!(|o: std::cmp::Ordering| o.is_ge()),
            Op::EqConst(c) => {
                let t = top!();
                *t = Val::Bool(same(*t, constant(prog, c)));
            }
            Op::NeConst(c) => {
                let t = top!();
                *t = Val::Bool(!same(*t, constant(prog, c)));
            }
            Op::In => binary!(|a, b| ops::contains_item(a, b).map(Val::Bool)),
            Op::Contains => binary!(|a, b| ops::string_test(a, b, |x, y| x.contains(y)).map(Val::Bool)),
            Op::StartsWith => binary!(|a, b| ops::string_test(a, b, |x, y| x.starts_with(y)).map(Val::Bool)),
            Op::EndsWith => binary!(|a, b| ops::string_test(a, b, |x, y| x.ends_with(y)).map(Val::Bool)),
            Op::Matches => {
                let pattern = pop!();
                let t = top!();
                *t = match (*t, pattern) {
                    (Val::Str(s), Val::Str(p)) => match regex::Regex::new(p) {
                        Ok(re) => Val::Bool(re.is_match(s)),
                        Err(e) => fail!(ip - 1, Fault::Regex(e.to_string())),
                    },
                    (Val::Bytes(b), Val::Str(p)) => match regex::Regex::new(p) {
                        Ok(re) => Val::Bool(re.is_match(&String::from_utf8_lossy(b))),
                        Err(e) => fail!(ip - 1, Fault::Regex(e.to_string())),
                    },
                    // Nil on either side does not match (expr-lang's VM).
                    (Val::Nil, _) | (_, Val::Nil) => Val::Bool(false),
                    (a, b) => fail!(ip - 1, Fault::Op(OpError::Types(a.type_name(), b.type_name()))),
                };
            }
            Op::MatchesConst(r) => {
                let t = top!();
                *t = match *t {
                    Val::Str(s) => Val::Bool(prog.regexes[r as usize].is_match(s)),
                    // Bytes match as their text (expr-lang: `[]byte` matches).
                    Val::Bytes(b) => Val::Bool(prog.regexes[r as usize].is_match(&String::from_utf8_lossy(b))),
                    Val::Nil => Val::Bool(false),
                    a => fail!(ip - 1, Fault::Op(OpError::Types(a.type_name(), "string"))),
                };
            }

            Op::Jump(t) => ip = t as usize,
            Op::JumpIfFalse(t) => match truth(pop!()) {
                Ok(false) => ip = t as usize,
                Ok(true) => {}
                Err(f) => fail!(ip - 1, f),
            },
            Op::JumpIfTrue(t) => match truth(pop!()) {
                Ok(true) => ip = t as usize,
                Ok(false) => {}
                Err(f) => fail!(ip - 1, f),
            },
            Op::JumpIfNotNil(t) => {
                if top!().is_nil() {
                    pop!();
                } else {
                    ip = t as usize;
                }
            }
            Op::JumpIf { path, test, c, to } => match path_test(prog, scope, path, test, c) {
                Ok(true) => ip = to as usize,
                Ok(false) => {}
                Err(f) => fail!(ip - 1, f),
            },
            Op::JumpUnless { path, test, c, to } => match path_test(prog, scope, path, test, c) {
                Ok(false) => ip = to as usize,
                Ok(true) => {}
                Err(f) => fail!(ip - 1, f),
            },
            Op::Pop => {
                pop!();
            }

            Op::List(n) => {
                let (lo, hi) = window!(n as usize);
                let list = arena.alloc_slice_copy(&stack[lo..hi]);
                replace!(lo, Val::List(list));
            }
            Op::Map(n) => {
                let (lo, hi) = window!(2 * n as usize);
                let mut entries: BumpVec<'a, (&'a str, Val<'a>)> = BumpVec::with_capacity_in(n as usize, arena);
                for pair in stack[lo..hi].chunks(2) {
                    // A computed key must be a string (expr-lang's OpMap
                    // asserts `key.(string)`).
                    let key = match pair[0] {
                        Val::Str(s) => s,
                        other => fail!(
                            ip - 1,
                            Fault::Op(OpError::Other(format!(
                                "keys must be strings, got {}",
                                other.type_name()
                            )))
                        ),
                    };
                    // A key written twice keeps its first value, as in
                    // expr-lang (its VM sets the pairs last to first).
                    if !entries.iter().any(|(k, _)| *k == key) {
                        entries.push((key, pair[1]));
                    }
                }
                replace!(lo, Val::Map(entries.into_bump_slice()));
            }
            Op::Text(rule) => {
                let t = top!();
                *t = match (*t, rule) {
                    (v @ (Val::Doc(_) | Val::List(_) | Val::Map(_) | Val::Func(_)), TextRule::Bluelink) => {
                        fail!(ip - 1, Fault::ComplexText(v.kind()))
                    }
                    (v, TextRule::Bluelink) => Val::Str(embed(arena, v, None)),
                    (v, TextRule::Windsor { indent }) => Val::Str(embed(arena, v, Some(indent))),
                };
            }
            Op::Concat(n) => {
                let (lo, hi) = window!(n as usize);
                let mut s = bumpalo::collections::String::new_in(arena);
                for v in &stack[lo..hi] {
                    if let Val::Str(part) = v {
                        s.push_str(part);
                    }
                }
                replace!(lo, Val::Str(s.into_bump_str()));
            }

            Op::Call { func, argc } => {
                let f = prog.funcs[func as usize];
                let (lo, hi) = window!(argc as usize);
                let mut ctx = Ctx::new(arena, host);
                let result = match (f.f)(&mut ctx, &stack[lo..hi]) {
                    Ok(v) => v,
                    Err(e) => fail!(ip - 1, Fault::Call(e)),
                };
                replace!(lo, result);
            }
            Op::Func(n) => {
                let f = arena.alloc(FuncVal {
                    func: prog.funcs[n as usize],
                    bound: &[],
                });
                push!(Val::Func(f));
            }

            Op::LoopBegin(kind) => {
                let init = if kind == Loop::ReduceFrom { Some(pop!()) } else { None };
                let list = pop!();
                let items = match (list.list(), list) {
                    (Some(items), _) => items,
                    (None, Val::Str(s)) => code_points(arena, s),
                    (None, _) => fail!(ip - 1, Fault::NotIterable(list.type_name())),
                };
                let mut frame = Frame {
                    kind,
                    items,
                    at: 0,
                    acc: Val::Nil,
                    count: 0,
                    hit: None,
                    done: false,
                    out: BumpVec::new_in(arena),
                };
                match kind {
                    Loop::All | Loop::None => frame.acc = Val::Bool(true),
                    Loop::Any => frame.acc = Val::Bool(false),
                    Loop::Reduce => {
                        // With nothing to start from there is no result
                        // (expr-lang fails too, rather than give nil).
                        let Some(first) = items.get(0) else {
                            fail!(ip - 1, Fault::Op(OpError::Other(EMPTY_REDUCE.into())));
                        };
                        frame.acc = first;
                        frame.at = 1;
                    }
                    Loop::ReduceFrom => frame.acc = init.unwrap_or(Val::Nil),
                    _ => {}
                }
                loops.push(frame);
            }
            Op::LoopNext(end) => {
                let f = frame!();
                if f.done || f.at >= f.items.len() {
                    ip = end as usize;
                } else {
                    f.at += 1;
                    turns -= 1;
                    if turns == 0 {
                        turns = steps::CLOCK_EVERY;
                        taken += u64::from(steps::CLOCK_EVERY);
                        if let Err(m) = governed(taken) {
                            fail!(ip - 1, Fault::Governed(m));
                        }
                    }
                }
            }
            Op::Item => {
                let f = frame!();
                let item = f.items.get(f.at.saturating_sub(1)).unwrap_or(Val::Nil);
                push!(item);
            }
            Op::ItemIndex => {
                let f = frame!();
                let i = f.at.saturating_sub(1) as i64;
                push!(Val::Int(i));
            }
            Op::Acc => {
                let acc = frame!().acc;
                push!(acc);
            }
            Op::LoopStep => {
                let v = pop!();
                let f = frame!();
                if let Err(fault) = step(f, v) {
                    fail!(ip - 1, fault);
                }
            }
            Op::LoopEnd => {
                let f = match loops.pop() {
                    Some(f) => f,
                    None => fail!(ip - 1, Fault::Op(OpError::Other("no loop is open".into()))),
                };
                match finish(arena, f) {
                    Ok(v) => push!(v),
                    Err(fault) => fail!(ip - 1, fault),
                }
            }

            Op::Return => return Ok(if sp == 0 { Val::Nil } else { stack[sp - 1] }),
        }
    }
}

/// Whether an evaluation that has taken `taken` steps may go on: within
/// its step budget and its render's deadline.
#[cold]
#[inline(never)]
fn governed(taken: u64) -> Result<(), String> {
    if taken > steps::budget() {
        return Err(steps::exceeded());
    }
    govern::on_time()
}

/// The failure of [`Op::AssertBool`], out of the dispatch loop's way.
#[cold]
#[inline(never)]
fn not_bool(ip: usize, v: Val<'_>) -> RunError {
    RunError {
        ip,
        fault: Fault::NeedBool(v.type_name()),
    }
}

#[inline]
fn constant<'a>(prog: &'a Program, c: u32) -> Val<'a> {
    Val::from_doc(&prog.consts[c as usize])
}

/// `==` with the common scalar cases inline.
#[inline(always)]
fn same(a: Val<'_>, b: Val<'_>) -> bool {
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => same_text(x, y),
        (Val::Bool(x), Val::Bool(y)) => x == y,
        (Val::Int(x), Val::Int(y)) => x == y,
        (Val::Nil, Val::Nil) => true,
        _ => ops::equal(a, b),
    }
}

/// Nil as a document value, for a key that is not there.
static NIL: Value = Value::Null;

/// The test of a fused [`Op::JumpIf`]: the value at a path against a constant.
#[inline(always)]
fn path_test<'a>(prog: &'a Program, scope: Scope<'a>, path: u16, test: Test, c: u16) -> Result<bool, Fault> {
    let p = &prog.paths[path as usize];
    let Some(v) = fast_ref(prog, scope, p) else {
        return general_test(prog, scope, path, test, c);
    };
    let k = &prog.consts[c as usize];
    // The typed tests compare the document value where it is; any other
    // pairing of types (and a coalesced path that read nil) goes the
    // general way, which gives the same answer.
    match (test, v, k) {
        (Test::StrEq, Value::Str(x), Value::Str(y)) => Ok(same_text(x, y)),
        (Test::StrNe, Value::Str(x), Value::Str(y)) => Ok(!same_text(x, y)),
        (Test::IntEq, Value::Int(x), Value::Int(y)) => Ok(x == y),
        (Test::IntNe, Value::Int(x), Value::Int(y)) => Ok(x != y),
        (Test::IntLt, Value::Int(x), Value::Int(y)) => Ok(x < y),
        (Test::IntLe, Value::Int(x), Value::Int(y)) => Ok(x <= y),
        (Test::IntGt, Value::Int(x), Value::Int(y)) => Ok(x > y),
        (Test::IntGe, Value::Int(x), Value::Int(y)) => Ok(x >= y),
        (Test::BoolEq, Value::Bool(x), Value::Bool(y)) => Ok(x == y),
        (Test::BoolNe, Value::Bool(x), Value::Bool(y)) => Ok(x != y),
        _ => general_test(prog, scope, path, test, c),
    }
}

/// [`path_test`] over evaluation values, for every case the typed tests
/// do not cover.
#[inline(never)]
fn general_test<'a>(prog: &'a Program, scope: Scope<'a>, path: u16, test: Test, c: u16) -> Result<bool, Fault> {
    let path = &prog.paths[path as usize];
    let mut v = match fast_load(scope, path) {
        Some(v) => v,
        None => load(scope.root(), path)?,
    };
    if let (Val::Nil, Some(_)) = (v, path.otherwise) {
        v = alternative(prog, scope, path)?;
    }
    let k = constant(prog, c as u32);
    let order = match test.general() {
        Test::Eq => return Ok(same(v, k)),
        Test::Ne => return Ok(!same(v, k)),
        _ => ops::compare(v, k).map_err(Fault::Op)?,
    };
    Ok(match test.general() {
        Test::Lt => order.is_lt(),
        Test::Le => order.is_le(),
        Test::Gt => order.is_gt(),
        _ => order.is_ge(),
    })
}

/// A coalesced path's value when its first read is nil (`a ?? b`): its
/// alternatives', in turn, until one is not nil.
#[cold]
#[inline(never)]
fn alternative<'a>(prog: &'a Program, scope: Scope<'a>, path: &'a Path) -> Result<Val<'a>, Fault> {
    let mut next = path.otherwise;
    for _ in 0..crate::MAX_ALTERNATIVES {
        let Some(p) = next.and_then(|o| prog.paths.get(o as usize)) else {
            break;
        };
        let v = match fast_load(scope, p) {
            Some(v) => v,
            None => load(scope.root(), p)?,
        };
        if !matches!(v, Val::Nil) {
            return Ok(v);
        }
        next = p.otherwise;
    }
    Ok(Val::Nil)
}

/// The environment's root as one map value (`$env`): its entries
/// copied into the arena, the values borrowed.
fn whole<'a>(arena: &'a Bump, root: &'a Map) -> Val<'a> {
    let entries = arena.alloc_slice_fill_iter(root.iter().map(|(k, v)| (k.as_str(), Val::from_doc(v))));
    Val::Map(entries)
}

/// The common case of a path: keys all the way through maps of the
/// document. `None` sends everything else (indexes, strict misses,
/// errors) to [`load`].
#[inline(always)]
fn fast_load<'a>(scope: Scope<'a>, path: &Path) -> Option<Val<'a>> {
    read(scope, path).map(Val::from_doc)
}

/// [`fast_load`] without the conversion, alternatives of a coalesced
/// path included: the document value itself, or [`NIL`] for optional
/// keys that are not there. `None` sends the rest to [`general_test`].
#[inline(always)]
fn fast_ref<'a>(prog: &'a Program, scope: Scope<'a>, path: &'a Path) -> Option<&'a Value> {
    let mut v = read(scope, path)?;
    let mut next = path.otherwise;
    for _ in 0..crate::MAX_ALTERNATIVES {
        let Some(o) = next else { break };
        if !matches!(v, Value::Null) {
            break;
        }
        let p = prog.paths.get(o as usize)?;
        v = read(scope, p)?;
        next = p.otherwise;
    }
    Some(v)
}

/// [`walk`], or the path's slot when the scope is bound to the program's
/// path table and the path was read before.
#[inline(always)]
fn read<'a>(scope: Scope<'a>, path: &Path) -> Option<&'a Value> {
    scope.read(path.slot, |root| walk(root, path))
}

/// One path's document value by keys through maps ([`NIL`] for an
/// optional miss); `None` for anything else. The answer depends only on
/// the document and the path, so a bound scope may remember it.
#[inline(always)]
fn walk<'m>(root: &'m Map, path: &Path) -> Option<&'m Value> {
    let optional = path.access == Access::Optional;
    let mut segs = path.segs.iter();
    let Some(Seg::Key(k, hint)) = segs.next() else {
        return None;
    };
    let mut cur = match root.get_hinted(k, hint) {
        Some(v) => v,
        None => return optional.then_some(&NIL),
    };
    for seg in segs {
        cur = match (cur, seg) {
            (Value::Map(m), Seg::Key(k, hint)) => match m.get_hinted(k, hint) {
                Some(v) => v,
                None => return optional.then_some(&NIL),
            },
            _ => return None,
        };
    }
    Some(cur)
}

/// Walks a path from the environment's root, hop by hop over document
/// values, converting only the final value.
#[cold]
#[inline(never)]
fn load<'a>(root: &'a Map, path: &'a Path) -> Result<Val<'a>, Fault> {
    let strict = path.access == Access::Strict;
    let mut segs = path.segs.iter();
    let mut cur: &'a Value = match segs.next() {
        Some(Seg::Key(k, _)) => match root.get_hashed(k.hash(), k.as_str()) {
            Some(v) => v,
            None if strict => return Err(Fault::Missing(k.as_str().to_string())),
            None => return Ok(Val::Nil),
        },
        _ => return Ok(Val::Nil),
    };
    for (n, seg) in segs.enumerate() {
        cur = match (cur, seg) {
            (Value::Map(m), Seg::Key(k, _)) => match m.get_hashed(k.hash(), k.as_str()) {
                Some(v) => v,
                None if strict => return Err(Fault::Missing(path.prefix(n + 2))),
                None => return Ok(Val::Nil),
            },
            (Value::List(items), Seg::Index(i)) => match index_in(*i, items.len()) {
                Some(i) => &items[i],
                None => {
                    return Err(Fault::OutOfRange {
                        index: *i,
                        len: items.len(),
                    });
                }
            },
            _ => return step_from(Val::from_doc(cur), path, n + 1),
        };
    }
    Ok(Val::from_doc(cur))
}

/// Finishes a path from segment `from` on with the general rules.
fn step_from<'a>(mut v: Val<'a>, path: &'a Path, from: usize) -> Result<Val<'a>, Fault> {
    for (n, seg) in path.segs.iter().enumerate().skip(from) {
        v = match seg {
            Seg::Key(k, _) => match v.map() {
                Some(m) => match m.get_hashed(k.hash(), k.as_str()) {
                    Some(x) => x,
                    None if path.access == Access::Strict => return Err(Fault::Missing(path.prefix(n + 1))),
                    None => Val::Nil,
                },
                None => match v {
                    Val::Nil if path.access == Access::Optional => return Ok(Val::Nil),
                    other => {
                        return Err(Fault::NoMembers {
                            key: k.as_str().to_string(),
                            got: other.kind(),
                        });
                    }
                },
            },
            Seg::Index(i) => index(v, Val::Int(*i), path.access)?,
        };
    }
    Ok(v)
}

fn get<'a>(v: Val<'a>, path: &'a Path) -> Result<Val<'a>, Fault> {
    step_from(v, path, 0)
}

/// A string's items, as expr-lang loops over a string: each a number,
/// here the character's code point (strings count characters, D5; Go
/// gives its bytes, the same for ASCII text).
fn code_points<'a>(arena: &'a Bump, s: &str) -> ListRef<'a> {
    let items = BumpVec::from_iter_in(s.chars().map(|c| Val::Int(i64::from(u32::from(c)))), arena);
    ListRef::Vals(items.into_bump_slice())
}
/// Takes one predicate or body result into the frame.
fn step<'a>(f: &mut Frame<'a>, v: Val<'a>) -> Result<(), Fault> {
    let current = f.at.saturating_sub(1);
    match f.kind {
        Loop::Map => f.out.push(v),
        Loop::GroupBy | Loop::SortBy | Loop::SortByDesc => f.out.push(v),
        Loop::Reduce | Loop::ReduceFrom => {
            // The accumulator can wrap itself once per item.
            if deeper_than(v, VALUE_DEPTH) {
                return Err(Fault::TooDeep(VALUE_DEPTH));
            }
            f.acc = v;
        }
        kind => {
            let b = truth(v)?;
            match kind {
                Loop::Filter if b => f.out.push(f.items.get(current).unwrap_or(Val::Nil)),
                Loop::All if !b => {
                    f.acc = Val::Bool(false);
                    f.done = true;
                }
                Loop::Any if b => {
                    f.acc = Val::Bool(true);
                    f.done = true;
                }
                Loop::None if b => {
                    f.acc = Val::Bool(false);
                    f.done = true;
                }
                Loop::One | Loop::Count if b => {
                    f.count += 1;
                    f.done = kind == Loop::One && f.count > 1;
                }
                Loop::Find | Loop::FindIndex if b => {
                    f.hit = Some(current);
                    f.done = true;
                }
                Loop::FindLast | Loop::FindLastIndex if b => f.hit = Some(current),
                _ => {}
            }
        }
    }
    Ok(())
}

/// The result of a finished loop.
fn finish<'a>(arena: &'a Bump, f: Frame<'a>) -> Result<Val<'a>, Fault> {
    Ok(match f.kind {
        Loop::Filter | Loop::Map => Val::List(f.out.into_bump_slice()),
        Loop::All | Loop::Any | Loop::None | Loop::Reduce | Loop::ReduceFrom => f.acc,
        Loop::One => Val::Bool(f.count == 1),
        Loop::Count => Val::Int(f.count as i64),
        Loop::Find | Loop::FindLast => f.hit.and_then(|i| f.items.get(i)).unwrap_or(Val::Nil),
        // No match is nil, as expr-lang compiles it (`OpNil` after the loop).
        Loop::FindIndex | Loop::FindLastIndex => f.hit.map_or(Val::Nil, |i| Val::Int(i as i64)),
        Loop::SortBy | Loop::SortByDesc => {
            let keys = f.out;
            let mut order: Vec<usize> = (0..keys.len()).collect();
            let mut failure = None;
            // Descending compares the other way round rather than reversing
            // the ascending order, so items with equal keys keep their order
            // either way (as expr-lang's sort of a short list does).
            let desc = f.kind == Loop::SortByDesc;
            order.sort_by(|&x, &y| {
                let (a, b) = if desc { (y, x) } else { (x, y) };
                match ops::compare(keys[a], keys[b]) {
                    Ok(o) => o,
                    Err(e) => {
                        failure.get_or_insert(e);
                        std::cmp::Ordering::Equal
                    }
                }
            });
            if let Some(e) = failure {
                return Err(Fault::Op(e));
            }
            let items: BumpVec<'a, Val<'a>> =
                BumpVec::from_iter_in(order.into_iter().map(|i| f.items.get(i).unwrap_or(Val::Nil)), arena);
            Val::List(items.into_bump_slice())
        }
        Loop::GroupBy => {
            let mut groups: Vec<(&'a str, Vec<Val<'a>>)> = Vec::new();
            for (i, key) in f.out.iter().enumerate() {
                // Keys are text, as Windsor prints a grouping (Go's
                // fmt.Sprint of each key): 1, true, <nil>.
                let name: &'a str = match *key {
                    Val::Str(s) => s,
                    Val::Nil => "<nil>",
                    Val::Doc(_) | Val::List(_) | Val::Map(_) | Val::Func(_) => {
                        return Err(Fault::Op(OpError::Other(format!(
                            "cannot group by a {}",
                            key.type_name()
                        ))));
                    }
                    other => {
                        let mut s = bumpalo::collections::String::new_in(arena);
                        text::push_text(&mut s, other);
                        s.into_bump_str()
                    }
                };
                let item = f.items.get(i).unwrap_or(Val::Nil);
                match groups.iter_mut().find(|(k, _)| *k == name) {
                    Some((_, g)) => g.push(item),
                    None => groups.push((name, vec![item])),
                }
            }
            let entries: BumpVec<'a, (&'a str, Val<'a>)> = BumpVec::from_iter_in(
                groups
                    .into_iter()
                    .map(|(k, g)| (k, Val::List(arena.alloc_slice_copy(&g)))),
                arena,
            );
            Val::Map(entries.into_bump_slice())
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use bpvm_runtime::{Environment, Hint, Key};

    /// `x <test> consts[0]` as a fused decision, true or false.
    fn fused(test: Test, k: Value, env: &str) -> Result<bool, Fault> {
        let path = Path::new(vec![Seg::Key(Key::new("x"), Hint::default())], Access::Optional, (0, 1));
        let prog = Program {
            code: vec![
                Op::JumpUnless {
                    path: 0,
                    test,
                    c: 0,
                    to: 3,
                },
                Op::True,
                Op::Return,
                Op::False,
                Op::Return,
            ],
            consts: vec![k],
            paths: vec![path],
            decision: true,
            ..Program::default()
        };
        let env = Environment::from_yaml(env).unwrap();
        match Vm::new().run(&prog, &env) {
            Ok(Val::Bool(b)) => Ok(b),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e.fault),
        }
    }

    #[test]
    fn typed_tests_agree_with_the_general_ones() {
        let consts = [
            Value::Int(2),
            Value::from("2"),
            Value::Bool(true),
            Value::Float(2.0),
            Value::Null,
        ];
        let envs = [
            "x: 2",
            "x: 2.0",
            "x: 3",
            "x: '2'",
            "x: true",
            "x: null",
            "y: 1",
            "x: [2]",
            "x: {a: 2}",
        ];
        let tests = [Test::Eq, Test::Ne, Test::Lt, Test::Le, Test::Gt, Test::Ge];
        for k in &consts {
            for env in envs {
                for test in tests {
                    let typed = test.for_constant(k);
                    assert_eq!(
                        fused(typed, k.clone(), env),
                        fused(test, k.clone(), env),
                        "x {test:?} {k:?} with {env}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_typed_test_with_a_constant_of_another_type_is_general() {
        for test in [Test::StrEq, Test::IntEq, Test::BoolEq, Test::IntLt] {
            assert_eq!(
                fused(test, Value::Float(2.0), "x: 2"),
                fused(test.general(), Value::Float(2.0), "x: 2")
            );
        }
    }
}
