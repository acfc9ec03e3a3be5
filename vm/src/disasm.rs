//! Prints a program as one instruction per line, with each operand's
//! meaning spelled out (`Load 0  ; cluster.cni.driver`).

use crate::op::Op;
use crate::program::Program;
use std::fmt::Write;

/// The program as text.
///
/// ```
/// use bpvm_vm::{Op, Program, disassemble};
/// let prog = Program { code: vec![Op::Int(1), Op::Return], ..Program::default() };
/// assert_eq!(disassemble(&prog), "0000  Int 1\n0001  Return\n");
/// ```
pub fn disassemble(prog: &Program) -> String {
    let mut out = String::new();
    for (ip, op) in prog.code.iter().enumerate() {
        let _ = write!(out, "{ip:04}  ");
        let note = match *op {
            Op::Const(c) | Op::EqConst(c) | Op::NeConst(c) => prog.consts.get(c as usize).map(|v| v.to_json()),
            Op::Load(p) | Op::Get(p) => prog.paths.get(p as usize).map(|p| prog.path_text(p)),
            Op::LoadOr { path, c } => match (prog.paths.get(path as usize), prog.consts.get(c as usize)) {
                (Some(p), Some(k)) => Some(format!("{} ?? {}", prog.path_text(p), k.to_json())),
                _ => None,
            },
            Op::Call { func, .. } => prog.funcs.get(func as usize).map(|f| f.name.to_string()),
            Op::Func(f) => prog.funcs.get(f as usize).map(|f| f.name.to_string()),
            Op::Env => Some("$env".to_string()),
            Op::MatchesConst(r) => prog.regexes.get(r as usize).map(|r| format!("/{}/", r.as_str())),
            Op::JumpIf { path, test, c, .. } | Op::JumpUnless { path, test, c, .. } => {
                match (prog.paths.get(path as usize), prog.consts.get(c as usize)) {
                    (Some(p), Some(k)) => Some(match test.operand() {
                        Some(ty) => format!("{} {} {} ({ty})", prog.path_text(p), test.symbol(), k.to_json()),
                        None => format!("{} {} {}", prog.path_text(p), test.symbol(), k.to_json()),
                    }),
                    _ => None,
                }
            }
            _ => None,
        };
        let text = match *op {
            Op::Int(i) => format!("Int {i}"),
            Op::Const(c) => format!("Const {c}"),
            Op::Load(p) => format!("Load {p}"),
            Op::Get(p) => format!("Get {p}"),
            Op::LoadOr { path, c } => format!("LoadOr {path} {c}"),
            Op::Local(n) => format!("Local {n}"),
            Op::SetLocal(n) => format!("SetLocal {n}"),
            Op::EqConst(c) => format!("EqConst {c}"),
            Op::NeConst(c) => format!("NeConst {c}"),
            Op::MatchesConst(r) => format!("MatchesConst {r}"),
            Op::Jump(t) => format!("Jump -> {t:04}"),
            Op::JumpIfFalse(t) => format!("JumpIfFalse -> {t:04}"),
            Op::JumpIfTrue(t) => format!("JumpIfTrue -> {t:04}"),
            Op::JumpIfNotNil(t) => format!("JumpIfNotNil -> {t:04}"),
            Op::JumpIf { path, test, c, to } => format!("JumpIf {path} {} {c} -> {to:04}", test.symbol()),
            Op::JumpUnless { path, test, c, to } => format!("JumpUnless {path} {} {c} -> {to:04}", test.symbol()),
            Op::List(n) => format!("List {n}"),
            Op::Map(n) => format!("Map {n}"),
            Op::Concat(n) => format!("Concat {n}"),
            Op::Call { func, argc } => format!("Call {func} ({argc} args)"),
            Op::Func(f) => format!("Func {f}"),
            Op::LoopBegin(kind) => format!("LoopBegin {}", kind.name()),
            Op::LoopNext(t) => format!("LoopNext -> {t:04}"),
            Op::Index(a) => format!("Index {a:?}"),
            Op::Text(rule) => format!("Text {rule:?}"),
            other => format!("{other:?}"),
        };
        match note {
            Some(n) => {
                let _ = writeln!(out, "{text:<30}; {n}");
            }
            None => {
                out.push_str(&text);
                out.push('\n');
            }
        }
    }
    out
}
