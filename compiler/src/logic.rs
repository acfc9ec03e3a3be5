//! expr-lang's rules for boolean positions ([`Logic::ExprLang`]).
//!
//! Windsor v0.9 compiles each `${…}` body with `expr.Compile(body,
//! expr.AsAny(), expr.Patch(…), expr.Function(…)…)`: no `expr.Env`, so
//! every name is of unknown type when compiled, and expr's defaults
//! (`conf.CreateNew`: `Optimize` and `ShortCircuit` on). What `&&`, `||`,
//! `!`, `?:` and the predicate builtins then do is decided in three places
//! of expr v1.17.8, and bpvm follows each:
//!
//! 1. **The checker** (`checker/checker.go`) rejects, when compiling, an
//!    operand whose type it knows and which is not a bool:
//!    - `unaryNode`, `case "!", "not"`: the operand is bool or unknown,
//!      else "invalid operation: ! (mismatched type …)";
//!    - `binaryNode`, `case "or", "||", "and", "&&"`: both operands bool,
//!      or `MaybeCompatible(…, BoolCheck)` (both unknown, or one unknown
//!      and the other bool): a known non-bool on *either* side is an error,
//!      so `true && 5` and `true && nil` do not compile;
//!    - `conditionalNode`: "non-bool expression (type …) used as condition";
//!    - `builtinNode` for `all`, `none`, `any`, `one`, `filter`, `count`,
//!      `find`, `findLast`, `findIndex`, `findLastIndex`: "predicate should
//!      return boolean".
//!
//!    Types are known for literals (`nil` has a type of its own), list
//!    and map literals, and what operators make of known types (`+` of two
//!    ints is an int, `/` and `**` are floats, `%` an int, `..` a list,
//!    comparisons bools, `??` and `?:` as `binaryNode`/`conditionalNode`
//!    say). [`check`] does the same with the same words as the run-time
//!    error (`'&&' needs a bool, got int (from '5')`), pointing at the
//!    operand. Calls are taken as unknown here (expr knows some builtins'
//!    result types, so `true && len(x)` is a compile error there and an
//!    int here); the `#` of a predicate over a list whose items are all of
//!    one known type has that type. The same natures let
//!    [`crate::natures`] refuse what the checker refuses besides:
//!    `1 == "1"`, `"abc"[0]`, `1.5..3`, `42 in ["a"]`, `len + 1`.
//! 2. **The optimiser** (`optimizer/fold.go`, `case "and", "&&"` and
//!    `case "or", "||"`) rewrites an `&&`/`||` with a literal bool operand
//!    after checking: `true && x` → `x`, `x && true` → `x`, `false && x` and
//!    `x && false` → `false`; `false || x` → `x`, `x || false` → `x`,
//!    `true || x` and `x || true` → `true`. The last operand's rules change
//!    results: `nil && true` is nil (no error) and `'s' || true` is true.
//!    The bool literals it sees are the ones its folding makes: literals,
//!    `!` of one, `==` of two int, string or bool literals, `+ - * %` of
//!    ints and `+` of strings under them, and `&&`/`||` folded before.
//!    [`rewrite`] applies those rewrites, whether or not bpvm folds. The
//!    one failure its folding reports (`case "%"`: an int literal modulo a
//!    literal zero, "integer divide by zero") is a compile error wherever
//!    the operation is, run or not; [`rewrite`] reports it too.
//! 3. **The VM** (`vm/vm.go`): `OpJumpIfFalse` and `OpJumpIfTrue` read
//!    `vm.current().(bool)`, a type assertion that fails for nil or any
//!    other type, and leave the value on the stack; `OpNot` is
//!    `vm.pop().(bool)`. `compiler/compiler.go` (`BinaryNode`) compiles
//!    `a && b` (and `and`) as `a; JumpIfFalse end; Pop; b; end:` and `||`
//!    (and `or`) with `JumpIfTrue`: the left operand must be a bool and is
//!    the result when it decides, else the right operand is the result as
//!    it is. `UnaryNode` compiles `!` and `not` to `OpNot`;
//!    `ConditionalNode` puts `OpJumpIfFalse` after the condition; the
//!    predicate loops (`BuiltinNode`, `emitCond`) jump on the body with
//!    `OpJumpIfFalse`/`OpJumpIfTrue`. The code generator emits
//!    `Op::AssertBool` before a condition jump for such an operand (not for
//!    a comparison, which is always a bool) and compiles `&&`/`||` in value
//!    context so that the last operand is the result unchecked.
//!
//! What is not reproduced: the optimiser's other passes (`in_array.go`
//! turns `x in ['a', 'b']` into a map lookup, so that there `1 in ['a']`
//! fails and `nil in ['']` is true; `predicate_combination.go` merges
//! `all(xs, p) && all(xs, q)`), which are not about boolean positions.

use crate::ast::{Accessor, Binary, Expr, Kind, Link, Span, Step, Unary};
use crate::natures;
use bpvm_runtime::{Diagnostic, Kind as Type, Library, Vocabulary, excerpt};
use bpvm_vm::Loop;

/// What expr's checker knows of a value's type when compiling: `None`
/// when nothing (a name, a member, a call).
type Nature = Option<Type>;

/// The checker's rejections of known non-bool operands (1. above).
pub(crate) fn check(e: &Expr, src: &str, lib: &Library) -> Result<(), Diagnostic> {
    let mut c = Checker {
        src,
        scope: Vec::new(),
        lib,
        items_of: Vec::new(),
        items: Vec::new(),
    };
    c.nature(e).map(|_| ()).map_err(|d| *d)
}

struct Checker<'s> {
    src: &'s str,
    /// The natures of the `let` names in scope.
    scope: Vec<(&'s str, Nature)>,
    /// The functions: a bare name of one is typed as a function (it still
    /// reads the environment when it runs, as in expr-lang).
    lib: &'s Library,
    /// The lists whose items are all of one known type (`arrayNode`), and
    /// that type: list literals, ranges, and what `filter`, `sortBy` and
    /// `map` make of them.
    items_of: Vec<(*const Expr, Type)>,
    /// The item type of each predicate enclosing the current position
    /// (what `#` is), innermost last.
    items: Vec<Nature>,
}

impl<'s> Checker<'s> {
    /// The nature of `e`, after checking everything in it.
    fn nature(&mut self, e: &'s Expr) -> Result<Nature, Box<Diagnostic>> {
        Ok(match &e.kind {
            Kind::Nil => Some(Type::Nil),
            Kind::Bool(_) => Some(Type::Bool),
            Kind::Int(_) => Some(Type::Int),
            Kind::Float(_) => Some(Type::Float),
            Kind::Str(_) => Some(Type::Str),
            Kind::Bytes(_) => Some(Type::Bytes),
            Kind::Ident(name) => match self.scope.iter().rev().find(|(n, _)| *n == name) {
                Some((_, t)) => *t,
                None if self.lib.find(name).is_some() || crate::ast::predicate(name).is_some() => Some(Type::Func),
                None => None,
            },
            Kind::Access(base, steps) => self.access(base, steps)?,
            Kind::Unary(op, a) => {
                let t = self.nature(a)?;
                match op {
                    Unary::Not => {
                        self.need_bool(t, a, "!")?;
                        Some(Type::Bool)
                    }
                    // `-x` keeps a number's type; anything else is left
                    // for run time.
                    Unary::Neg | Unary::Plus => {
                        let what = if *op == Unary::Neg { "-" } else { "+" };
                        if let Some(m) = natures::sign(what, t) {
                            return Err(self.error(e.span, m));
                        }
                        t
                    }
                }
            }
            Kind::Chain(first, links) => {
                let t = self.chain(first, links)?;
                if let [Link { op: Binary::Range, .. }] = links.as_slice() {
                    self.items_of.push((e, Type::Int));
                }
                t
            }
            Kind::Ternary(c, a, b) => {
                let t = self.nature(c)?;
                self.need_bool(t, c, "?:")?;
                let (a, b) = (self.nature(a)?, self.nature(b)?);
                // `conditionalNode`: a nil branch takes the other's type.
                match (a, b) {
                    (Some(Type::Nil), b) => b,
                    (a, Some(Type::Nil)) => a,
                    (Some(a), Some(b)) if a == b => Some(a),
                    _ => None,
                }
            }
            Kind::List(items) => self.list(e, items)?,
            Kind::Map(entries) => {
                for (k, v) in entries {
                    self.nature(k)?;
                    self.nature(v)?;
                }
                Some(Type::Map)
            }
            Kind::Call(call) => self.call(e, call)?,
            Kind::Predicate(kind, args, body) => self.predicate(e, *kind, args, body)?,
            Kind::ItemIndex => Some(Type::Int),
            Kind::Item => self.items.last().copied().flatten(),
            Kind::Acc | Kind::FuncRef(_) => None,
            Kind::Let(name, value, body) => {
                let t = self.nature(value)?;
                self.scope.push((name.as_str(), t));
                let r = self.nature(body);
                self.scope.pop();
                r?
            }
        })
    }

    /// The nature of `first op x op y …`, left to right.
    fn chain(&mut self, first: &'s Expr, links: &'s [Link]) -> Result<Nature, Box<Diagnostic>> {
        let mut left = self.nature(first)?;
        if let Some(l) = links.first()
            && matches!(l.op, Binary::And | Binary::Or)
        {
            self.need_bool(left, first, l.op.text())?;
        }
        let mut left_span = first.span;
        for link in links {
            let right = self.nature(&link.rhs)?;
            self.check_operands(left_span, left, link, right)?;
            left_span.1 = link.rhs.span.1;
            left = match link.op {
                Binary::And | Binary::Or => {
                    self.need_bool(right, &link.rhs, link.op.text())?;
                    Some(Type::Bool)
                }
                _ if link.not => Some(Type::Bool),
                op => operation(op, left, right),
            };
        }
        Ok(left)
    }

    /// A list literal: a list, whose items' type is known when all are
    /// of one.
    fn list(&mut self, e: &'s Expr, items: &'s [Expr]) -> Result<Nature, Box<Diagnostic>> {
        let mut common = None;
        for (i, item) in items.iter().enumerate() {
            let t = self.nature(item)?;
            common = if i == 0 { t } else { common.filter(|c| t == Some(*c)) };
        }
        if let Some(t) = common.filter(|t| *t != Type::Nil) {
            self.items_of.push((e, t));
        }
        Ok(Some(Type::List))
    }

    /// The item type of the list `e`, when known.
    fn items_of(&self, e: &Expr) -> Nature {
        self.items_of.iter().find(|(x, _)| std::ptr::eq(*x, e)).map(|(_, t)| *t)
    }

    /// A predicate builtin: its body is checked with `#` of the list's
    /// item type.
    fn predicate(
        &mut self,
        e: &'s Expr,
        kind: Loop,
        args: &'s [Expr],
        body: &'s Expr,
    ) -> Result<Nature, Box<Diagnostic>> {
        for (i, a) in args.iter().enumerate() {
            let t = self.nature(a)?;
            if let Some(m) = natures::predicate_list(kind.name(), t).filter(|_| i == 0) {
                return Err(self.error(a.span, m));
            }
        }
        let item = args.first().and_then(|list| self.items_of(list));
        self.items.push(item);
        let t = self.nature(body);
        self.items.pop();
        let t = t?;
        if is_test(kind) {
            self.need_bool(t, body, kind.name())?;
        }
        let made = match kind {
            Loop::Filter | Loop::SortBy | Loop::SortByDesc => item,
            Loop::Map => t,
            _ => None,
        };
        if let Some(t) = made.filter(|t| *t != Type::Nil) {
            self.items_of.push((e, t));
        }
        Ok(predicate_nature(kind))
    }

    /// A call's arguments checked; its nature is unknown. Out of
    /// [`Checker::nature`], so that the recursion's frame stays small.
    #[inline(never)]
    fn call(&mut self, e: &'s Expr, call: &'s crate::ast::Call) -> Result<Nature, Box<Diagnostic>> {
        let mut natures = Vec::with_capacity(call.args.len());
        for a in call.args.iter().chain(call.named.iter().map(|(_, _, v)| v)) {
            natures.push(self.nature(a)?);
        }
        // `get(x, i)` is `x[i]` to the checker (builtin.go's Types): a
        // base or an index of the wrong known type is refused, though
        // `get` of any value at run time is nil.
        if let ("get", [base, index]) = (call.name.as_str(), natures.as_slice()) {
            natures::access(*base, natures::Step::Index(*index)).map_err(|m| self.error(e.span, m))?;
        }
        match natures.first().and_then(|t| natures::first_argument(&call.name, *t)) {
            Some(m) => Err(self.error(e.span, m)),
            None => Ok(None),
        }
    }

    /// The nature of `base` read with `steps`, each accessor checked
    /// against what is known of the value it reads.
    fn access(&mut self, base: &'s Expr, steps: &'s [Step]) -> Result<Nature, Box<Diagnostic>> {
        let mut t = self.nature(base)?;
        let mut from = base.span.1;
        for step in steps {
            let read = match &step.op {
                Accessor::Member(key) => natures::Step::Member(key),
                Accessor::Index(i) => natures::Step::Index(self.nature(i)?),
                Accessor::Slice(from, to) => {
                    let from = from.as_deref().map_or(Ok(None), |b| self.nature(b))?;
                    let to = to.as_deref().map_or(Ok(None), |b| self.nature(b))?;
                    natures::Step::Slice(from, to)
                }
            };
            if t == Some(Type::Func)
                && from == base.span.1
                && let Some(refusal) = self.builtin_field(base, step.end)
            {
                return Err(refusal);
            }
            t = natures::access(t, read).map_err(|m| self.error((from, step.end), m))?;
            from = step.end;
        }
        Ok(t)
    }

    /// A field or an index of a builtin's name (`values.x`): the name is
    /// the function to expr-lang's checker even where the context has a
    /// key of that name, which `$env` reads.
    #[inline(never)]
    fn builtin_field(&self, base: &Expr, end: u32) -> Option<Box<Diagnostic>> {
        let Kind::Ident(name) = &base.kind else { return None };
        if self.scope.iter().any(|(n, _)| n == name) {
            return None;
        }
        let written = &self.src[base.span.0 as usize..end as usize];
        let message = format!(
            "'{name}' names a builtin function, so `{written}` does not compile; read the context's key as `$env.{name}`"
        );
        Some(self.error((base.span.0, end), message))
    }

    /// Refuses `==`/`!=` between operands that can never be equal and
    /// `in` a map with a key that is not a string, when their types are
    /// known.
    fn check_operands(&self, left_span: Span, left: Nature, link: &Link, right: Nature) -> Result<(), Box<Diagnostic>> {
        let message = match link.op {
            Binary::Eq | Binary::Ne => match (left, right) {
                (Some(l), Some(r)) if !natures::comparable(left, right) => {
                    let text = |s: (u32, u32)| excerpt::clip(self.src.get(s.0 as usize..s.1 as usize).unwrap_or(""));
                    natures::incomparable(link.op.text(), l, &text(left_span), r, &text(link.rhs.span))
                }
                _ => return Ok(()),
            },
            Binary::In | Binary::NotIn => match natures::in_map(left, right) {
                Some(m) => m,
                None => match natures::in_list(left, self.items_of(&link.rhs)) {
                    Some(m) => m,
                    None => return Ok(()),
                },
            },
            Binary::Range => match natures::range_bounds(left, right) {
                Some(m) => m,
                None => return Ok(()),
            },
            Binary::And | Binary::Or | Binary::Coalesce => return Ok(()),
            op if natures::operands(op, left, right).is_some() && !natures::has_func(left, right) => {
                let message = natures::operands(op, left, right).unwrap_or_default();
                return Err(self.error((left_span.0, link.rhs.span.1), message));
            }
            op => {
                let (operand, at) = match (left, right) {
                    (Some(Type::Func), _) => (left_span, "left"),
                    (_, Some(Type::Func)) => (link.rhs.span, "right"),
                    _ => return Ok(()),
                };
                let name = excerpt::clip(self.src.get(operand.0 as usize..operand.1 as usize).unwrap_or(""));
                format!(
                    "'{}' cannot be applied to a function ({at} operand '{name}'); call it: {name}(…)",
                    op.text()
                )
            }
        };
        // Found only now: looking for it on every operator was 2 % of
        // compiling a short `when`.
        let span = self.operator_span(left_span.1, link.rhs.span.0);
        Err(self.error(span, message))
    }

    /// The operator between two operands: what is between the end of
    /// one and the start of the other, but blanks and parentheses.
    fn operator_span(&self, after: u32, before: u32) -> Span {
        let between = self.src.get(after as usize..before as usize).unwrap_or("");
        let outside = |c: char| c.is_whitespace() || c == '(' || c == ')';
        let start = after + (between.len() - between.trim_start_matches(outside).len()) as u32;
        (start, start + between.trim_matches(outside).len() as u32)
    }

    fn error(&self, span: (u32, u32), message: String) -> Box<Diagnostic> {
        Box::new(Diagnostic::new(message, self.src, span.0 as usize, span.1 as usize))
    }

    fn need_bool(&self, t: Nature, e: &Expr, what: &str) -> Result<(), Box<Diagnostic>> {
        match t {
            Some(t) if t != Type::Bool => {
                let (start, end) = (e.span.0 as usize, e.span.1 as usize);
                let from = excerpt::clip(self.src.get(start..end).unwrap_or(""));
                Err(Box::new(Diagnostic::new(
                    format!(
                        "'{what}' needs a bool, got {} (from '{from}')",
                        t.name(Vocabulary::Expr)
                    ),
                    self.src,
                    start,
                    end,
                )))
            }
            _ => Ok(()),
        }
    }
}

/// What `binaryNode` makes of an operator's operand types (the error
/// cases are left to run time).
fn operation(op: Binary, l: Nature, r: Nature) -> Nature {
    let number = |t: Nature| matches!(t, Some(Type::Int | Type::Float));
    let number_or_unknown = |t: Nature| t.is_none() || number(t);
    let int_or_unknown = |t: Nature| matches!(t, None | Some(Type::Int));
    match op {
        _ if op.tests() => Some(Type::Bool),
        Binary::And | Binary::Or => Some(Type::Bool),
        // `PromoteNumericNature`: int with int stays int, else float.
        Binary::Add | Binary::Sub | Binary::Mul if number(l) && number(r) => {
            if l == Some(Type::Int) && r == Some(Type::Int) {
                Some(Type::Int)
            } else {
                Some(Type::Float)
            }
        }
        Binary::Add if l == Some(Type::Str) && r == Some(Type::Str) => Some(Type::Str),
        Binary::Div | Binary::Pow if number_or_unknown(l) && number_or_unknown(r) => Some(Type::Float),
        Binary::Mod if int_or_unknown(l) && int_or_unknown(r) => Some(Type::Int),
        Binary::Range if int_or_unknown(l) && int_or_unknown(r) => Some(Type::List),
        Binary::Coalesce => match (l, r) {
            (Some(Type::Nil), r) => r,
            (l, Some(Type::Nil)) => l,
            (Some(l), Some(r)) if l == r => Some(l),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a predicate builtin's body is a condition.
pub(crate) fn is_test(kind: Loop) -> bool {
    matches!(
        kind,
        Loop::Filter
            | Loop::All
            | Loop::Any
            | Loop::None
            | Loop::One
            | Loop::Count
            | Loop::Find
            | Loop::FindIndex
            | Loop::FindLast
            | Loop::FindLastIndex
    )
}

/// The result types `builtinNode` gives the predicate builtins.
fn predicate_nature(kind: Loop) -> Nature {
    match kind {
        Loop::All | Loop::Any | Loop::None | Loop::One => Some(Type::Bool),
        Loop::Filter | Loop::Map | Loop::SortBy | Loop::SortByDesc => Some(Type::List),
        Loop::Count | Loop::FindIndex | Loop::FindLastIndex => Some(Type::Int),
        Loop::GroupBy => Some(Type::Map),
        Loop::Find | Loop::FindLast | Loop::Reduce | Loop::ReduceFrom => None,
    }
}

/// A value expr's folding computes when compiling (the literals it can
/// reduce a node to and then fold with further).
#[derive(Clone, PartialEq)]
enum Lit {
    Bool(bool),
    Int(i64),
    Str(crate::ast::Name),
}

/// Where expr's folding first takes an int literal modulo a literal
/// zero: `fold.go` (`case "%"`) reports "integer divide by zero" when
/// compiling, whether or not the operation would ever run.
type ZeroMod = Option<(u32, u32)>;

/// The optimiser's rewrites of `&&`/`||` with a literal bool operand (2.
/// above), bottom-up over `e`; an error where its folding fails (`1 % 0`).
pub(crate) fn rewrite(e: &mut Expr, src: &str) -> Result<(), Diagnostic> {
    let mut zero = None;
    folded(&mut zero, e);
    match zero {
        Some((start, end)) => Err(Diagnostic::new(
            "'%' divides by zero",
            src,
            start as usize,
            end as usize,
        )),
        None => Ok(()),
    }
}

/// Rewrites `e`'s parts, then `e`; returns what expr's folding makes of
/// `e` when that is a literal.
fn folded(z: &mut ZeroMod, e: &mut Expr) -> Option<Lit> {
    match &mut e.kind {
        Kind::Bool(b) => Some(Lit::Bool(*b)),
        Kind::Int(i) => Some(Lit::Int(*i)),
        Kind::Str(s) => Some(Lit::Str(s.clone())),
        Kind::Unary(op, a) => match (op, folded(z, a)?) {
            (Unary::Not, Lit::Bool(b)) => Some(Lit::Bool(!b)),
            (Unary::Neg, Lit::Int(i)) => Some(Lit::Int(i.wrapping_neg())),
            (Unary::Plus, Lit::Int(i)) => Some(Lit::Int(i)),
            _ => None,
        },
        Kind::Chain(..) => folded_chain(z, e),
        _ => {
            parts(z, e);
            None
        }
    }
}

/// Rewrites the parts of an expression that is never a literal.
fn parts(z: &mut ZeroMod, e: &mut Expr) {
    e.for_each_part_mut(|part| {
        folded(z, part);
    });
}

/// A chain: its operands rewritten, then (for `&&`/`||`) the chain itself.
fn folded_chain(z: &mut ZeroMod, e: &mut Expr) -> Option<Lit> {
    let start = e.span.0;
    let Kind::Chain(first, links) = &mut e.kind else {
        return None;
    };
    let first_lit = folded(z, first);
    let op = links.first()?.op;
    if !matches!(op, Binary::And | Binary::Or) {
        // Operators of one precedence: fold left to right while known.
        let mut acc = first_lit;
        for link in links.iter_mut() {
            let r = folded(z, &mut link.rhs);
            acc = match (link.not, acc, r) {
                (false, Some(Lit::Int(_)), Some(Lit::Int(0))) if link.op == Binary::Mod => {
                    z.get_or_insert((start, link.rhs.span.1));
                    None
                }
                (false, Some(l), Some(r)) => operation_lit(link.op, l, r),
                _ => None,
            };
        }
        return acc;
    }
    let mut any_bool = matches!(first_lit, Some(Lit::Bool(_)));
    for link in links.iter_mut() {
        any_bool |= matches!(folded(z, &mut link.rhs), Some(Lit::Bool(_)));
    }
    if !any_bool {
        return None;
    }
    // Rare: the operands' literals are asked again (their parts are
    // rewritten already, so this changes nothing) rather than kept for
    // every chain.
    let mut lits = Vec::with_capacity(links.len() + 1);
    lits.push(first_lit);
    for link in links.iter_mut() {
        lits.push(folded(z, &mut link.rhs));
    }
    // `&&` decides on `false`, `||` on `true`; the other literal is the
    // operation's identity.
    let decides = op == Binary::Or;
    let start = e.span.0;
    let links = std::mem::take(links);
    let mut kept: Vec<(Expr, Option<Lit>)> = Vec::with_capacity(links.len() + 1);
    kept.push((
        std::mem::replace(&mut **first, Expr::new(Kind::Nil, e.span)),
        lits[0].take(),
    ));
    for (link, r) in links.into_iter().zip(lits.into_iter().skip(1)) {
        let left = match kept.as_slice() {
            [(_, l)] => l.clone(),
            _ => None,
        };
        let end = link.rhs.span.1;
        if left == Some(Lit::Bool(!decides)) {
            // `true && x`, `false || x`: x.
            kept = vec![(link.rhs, r)];
        } else if r == Some(Lit::Bool(!decides)) {
            // `x && true`, `x || false`: x, whatever it is.
        } else if left == Some(Lit::Bool(decides)) || r == Some(Lit::Bool(decides)) {
            // `false && x`, `x && false` (and `||` with `true`): decided
            // without looking at x.
            kept = vec![(Expr::new(Kind::Bool(decides), (start, end)), Some(Lit::Bool(decides)))];
        } else {
            kept.push((link.rhs, r));
        }
    }
    let mut operands = kept.into_iter();
    let (first_operand, lit) = operands.next()?;
    let links: Vec<Link> = operands.map(|(rhs, _)| Link { op, not: false, rhs }).collect();
    if links.is_empty() {
        *e = first_operand;
        return lit;
    }
    let span = (first_operand.span.0, links.last().map_or(e.span.1, |l| l.rhs.span.1));
    *e = Expr::new(Kind::Chain(Box::new(first_operand), links), span);
    None
}

/// What `fold.go` computes from two literals, when it does.
fn operation_lit(op: Binary, l: Lit, r: Lit) -> Option<Lit> {
    Some(match (op, l, r) {
        (Binary::Add, Lit::Int(a), Lit::Int(b)) => Lit::Int(a.wrapping_add(b)),
        (Binary::Sub, Lit::Int(a), Lit::Int(b)) => Lit::Int(a.wrapping_sub(b)),
        (Binary::Mul, Lit::Int(a), Lit::Int(b)) => Lit::Int(a.wrapping_mul(b)),
        (Binary::Mod, Lit::Int(a), Lit::Int(b)) if b != 0 => Lit::Int(a.wrapping_rem(b)),
        (Binary::Add, Lit::Str(a), Lit::Str(b)) => Lit::Str(a + &b),
        (Binary::Eq, Lit::Int(a), Lit::Int(b)) => Lit::Bool(a == b),
        (Binary::Eq, Lit::Str(a), Lit::Str(b)) => Lit::Bool(a == b),
        (Binary::Eq, Lit::Bool(a), Lit::Bool(b)) => Lit::Bool(a == b),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    //! What each logic compiles conditions to (which operands are asserted
    //! to be bools) is checked against golden disassembly in
    //! tests/golden/logic.txt.

    use crate::{Compiler, Dialect, Logic};

    #[test]
    fn literal_operands_are_rewritten_as_the_optimiser_does() {
        // The tree as written, without positions.
        let parsed = |src: &str| {
            let c = Compiler::new(Dialect::Windsor).logic(Logic::ExprLang).optimize(false);
            let tree = format!("{:?}", c.parse(src, 0, src.len()).unwrap().kind);
            regex::Regex::new(r"span: \(\d+, \d+\)")
                .unwrap()
                .replace_all(&tree, "")
                .into_owned()
        };
        assert_eq!(parsed("x && true"), parsed("x"));
        assert_eq!(parsed("x || 1 + 1 == 2"), parsed("true"));
        assert_eq!(parsed("true && x && (y || false)"), parsed("x && y"));
        assert_eq!(parsed("x && !false || z"), parsed("x || z"));
        // expr-lang's folding leaves `!=` alone: nothing to rewrite.
        assert_ne!(parsed("x && 1 != 2"), parsed("x"));
    }
}
