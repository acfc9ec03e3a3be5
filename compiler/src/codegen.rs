//! From syntax tree to bytecode.
//!
//! - Chains of `.name` and constant `[n]` become one `Load`/`Get` over a
//!   path of pre-hashed keys.
//! - `&&`, `||`, `!` and ternary conditions compile to jumps ("branch
//!   context"), so `(a || b) && c` never materialises an intermediate bool;
//!   a final pass threads jumps that land on unconditional jumps.
//! - `x == "literal"` compiles to one `EqConst`.
//! - Calls are resolved against the dialect's library: an unknown function
//!   or a wrong number of arguments is a compile error at the call.

use crate::Dialect;
use crate::ast::{Binary, Call, Expr, Kind, Span, Unary};
use crate::host_line::HostLine;
use crate::peephole;
use crate::table::{Index, constant_hash, path_hash};
use bpvm_runtime::{Builtin, Ctx, Diagnostic, Hint, Key, Library, Val, Value, Vocabulary};
use bpvm_vm::{Access, Loop, Op, Path, Program, Seg, Site, TextRule};

/// A forward reference to an instruction address.
#[derive(Clone, Copy)]
struct Label(usize);

pub(crate) struct Gen<'l> {
    pub prog: Program,
    dialect: Dialect,
    lib: &'l Library,
    /// Let bindings in scope: (name, slot).
    scope: Vec<(String, u32)>,
    /// Resolved label addresses.
    labels: Vec<Option<u32>>,
    /// Predicate loops enclosing the current position.
    loops: u32,
    /// Whether `finish` applies the peephole rewrites.
    optimize: bool,
    /// Where constants and paths already in the tables are.
    consts_at: Index,
    paths_at: Index,
}

impl<'l> Gen<'l> {
    pub fn new(source: &str, dialect: Dialect, lib: &'l Library, optimize: bool) -> Gen<'l> {
        // About one instruction per three bytes of source.
        let prog = Program {
            source: source.to_string(),
            vocabulary: match dialect {
                Dialect::Windsor => Vocabulary::Expr,
                Dialect::Bluelink => Vocabulary::Bluelink,
            },
            code: Vec::with_capacity(source.len() / 3 + 2),
            sites: Vec::with_capacity(source.len() / 3 + 2),
            ..Program::default()
        };
        Gen {
            prog,
            dialect,
            lib,
            scope: Vec::new(),
            labels: Vec::new(),
            loops: 0,
            optimize,
            consts_at: Index::default(),
            paths_at: Index::default(),
        }
    }

    fn access(&self) -> Access {
        match self.dialect {
            Dialect::Windsor => Access::Optional,
            Dialect::Bluelink => Access::Strict,
        }
    }

    /// How a `${…}` result becomes text on the host line `before`
    /// describes.
    pub fn text_rule(&self, before: &HostLine) -> TextRule {
        match self.dialect {
            Dialect::Windsor => TextRule::Windsor {
                indent: u16::try_from(before.indent() + 2).unwrap_or(u16::MAX),
            },
            Dialect::Bluelink => TextRule::Bluelink,
        }
    }

    pub fn emit(&mut self, op: Op, span: Span, what: &'static str) {
        self.prog.code.push(op);
        self.prog.sites.push(Site {
            start: span.0,
            end: span.1,
            what,
        });
    }

    fn label(&mut self) -> Label {
        self.labels.push(None);
        Label(self.labels.len() - 1)
    }

    fn place(&mut self, l: Label) {
        self.labels[l.0] = Some(self.prog.code.len() as u32);
    }

    /// Emits a jump to a label; the operand is the label's id until `finish`.
    fn jump(&mut self, make: fn(u32) -> Op, l: Label, span: Span, what: &'static str) {
        self.emit(make(l.0 as u32), span, what);
    }

    pub fn constant(&mut self, v: Value) -> u32 {
        let consts = &self.prog.consts;
        if let Some(i) = self
            .consts_at
            .find(consts, constant_hash, || constant_hash(&v), |c| identical(c, &v))
        {
            return i;
        }
        self.prog.consts.push(v);
        self.consts_at.added(&self.prog.consts, constant_hash);
        (self.prog.consts.len() - 1) as u32
    }

    fn error(&self, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(message, &self.prog.source, span.0 as usize, span.1 as usize)
    }

    /// Resolves labels and threads jumps; appends `Return`.
    pub fn finish(mut self) -> Program {
        let end = self.prog.code.len() as u32;
        self.emit(Op::Return, (end, end), "");
        let labels = std::mem::take(&mut self.labels);
        let resolve = |l: u32| labels[l as usize].unwrap_or(end);
        for op in self.prog.code.iter_mut() {
            *op = match *op {
                Op::Jump(l) => Op::Jump(resolve(l)),
                Op::JumpIfFalse(l) => Op::JumpIfFalse(resolve(l)),
                Op::JumpIfTrue(l) => Op::JumpIfTrue(resolve(l)),
                Op::JumpIfNotNil(l) => Op::JumpIfNotNil(resolve(l)),
                Op::LoopNext(l) => Op::LoopNext(resolve(l)),
                other => other,
            };
        }
        if self.optimize {
            peephole::optimize(&mut self.prog);
        }
        self.prog.stack = bpvm_vm::max_depth(&self.prog.code);
        self.prog.decision = bpvm_vm::is_decision(&self.prog.code);
        self.prog
    }

    // ── value context ────────────────────────────────────────────────

    /// Compiles `e` so that it leaves one value on the stack.
    pub fn expr(&mut self, e: &Expr) -> Result<(), Diagnostic> {
        let span = e.span;
        match &e.kind {
            Kind::Nil => self.emit(Op::Nil, span, "nil"),
            Kind::Bool(true) => self.emit(Op::True, span, "true"),
            Kind::Bool(false) => self.emit(Op::False, span, "false"),
            Kind::Int(i) => match i32::try_from(*i) {
                Ok(small) => self.emit(Op::Int(small), span, "int"),
                Err(_) => {
                    let c = self.constant(Value::Int(*i));
                    self.emit(Op::Const(c), span, "int");
                }
            },
            Kind::Float(f) => {
                let c = self.constant(Value::Float(*f));
                self.emit(Op::Const(c), span, "float");
            }
            Kind::Str(s) => {
                let c = self.constant(Value::Str(s.as_str().into()));
                self.emit(Op::Const(c), span, "string");
            }
            Kind::Ident(_) | Kind::Member(..) => self.path(e)?,
            Kind::Index(base, index) => {
                if let Kind::Int(_) = index.kind {
                    return self.path(e);
                }
                self.expr(base)?;
                self.expr(index)?;
                let access = self.access();
                self.emit(Op::Index(access), span, "[]");
            }
            Kind::Slice(base, from, to) => {
                self.expr(base)?;
                for bound in [from, to] {
                    match bound {
                        Some(b) => self.expr(b)?,
                        None => self.emit(Op::Nil, span, "slice"),
                    }
                }
                self.emit(Op::Slice, span, "[:]");
            }
            Kind::Unary(Unary::Not, _) | Kind::Binary(Binary::And | Binary::Or, ..) => {
                let (f, end) = (self.label(), self.label());
                self.branch(e, false, f, "")?;
                self.emit(Op::True, span, "");
                self.jump(Op::Jump, end, span, "");
                self.place(f);
                self.emit(Op::False, span, "");
                self.place(end);
            }
            Kind::Unary(Unary::Neg, a) => {
                self.expr(a)?;
                self.emit(Op::Neg, a.span, "-");
            }
            Kind::Unary(Unary::Plus, a) => {
                self.expr(a)?;
                self.emit(Op::Int(0), span, "+");
                self.emit(Op::Add, a.span, "+");
            }
            Kind::Binary(op, a, b) => self.binary(*op, a, b, span)?,
            Kind::Ternary(c, a, b) => {
                let (otherwise, end) = (self.label(), self.label());
                self.branch(c, false, otherwise, "?:")?;
                self.expr(a)?;
                self.jump(Op::Jump, end, span, "");
                self.place(otherwise);
                self.expr(b)?;
                self.place(end);
            }
            Kind::List(items) => {
                for item in items {
                    self.expr(item)?;
                }
                self.emit(Op::List(items.len() as u32), span, "list");
            }
            Kind::Map(entries) => {
                for (k, v) in entries {
                    self.expr(k)?;
                    self.expr(v)?;
                }
                self.emit(Op::Map(entries.len() as u32), span, "map");
            }
            Kind::Call(call) => self.call(call, span)?,
            Kind::Predicate(kind, args, body) => self.predicate(*kind, args, body, span)?,
            Kind::Item | Kind::ItemIndex | Kind::Acc => {
                if self.loops == 0 {
                    return Err(self.error(span, "'#' can only be used inside a predicate"));
                }
                let op = match e.kind {
                    Kind::Item => Op::Item,
                    Kind::ItemIndex => Op::ItemIndex,
                    _ => Op::Acc,
                };
                self.emit(op, span, "#");
            }
            Kind::Let(name, value, body) => {
                self.expr(value)?;
                let slot = self.prog.locals;
                self.prog.locals += 1;
                self.emit(Op::SetLocal(slot), span, "let");
                self.scope.push((name.clone(), slot));
                let r = self.expr(body);
                self.scope.pop();
                r?;
            }
            Kind::FuncRef(name) => {
                let f = self.resolve(name, span)?;
                self.emit(Op::Func(f), span, "function");
            }
        }
        Ok(())
    }

    fn binary(&mut self, op: Binary, a: &Expr, b: &Expr, span: Span) -> Result<(), Diagnostic> {
        let what = op.text();
        match op {
            Binary::Coalesce => {
                let end = self.label();
                self.expr(a)?;
                self.jump(Op::JumpIfNotNil, end, span, "??");
                self.expr(b)?;
                self.place(end);
                return Ok(());
            }
            Binary::Eq | Binary::Ne => {
                let (x, lit) = match (&a.kind, &b.kind) {
                    (_, k) if is_scalar_literal(k) => (a, b),
                    (k, _) if is_scalar_literal(k) => (b, a),
                    _ => (a, b),
                };
                if is_scalar_literal(&lit.kind) {
                    self.expr(x)?;
                    let c = self.constant(literal_value(&lit.kind));
                    let op = if op == Binary::Eq {
                        Op::EqConst(c)
                    } else {
                        Op::NeConst(c)
                    };
                    self.emit(op, span, what);
                    return Ok(());
                }
            }
            Binary::Matches => {
                if let Kind::Str(pattern) = &b.kind {
                    let re = regex::Regex::new(pattern)
                        .map_err(|e| self.error(b.span, format!("invalid regular expression: {e}")))?;
                    self.expr(a)?;
                    self.prog.regexes.push(re);
                    let r = (self.prog.regexes.len() - 1) as u32;
                    self.emit(Op::MatchesConst(r), span, what);
                    return Ok(());
                }
            }
            Binary::NotIn => {
                self.expr(a)?;
                self.expr(b)?;
                self.emit(Op::In, span, what);
                self.emit(Op::Not, span, what);
                return Ok(());
            }
            _ => {}
        }
        self.expr(a)?;
        self.expr(b)?;
        let code = match op {
            Binary::Eq => Op::Eq,
            Binary::Ne => Op::Ne,
            Binary::Lt => Op::Lt,
            Binary::Le => Op::Le,
            Binary::Gt => Op::Gt,
            Binary::Ge => Op::Ge,
            Binary::In => Op::In,
            Binary::Matches => Op::Matches,
            Binary::Contains => Op::Contains,
            Binary::StartsWith => Op::StartsWith,
            Binary::EndsWith => Op::EndsWith,
            Binary::Add => Op::Add,
            Binary::Sub => Op::Sub,
            Binary::Mul => Op::Mul,
            Binary::Div => Op::Div,
            Binary::Mod => Op::Mod,
            Binary::Pow => Op::Pow,
            Binary::And | Binary::Or | Binary::Coalesce | Binary::NotIn => unreachable!("handled above"),
        };
        self.emit(code, span, what);
        Ok(())
    }

    // ── branch context ───────────────────────────────────────────────

    /// Compiles `e` as a condition: jump to `target` when its truth equals
    /// `when`, fall through otherwise. `what` names the construct whose
    /// operand `e` is, for the error when it is not a bool.
    fn branch(&mut self, e: &Expr, when: bool, target: Label, what: &'static str) -> Result<(), Diagnostic> {
        match &e.kind {
            Kind::Unary(Unary::Not, a) => self.branch(a, !when, target, "!"),
            Kind::Binary(Binary::And, a, b) => {
                if when {
                    let skip = self.label();
                    self.branch(a, false, skip, "&&")?;
                    self.branch(b, true, target, "&&")?;
                    self.place(skip);
                } else {
                    self.branch(a, false, target, "&&")?;
                    self.branch(b, false, target, "&&")?;
                }
                Ok(())
            }
            Kind::Binary(Binary::Or, a, b) => {
                if when {
                    self.branch(a, true, target, "||")?;
                    self.branch(b, true, target, "||")?;
                } else {
                    let skip = self.label();
                    self.branch(a, true, skip, "||")?;
                    self.branch(b, false, target, "||")?;
                    self.place(skip);
                }
                Ok(())
            }
            Kind::Bool(b) => {
                if *b == when {
                    self.jump(Op::Jump, target, e.span, what);
                }
                Ok(())
            }
            Kind::Nil => {
                if !when {
                    self.jump(Op::Jump, target, e.span, what);
                }
                Ok(())
            }
            _ => {
                self.expr(e)?;
                let make = if when { Op::JumpIfTrue } else { Op::JumpIfFalse };
                self.jump(make, target, e.span, what);
                Ok(())
            }
        }
    }

    // ── paths ────────────────────────────────────────────────────────

    /// Compiles a chain of members and constant indexes as one instruction.
    fn path(&mut self, e: &Expr) -> Result<(), Diagnostic> {
        let mut segs = Vec::new();
        let mut cur = e;
        loop {
            match &cur.kind {
                Kind::Member(base, key) => {
                    segs.push(Seg::Key(Key::new(key), Hint::default()));
                    cur = base;
                }
                Kind::Index(base, index) if matches!(index.kind, Kind::Int(_)) => {
                    if let Kind::Int(i) = index.kind {
                        segs.push(Seg::Index(i));
                    }
                    cur = base;
                }
                _ => break,
            }
        }
        segs.reverse();
        let text = self
            .prog
            .source
            .get(cur.span.0 as usize..e.span.1 as usize)
            .unwrap_or("")
            .to_string();
        let root = match &cur.kind {
            Kind::Ident(name) => match self.scope.iter().rev().find(|(n, _)| n == name) {
                Some(&(_, slot)) => {
                    self.emit(Op::Local(slot), cur.span, "let");
                    None
                }
                None => Some(name.clone()),
            },
            _ => {
                self.expr(cur)?;
                None
            }
        };
        if let Some(name) = root {
            segs.insert(0, Seg::Key(Key::new(&name), Hint::default()));
            let p = self.add_path(segs, text);
            self.emit(Op::Load(p), e.span, "path");
        } else if !segs.is_empty() {
            let p = self.add_path(segs, text);
            self.emit(Op::Get(p), e.span, "path");
        }
        Ok(())
    }

    fn add_path(&mut self, segs: Vec<Seg>, text: String) -> u32 {
        let access = self.access();
        let path = Path { segs, access, text };
        let paths = &self.prog.paths;
        if let Some(i) = self
            .paths_at
            .find(paths, path_hash, || path_hash(&path), |p| *p == path)
        {
            return i;
        }
        self.prog.paths.push(path);
        self.paths_at.added(&self.prog.paths, path_hash);
        (self.prog.paths.len() - 1) as u32
    }

    // ── calls ────────────────────────────────────────────────────────

    fn resolve(&mut self, name: &str, span: Span) -> Result<u32, Diagnostic> {
        let Some(f) = self.lib.find(name) else {
            return Err(self.error(span, format!("unknown function '{name}'")));
        };
        if let Some(i) = self.prog.funcs.iter().position(|g| std::ptr::eq(*g, f)) {
            return Ok(i as u32);
        }
        self.prog.funcs.push(f);
        Ok((self.prog.funcs.len() - 1) as u32)
    }

    /// A pure function called with literal arguments only is run once
    /// now: if it fails (a wrong type, a bad pattern), that is a compile
    /// error at the call, not a surprise at run time.
    fn check_literal_call(&self, builtin: &Builtin, call: &Call, span: Span) -> Result<(), Diagnostic> {
        let mut args = Vec::with_capacity(call.args.len());
        for a in &call.args {
            args.push(match &a.kind {
                Kind::Nil => Val::Nil,
                Kind::Bool(b) => Val::Bool(*b),
                Kind::Int(i) => Val::Int(*i),
                Kind::Float(f) => Val::Float(*f),
                Kind::Str(s) => Val::Str(s),
                _ => return Ok(()),
            });
        }
        let arena = bumpalo::Bump::new();
        let mut ctx = Ctx {
            arena: &arena,
            host: &(),
        };
        match (builtin.f)(&mut ctx, &args) {
            Err(e) if !e.deferred => Err(self.error(span, e.text(self.prog.vocabulary))),
            _ => Ok(()),
        }
    }

    fn call(&mut self, call: &Call, span: Span) -> Result<(), Diagnostic> {
        let f = self.resolve(&call.name, call.name_span)?;
        let builtin = self.prog.funcs[f as usize];
        if let Some((name, name_span, _)) = call.named.first() {
            if call.name != "object" {
                return Err(self.error(
                    *name_span,
                    format!(
                        "named argument '{name}' given to {}(); only object() takes named arguments",
                        call.name
                    ),
                ));
            }
        }
        let argc = call.args.len() + 2 * call.named.len();
        if call.named.is_empty() && !builtin.accepts(argc) {
            return Err(self.error(
                span,
                format!(
                    "{}() takes {} argument{}, got {}",
                    call.name,
                    builtin.arity(),
                    plural(builtin.max),
                    argc
                ),
            ));
        }
        if builtin.pure && call.named.is_empty() {
            self.check_literal_call(builtin, call, span)?;
        }
        for arg in &call.args {
            self.expr(arg)?;
        }
        for (name, name_span, value) in &call.named {
            let c = self.constant(Value::Str(name.as_str().into()));
            self.emit(Op::Const(c), *name_span, "name");
            self.expr(value)?;
        }
        if argc > u16::MAX as usize {
            return Err(self.error(span, "too many arguments"));
        }
        self.emit(
            Op::Call {
                func: f as u16,
                argc: argc as u16,
            },
            span,
            builtin.name,
        );
        Ok(())
    }

    fn predicate(&mut self, kind: Loop, args: &[Expr], body: &Expr, span: Span) -> Result<(), Diagnostic> {
        for arg in args {
            self.expr(arg)?;
        }
        let name = kind.name();
        self.emit(Op::LoopBegin(kind), args[0].span, name);
        let (top, end) = (self.label(), self.label());
        self.place(top);
        self.jump(Op::LoopNext, end, span, name);
        self.loops += 1;
        let r = self.expr(body);
        self.loops -= 1;
        r?;
        self.emit(Op::LoopStep, body.span, name);
        self.jump(Op::Jump, top, span, name);
        self.place(end);
        self.emit(Op::LoopEnd, span, name);
        Ok(())
    }
}

/// Constant-table identity: same type and same value (`1` is not `1.0`,
/// unlike `==`; floats by bits, so `-0.0` and NaN keep their own entries).
pub(crate) fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
        _ => a == b,
    }
}

fn plural(max: u8) -> &'static str {
    if max == 1 { "" } else { "s" }
}

fn is_scalar_literal(k: &Kind) -> bool {
    matches!(
        k,
        Kind::Nil | Kind::Bool(_) | Kind::Int(_) | Kind::Float(_) | Kind::Str(_)
    )
}

fn literal_value(k: &Kind) -> Value {
    match k {
        Kind::Bool(b) => Value::Bool(*b),
        Kind::Int(i) => Value::Int(*i),
        Kind::Float(f) => Value::Float(*f),
        Kind::Str(s) => Value::Str(s.as_str().into()),
        _ => Value::Null,
    }
}
