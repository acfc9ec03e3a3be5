//! From syntax tree to bytecode.
//!
//! - Chains of `.name` and constant `[n]` become one `Load`/`Get` over a
//!   path of pre-hashed keys.
//! - `&&`, `||`, `!` and ternary conditions compile to jumps ("branch
//!   context"), so `(a || b) && c` never materialises an intermediate bool;
//!   a final pass threads jumps that land on unconditional jumps. Under
//!   [`Logic::ExprLang`] an operand that is not surely a bool is checked
//!   (`AssertBool`) before its jump, and `&&`/`||` in value context give
//!   their last operand as it is.
//! - `x == "literal"` compiles to one `EqConst`.
//! - Calls are resolved against the dialect's library: an unknown function
//!   or a wrong number of arguments is a compile error at the call.

use crate::ast::{Accessor, Binary, Call, Expr, Kind, Link, Span, Step, Unary};
use crate::dialect::{Dialect, Logic};
use crate::host_line::HostLine;
use crate::logic::is_test;
use crate::peephole;
use crate::table::{Index, constant_hash, path_hash};
use bpvm_runtime::{Builtin, Ctx, Diagnostic, Hint, Key, Library, Value, Vocabulary};
use bpvm_vm::{Access, Loop, Op, Path, Program, Seg, Site, TextRule};

/// What compiling a part of the tree gives: nothing, or why not (boxed,
/// to keep each level of a deeply nested expression's frames small).
pub(crate) type Emitted = Result<(), Box<Diagnostic>>;

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
    labels: smallvec::SmallVec<[Option<u32>; 16]>,
    /// Predicate loops enclosing the current position.
    loops: u32,
    /// Whether `finish` applies the peephole rewrites.
    optimize: bool,
    /// The rules of boolean positions.
    logic: Logic,
    /// Where constants and paths already in the tables are.
    consts_at: Index,
    paths_at: Index,
}

impl<'l> Gen<'l> {
    pub fn new(source: &str, dialect: Dialect, lib: &'l Library, optimize: bool, logic: Logic) -> Gen<'l> {
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
            labels: smallvec::SmallVec::new(),
            loops: 0,
            optimize,
            logic,
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

    fn error(&self, span: Span, message: impl Into<String>) -> Box<Diagnostic> {
        Box::new(Diagnostic::new(
            message,
            &self.prog.source,
            span.0 as usize,
            span.1 as usize,
        ))
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
    //
    // The functions that recurse (once per level of nesting) keep their
    // own work small and leave messages and constants to functions that
    // return before compiling goes deeper: the deepest expression allowed
    // then compiles on a small stack even in a debug build.

    /// Compiles a whole expression so that it leaves its value on the stack.
    pub fn expression(&mut self, e: &Expr) -> Result<(), Diagnostic> {
        self.expr(e).map_err(|d| *d)
    }

    /// Compiles `e` so that it leaves one value on the stack.
    fn expr(&mut self, e: &Expr) -> Emitted {
        let span = e.span;
        match &e.kind {
            Kind::Ident(_) => self.path(e, &[], span.0),
            Kind::Access(base, steps) => self.access_chain(base, steps, span.0),
            Kind::Chain(first, links) if links.is_empty() => self.expr(first),
            Kind::Unary(Unary::Not, _) => self.condition_value(e),
            Kind::Chain(first, links) if is_condition(&e.kind) => match self.logic {
                // A chain whose last operand is a bool is a condition under
                // either rules (and can become a chain of fused tests).
                Logic::ExprLang if !yields_bool(&e.kind) => self.logic_value(first, links, span),
                _ => self.condition_value(e),
            },
            Kind::Chain(first, links) => self.chain(first, links, span.0),
            Kind::Unary(op, a) => self.unary(*op, a, span),
            Kind::Ternary(c, a, b) => self.ternary(c, a, b, span),
            Kind::List(items) => self.list(items, span),
            Kind::Map(entries) => self.map(entries, span),
            Kind::Call(call) => self.call(call, span),
            Kind::Predicate(kind, args, body) => self.predicate(*kind, args, body, span),
            Kind::Let(name, value, body) => self.let_binding(name, value, body, span),
            _ => self.leaf(e),
        }
    }

    /// Compiles a condition so that it leaves `true` or `false`.
    fn condition_value(&mut self, e: &Expr) -> Emitted {
        let (f, end) = (self.label(), self.label());
        self.branch(e, false, f, "")?;
        self.emit(Op::True, e.span, "");
        self.jump(Op::Jump, end, e.span, "");
        self.place(f);
        self.emit(Op::False, e.span, "");
        self.place(end);
        Ok(())
    }

    /// Compiles a chain of `&&` or `||` so that it leaves expr-lang's
    /// value: every operand but the last is a condition (a bool, checked)
    /// that can decide the result (`false` for `&&`, `true` for `||`);
    /// when none does, the last operand is the result as it is.
    fn logic_value(&mut self, first: &Expr, links: &[Link], span: Span) -> Emitted {
        let (what, decides) = if links[0].op == Binary::And {
            ("&&", false)
        } else {
            ("||", true)
        };
        let (decided, end) = (self.label(), self.label());
        let last = links.len();
        for (i, x) in std::iter::once(first).chain(links.iter().map(|l| &l.rhs)).enumerate() {
            if i < last {
                self.branch(x, decides, decided, what)?;
            } else {
                self.expr(x)?;
            }
        }
        self.jump(Op::Jump, end, span, what);
        self.place(decided);
        self.emit(if decides { Op::True } else { Op::False }, span, what);
        self.place(end);
        Ok(())
    }

    /// Compiles `first op x op y …` left to right.
    fn chain(&mut self, first: &Expr, links: &[Link], start: u32) -> Emitted {
        for (i, link) in links.iter().enumerate() {
            let span = (start, link.rhs.span.1);
            self.binary(link.op, (i == 0).then_some(first), &link.rhs, span)?;
            if link.not {
                self.emit(Op::Not, span, "not");
            }
        }
        Ok(())
    }

    fn unary(&mut self, op: Unary, a: &Expr, span: Span) -> Emitted {
        self.expr(a)?;
        if op == Unary::Plus {
            self.emit(Op::Int(0), span, "+");
            self.emit(Op::Add, a.span, "+");
        } else {
            self.emit(Op::Neg, a.span, "-");
        }
        Ok(())
    }

    fn ternary(&mut self, c: &Expr, a: &Expr, b: &Expr, span: Span) -> Emitted {
        let (otherwise, end) = (self.label(), self.label());
        self.branch(c, false, otherwise, "?:")?;
        self.expr(a)?;
        self.jump(Op::Jump, end, span, "");
        self.place(otherwise);
        self.expr(b)?;
        self.place(end);
        Ok(())
    }

    fn list(&mut self, items: &[Expr], span: Span) -> Emitted {
        for item in items {
            self.expr(item)?;
        }
        self.emit(Op::List(items.len() as u32), span, "list");
        Ok(())
    }

    fn map(&mut self, entries: &[(Expr, Expr)], span: Span) -> Emitted {
        for (k, v) in entries {
            self.expr(k)?;
            self.expr(v)?;
        }
        self.emit(Op::Map(entries.len() as u32), span, "map literal");
        Ok(())
    }

    fn let_binding(&mut self, name: &str, value: &Expr, body: &Expr, span: Span) -> Emitted {
        self.check_let_name(name, span)?;
        self.expr(value)?;
        let slot = self.prog.locals;
        self.prog.locals += 1;
        self.emit(Op::SetLocal(slot), span, "let");
        self.scope.push((name.to_string(), slot));
        let r = self.expr(body);
        self.scope.pop();
        r
    }

    /// A `let` name must be new: not a function's, not another `let`'s in
    /// scope (expr-lang's checker, `variableDeclaratorNode`).
    fn check_let_name(&self, name: &str, span: Span) -> Emitted {
        if name.is_empty() || self.dialect != Dialect::Windsor {
            return Ok(());
        }
        let message = if self.lib.find(name).is_some() || crate::ast::predicate(name).is_some() {
            format!("'{name}' is a function; a let needs a name of its own")
        } else if self.scope.iter().any(|(n, _)| n == name) {
            format!("'{name}' is already a let name here; a let needs a name of its own")
        } else {
            return Ok(());
        };
        let written = self.prog.source.get(span.0 as usize..span.1 as usize).unwrap_or("");
        let at = span.0 + written.get(3..).and_then(|t| t.find(name)).map_or(0, |i| i as u32 + 3);
        Err(self.error((at, at + name.len() as u32), message))
    }

    /// An expression with nothing inside to compile first.
    fn leaf(&mut self, e: &Expr) -> Emitted {
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
            Kind::Bytes(b) => {
                let c = self.constant(Value::Bytes(b.as_slice().into()));
                self.emit(Op::Const(c), span, "bytes");
            }
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
            Kind::FuncRef(name) => {
                let f = self.resolve(name, span)?;
                self.emit(Op::Func(f), span, "function");
            }
            _ => return Err(self.error(span, "this expression cannot be compiled here")),
        }
        Ok(())
    }

    /// Compiles one operation of a chain: `a op b`, or, with `a` absent,
    /// `op b` applied to the value the chain has left on the stack so far.
    fn binary(&mut self, op: Binary, a: Option<&Expr>, b: &Expr, span: Span) -> Emitted {
        let what = op.text();
        match op {
            Binary::Coalesce => {
                let end = self.label();
                self.operand(a)?;
                self.jump(Op::JumpIfNotNil, end, span, "??");
                self.expr(b)?;
                self.place(end);
            }
            Binary::Eq | Binary::Ne => match self.literal_test(op, a, b) {
                Some((x, test)) => {
                    self.operand(x)?;
                    self.emit(test, span, what);
                }
                None => self.operation(op, a, b, span)?,
            },
            Binary::Matches => match &b.kind {
                Kind::Str(pattern) => {
                    let r = self.regex(pattern, b.span)?;
                    self.operand(a)?;
                    self.emit(Op::MatchesConst(r), span, what);
                }
                _ => self.operation(op, a, b, span)?,
            },
            Binary::NotIn => {
                self.operand(a)?;
                self.expr(b)?;
                self.emit(Op::In, span, what);
                self.emit(Op::Not, span, what);
            }
            _ => self.operation(op, a, b, span)?,
        }
        Ok(())
    }

    /// An operator applied to both operands on the stack.
    fn operation(&mut self, op: Binary, a: Option<&Expr>, b: &Expr, span: Span) -> Emitted {
        self.operand(a)?;
        self.expr(b)?;
        self.emit(op_code(op), span, op.text());
        Ok(())
    }

    /// The left operand of an operation: compiled, or already on the stack.
    fn operand(&mut self, a: Option<&Expr>) -> Emitted {
        match a {
            Some(a) => self.expr(a),
            None => Ok(()),
        }
    }

    /// `x == literal` (either way round) as one `EqConst`/`NeConst`: the
    /// operand left to compile, and the test.
    fn literal_test<'e>(&mut self, op: Binary, a: Option<&'e Expr>, b: &'e Expr) -> Option<(Option<&'e Expr>, Op)> {
        let (x, lit) = match (a, &b.kind) {
            (_, k) if is_scalar_literal(k) => (a, b),
            (Some(a), _) if is_scalar_literal(&a.kind) => (Some(b), a),
            _ => return None,
        };
        let c = self.constant(literal_value(&lit.kind));
        Some((
            x,
            if op == Binary::Eq {
                Op::EqConst(c)
            } else {
                Op::NeConst(c)
            },
        ))
    }

    /// A regular expression written as a literal, compiled now.
    fn regex(&mut self, pattern: &str, span: Span) -> Result<u32, Box<Diagnostic>> {
        let re =
            regex::Regex::new(pattern).map_err(|e| self.error(span, format!("invalid regular expression: {e}")))?;
        self.prog.regexes.push(re);
        Ok((self.prog.regexes.len() - 1) as u32)
    }

    // ── branch context ───────────────────────────────────────────────

    /// Compiles `e` as a condition: jump to `target` when its truth equals
    /// `when`, fall through otherwise. `what` names the construct whose
    /// operand `e` is, for the error when it is not a bool.
    fn branch(&mut self, e: &Expr, when: bool, target: Label, what: &'static str) -> Emitted {
        match &e.kind {
            Kind::Unary(Unary::Not, a) => self.branch(a, !when, target, "!"),
            Kind::Chain(first, links) if is_condition(&e.kind) => self.branch_chain(first, links, when, target, what),
            Kind::Bool(b) => {
                if *b == when {
                    self.jump(Op::Jump, target, e.span, what);
                }
                Ok(())
            }
            Kind::Nil if self.logic == Logic::Windsor => {
                if !when {
                    self.jump(Op::Jump, target, e.span, what);
                }
                Ok(())
            }
            // A condition that is a `?:` is each branch's condition, so a
            // branch that is not a bool is named as folding `true ? a : b`
            // to `a` names it.
            Kind::Ternary(c, a, b) if self.logic == Logic::ExprLang => {
                let (otherwise, end) = (self.label(), self.label());
                self.branch(c, false, otherwise, "?:")?;
                self.branch(a, when, target, what)?;
                self.jump(Op::Jump, end, e.span, what);
                self.place(otherwise);
                self.branch(b, when, target, what)?;
                self.place(end);
                Ok(())
            }
            _ => {
                self.expr(e)?;
                if self.logic == Logic::ExprLang && !yields_bool(&e.kind) {
                    self.emit(Op::AssertBool, e.span, what);
                }
                let make = if when { Op::JumpIfTrue } else { Op::JumpIfFalse };
                self.jump(make, target, e.span, what);
                Ok(())
            }
        }
    }

    /// A chain of `&&` jumps when all its operands are true, or as soon as
    /// one is false; a chain of `||` is the mirror image. `outer` names the
    /// construct the chain is a condition of: under expr-lang's rules the
    /// chain's value is its last operand, so that operand is that
    /// construct's to check.
    fn branch_chain(
        &mut self,
        first: &Expr,
        links: &[Link],
        when: bool,
        target: Label,
        outer: &'static str,
    ) -> Emitted {
        let (what, all) = if links[0].op == Binary::And {
            ("&&", true)
        } else {
            ("||", false)
        };
        let last = links.len();
        let last_what = match self.logic {
            Logic::ExprLang if !outer.is_empty() => outer,
            _ => what,
        };
        let operands = std::iter::once(first).chain(links.iter().map(|l| &l.rhs));
        if when != all {
            for (i, x) in operands.enumerate() {
                self.branch(x, when, target, if i < last { what } else { last_what })?;
            }
            return Ok(());
        }
        let skip = self.label();
        for (i, x) in operands.enumerate() {
            if i < last {
                self.branch(x, !all, skip, what)?;
            } else {
                self.branch(x, all, target, last_what)?;
            }
        }
        self.place(skip);
        Ok(())
    }

    // ── paths ────────────────────────────────────────────────────────

    /// Compiles a base and its accessors: each run of `.name` and
    /// constant `[n]` becomes one `Load`/`Get` over a path; a computed
    /// index or a slice is an instruction of its own.
    fn access_chain(&mut self, base: &Expr, steps: &[Step], start: u32) -> Emitted {
        let mut i = path_run(steps);
        self.path(base, &steps[..i], start)?;
        while let Some(step) = steps.get(i) {
            let run = path_run(&steps[i..]);
            if run > 0 {
                let end = steps[i + run - 1].end;
                let p = self.add_path(segments(&steps[i..i + run]).collect(), (start, end));
                self.emit(Op::Get(p), (start, end), "path");
                i += run;
                continue;
            }
            let span = (start, step.end);
            match &step.op {
                Accessor::Index(index) => {
                    self.expr(index)?;
                    let access = self.access();
                    self.emit(Op::Index(access), span, "[]");
                }
                Accessor::Slice(from, to) => {
                    for bound in [from, to] {
                        match bound {
                            Some(b) => self.expr(b)?,
                            None => self.emit(Op::Nil, span, "slice"),
                        }
                    }
                    self.emit(Op::Slice, span, "[:]");
                }
                Accessor::Member(_) => {}
            }
            i += 1;
        }
        Ok(())
    }

    /// Compiles `base` and the path `steps` right after it as one
    /// instruction: `Load` from the environment when `base` is a name
    /// there, else `Get` from `base`'s value.
    fn path(&mut self, base: &Expr, steps: &[Step], start: u32) -> Emitted {
        let end = steps.last().map_or(base.span.1, |s| s.end);
        let span = if steps.is_empty() { base.span } else { (start, end) };
        let written = (base.span.0, end);
        let mut steps = steps;
        let root = match &base.kind {
            Kind::Ident(name) => match self.scope.iter().rev().find(|(n, _)| n == name) {
                Some(&(_, slot)) => {
                    self.emit(Op::Local(slot), base.span, "let");
                    None
                }
                None if name == ENV && self.dialect == Dialect::Windsor => match steps.first() {
                    // `$env.name` reads `name` from the environment, even
                    // where a `let` hides it.
                    Some(Step {
                        op: Accessor::Member(key),
                        ..
                    }) => {
                        steps = &steps[1..];
                        Some(key.as_str())
                    }
                    _ => {
                        self.emit(Op::Env, base.span, "$env");
                        None
                    }
                },
                None => Some(name.as_str()),
            },
            _ => {
                self.expr(base)?;
                None
            }
        };
        if let Some(name) = root {
            let mut segs = Vec::with_capacity(steps.len() + 1);
            segs.push(Seg::Key(Key::shared(name), Hint::default()));
            segs.extend(segments(steps));
            let p = self.add_path(segs, written);
            self.emit(Op::Load(p), span, "path");
        } else if !steps.is_empty() {
            let p = self.add_path(segments(steps).collect(), written);
            self.emit(Op::Get(p), span, "path");
        }
        Ok(())
    }

    /// The path of `segs` written at `span`: one entry per distinct path.
    fn add_path(&mut self, segs: Vec<Seg>, span: (u32, u32)) -> u32 {
        let access = self.access();
        let path = Path::new(segs, access, span);
        let paths = &self.prog.paths;
        if let Some(i) = self
            .paths_at
            .find(paths, path_hash, || path_hash(&path), |p| p.reads_as(&path))
        {
            return i;
        }
        self.prog.paths.push(path);
        self.paths_at.added(&self.prog.paths, path_hash);
        (self.prog.paths.len() - 1) as u32
    }

    // ── calls ────────────────────────────────────────────────────────

    fn resolve(&mut self, name: &str, span: Span) -> Result<u32, Box<Diagnostic>> {
        let Some(f) = self.lib.find(name) else {
            // Bluelink suggests one of its core functions, as libs/blueprint
            // 0.52 does; Windsor's message stays as its reference cases
            // have it.
            let near = match self.dialect {
                Dialect::Bluelink => bpvm_runtime::suggest::closest(name, &self.lib.names()),
                Dialect::Windsor => None,
            };
            let hint = near.map(|n| format!("; did you mean '{n}'?")).unwrap_or_default();
            return Err(self.error(span, format!("unknown function '{name}'{hint}")));
        };
        if let Some(i) = self.prog.funcs.iter().position(|g| std::ptr::eq(*g, f)) {
            return Ok(i as u32);
        }
        self.prog.funcs.push(f);
        Ok((self.prog.funcs.len() - 1) as u32)
    }

    /// A pure function called with literal arguments only is run once
    /// now: if it refuses an argument's type, that is a compile error at
    /// the call (expr-lang's checker types literals and refuses them when
    /// compiling too, even in a branch never taken). A failure about an
    /// argument's value (`int('x')`, `repeat('', -1)`) is expr-lang's at
    /// run time, so it is left for when, and if, the call runs.
    fn check_literal_call(&self, builtin: &Builtin, call: &Call, span: Span) -> Emitted {
        let mut args = Vec::with_capacity(call.args.len());
        for a in &call.args {
            let Some(v) = crate::literal_calls::value(a) else {
                return Ok(());
            };
            args.push(v);
        }
        let arena = bumpalo::Bump::new();
        let mut ctx = Ctx::new(&arena, &());
        match (builtin.f)(&mut ctx, &args) {
            Err(e) if !e.deferred && !e.kinds.is_empty() => Err(self.error(span, e.text(self.prog.vocabulary))),
            _ => Ok(()),
        }
    }

    fn call(&mut self, call: &Call, span: Span) -> Emitted {
        let (f, argc) = self.check_call(call, span)?;
        for arg in &call.args {
            self.expr(arg)?;
        }
        for (name, name_span, value) in &call.named {
            let c = self.constant(Value::Str(name.as_str().into()));
            self.emit(Op::Const(c), *name_span, "name");
            self.expr(value)?;
        }
        let name = self.prog.funcs[f as usize].name;
        self.emit(Op::Call { func: f, argc }, span, name);
        Ok(())
    }

    /// Resolves a call's function and checks its arguments: the
    /// function's index and the number of values it is called with.
    fn check_call(&mut self, call: &Call, span: Span) -> Result<(u16, u16), Box<Diagnostic>> {
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
                format!("{}() takes {}, got {}", call.name, builtin.arguments(), argc),
            ));
        }
        if builtin.pure && call.literal_args {
            self.check_literal_call(builtin, call, span)?;
        }
        match (u16::try_from(f), u16::try_from(argc)) {
            (Ok(f), Ok(argc)) => Ok((f, argc)),
            _ => Err(self.error(span, "too many arguments")),
        }
    }

    fn predicate(&mut self, kind: Loop, args: &[Expr], body: &Expr, span: Span) -> Emitted {
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
        if self.logic == Logic::ExprLang && is_test(kind) && !yields_bool(&body.kind) {
            self.emit(Op::AssertBool, body.span, name);
        }
        self.emit(Op::LoopStep, body.span, name);
        self.jump(Op::Jump, top, span, name);
        self.place(end);
        self.emit(Op::LoopEnd, span, name);
        Ok(())
    }
}

/// The name of the whole environment.
const ENV: &str = "$env";

/// How many of `steps`, from the first, a path can take: names and
/// constant indexes.
fn path_run(steps: &[Step]) -> usize {
    steps
        .iter()
        .take_while(|s| match &s.op {
            Accessor::Member(_) => true,
            Accessor::Index(i) => matches!(i.kind, Kind::Int(_)),
            Accessor::Slice(..) => false,
        })
        .count()
}

/// The path segments of steps that [`path_run`] took.
fn segments(steps: &[Step]) -> impl Iterator<Item = Seg> + '_ {
    steps.iter().filter_map(|s| match &s.op {
        Accessor::Member(key) => Some(Seg::Key(Key::shared(key), Hint::default())),
        Accessor::Index(index) => match index.kind {
            Kind::Int(i) => Some(Seg::Index(i)),
            _ => None,
        },
        _ => None,
    })
}

/// The instruction of an operator that takes its operands from the stack.
fn op_code(op: Binary) -> Op {
    match op {
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
        Binary::Range => Op::Range,
        Binary::And | Binary::Or | Binary::Coalesce | Binary::NotIn => unreachable!("compiled with jumps"),
    }
}

/// Whether `k` is always a bool when it runs (it may fail instead): a
/// bool literal, `!x`, a comparison, `in`, `matches`, …, `all`, `any`,
/// `none` and `one`; a chain of `&&` or `||` when its last operand is
/// (under expr-lang's rules that operand is its value, the others are
/// checked).
fn yields_bool(k: &Kind) -> bool {
    match k {
        Kind::Bool(_) | Kind::Unary(Unary::Not, _) => true,
        Kind::Chain(_, links) if is_condition(k) => links.last().is_some_and(|l| yields_bool(&l.rhs.kind)),
        Kind::Chain(_, links) => links.first().is_some_and(|l| l.not || l.op.tests()),
        Kind::Predicate(kind, ..) => matches!(kind, Loop::All | Loop::Any | Loop::None | Loop::One),
        _ => false,
    }
}

/// Whether `k` is a condition: `!x`, or a chain of `&&` or of `||`.
fn is_condition(k: &Kind) -> bool {
    match k {
        Kind::Unary(Unary::Not, _) => true,
        Kind::Chain(_, links) => links.first().is_some_and(|l| matches!(l.op, Binary::And | Binary::Or)),
        _ => false,
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
